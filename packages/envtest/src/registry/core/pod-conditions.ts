/**
 * A pod's conditions as kube reads them (`pkg/api/v1/pod` util): what the eviction API, the
 * workload controllers, endpoints and disruption budgets count as ready.
 */
import type { JsonObject, KubeObject } from "../../api/types.js";

/** A pod's Ready condition is True (what ready replicas, endpoints and budgets count). */
export function isPodReady(pod: KubeObject): boolean {
  const conds =
    ((pod.status as JsonObject | undefined)?.conditions as JsonObject[] | undefined) ?? [];
  return conds.some((c) => c.type === "Ready" && c.status === "True");
}
