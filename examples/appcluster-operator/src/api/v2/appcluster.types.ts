import type { int32, ObjectMeta } from "@opgen/runtime";
import { defineKind } from "@opgen/runtime";
import { GroupVersion } from "./groupversion.js";

/** AppClusterSpec defines the desired state of AppCluster. */
export interface AppClusterSpec {
  /**
   * replicas is the number of pods to run (v1 calls it `size`).
   * @validation Minimum=0
   */
  replicas?: int32;
}

/** AppClusterStatus defines the observed state of AppCluster. */
export interface AppClusterStatus {
  /** ready is the number of pods that exist for this AppCluster (the observed state). */
  ready?: int32;
}

/**
 * AppCluster v2 renames v1's `spec.size` to `spec.replicas`. The API server stores v1 and converts
 * through the operator's conversion webhook (src/api/v2/appcluster.conversion.ts).
 * @resource scope=Namespaced shortName=ac
 * @subresource status
 * @printcolumn name=Replicas type=integer jsonPath=.spec.replicas
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
