/**
 * Which strategy serves a resource: custom resources share one, built-ins are looked up by
 * group and resource, and everything else gets the generic strategy. Adding behaviour for a
 * built-in means a module in its group's folder and a line here.
 */
import type { ResourceInfo } from "../api/types.js";
import { daemonSets, deployments, replicaSets, statefulSets } from "./apps/workloads.js";
import { jobs } from "./batch/jobs.js";
import { leases } from "./coordination/leases.js";
import { configMaps, secrets } from "./core/config.js";
import { coreEvents, eventsV1 } from "./core/events.js";
import { namespaces } from "./core/namespaces.js";
import { nodes } from "./core/nodes.js";
import { pods } from "./core/pods.js";
import { services } from "./core/services.js";
import { customResources } from "./custom/custom-resources.js";
import { rbacObjects } from "./rbac/rbac.js";
import { genericStrategy, type ResourceStrategy } from "./strategy.js";

export type { ResourceStrategy } from "./strategy.js";

const builtins = new Map<string, ResourceStrategy>([
  ["/namespaces", namespaces],
  ["/pods", pods],
  ["/services", services],
  ["/configmaps", configMaps],
  ["/secrets", secrets],
  ["/events", coreEvents],
  ["/nodes", nodes],
  ["events.k8s.io/events", eventsV1],
  ["coordination.k8s.io/leases", leases],
  ["apps/deployments", deployments],
  ["apps/replicasets", replicaSets],
  ["apps/statefulsets", statefulSets],
  ["apps/daemonsets", daemonSets],
  ["batch/jobs", jobs],
  ["rbac.authorization.k8s.io/roles", rbacObjects],
  ["rbac.authorization.k8s.io/rolebindings", rbacObjects],
  ["rbac.authorization.k8s.io/clusterroles", rbacObjects],
  ["rbac.authorization.k8s.io/clusterrolebindings", rbacObjects],
]);

export function strategyFor(
  info: Pick<ResourceInfo, "group" | "resource" | "custom">,
): ResourceStrategy {
  if (info.custom) return customResources;
  return builtins.get(`${info.group}/${info.resource}`) ?? genericStrategy;
}
