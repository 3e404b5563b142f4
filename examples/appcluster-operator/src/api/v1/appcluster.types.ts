import type { int32, ObjectMeta } from "@opgen/runtime";
import { defineKind } from "@opgen/runtime";
import { GroupVersion } from "./groupversion.js";

/** AppClusterSpec defines the desired state of AppCluster. */
export interface AppClusterSpec {
  /**
   * size is the number of pods to run (the desired state).
   * @validation Minimum=0
   */
  size?: int32;
}

/** AppClusterStatus defines the observed state of AppCluster. */
export interface AppClusterStatus {
  /** ready is the number of pods that exist for this AppCluster (the observed state). */
  ready?: int32;
}

/**
 * AppCluster runs `size` nginx pods and reports how many exist. v1 is the version the API server
 * stores and the conversion hub: v2 converts to and from it (src/api/v2/appcluster.conversion.ts).
 * @resource scope=Namespaced shortName=ac
 * @storageversion
 * @subresource status
 * @printcolumn name=Size type=integer jsonPath=.spec.size
 * @printcolumn name=Ready type=integer jsonPath=.status.ready
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface AppCluster {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: AppClusterSpec;
  status?: AppClusterStatus;
}

export const AppClusterKind = defineKind<AppCluster>({
  group: GroupVersion.group,
  version: GroupVersion.version,
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});
