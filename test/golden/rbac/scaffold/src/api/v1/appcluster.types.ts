import type { Condition, int32, ObjectMeta } from "@opgen/runtime";
import { defineKind } from "@opgen/runtime";
import { GroupVersion } from "./groupversion.js";

/** AppClusterSpec defines the desired state of AppCluster. */
export interface AppClusterSpec {
  /**
   * size is the number of pods the AppCluster runs.
   * @validation Minimum=0
   * @default 1
   */
  size?: int32;
}

/** AppClusterStatus defines the observed state of AppCluster. */
export interface AppClusterStatus {
  /**
   * conditions represent the current state of the AppCluster resource.
   * @listType map
   * @listMapKey type
   */
  conditions?: Condition[];
}

/**
 * AppCluster is the Schema for the appclusters API.
 * @resource scope=Namespaced
 * @subresource status
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
