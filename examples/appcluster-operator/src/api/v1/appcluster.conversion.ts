import { GroupVersion } from "./groupversion.js";

/**
 * AppCluster v1 is the conversion hub: the API server stores it (@storageversion) and every other
 * served version converts to and from it in its own appcluster.conversion.ts.
 */
export const AppClusterHub = {
  group: GroupVersion.group,
  kind: "AppCluster",
  hub: GroupVersion.version,
} as const;
