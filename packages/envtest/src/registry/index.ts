/**
 * Which strategy serves a resource: custom resources share one, built-ins are looked up by
 * group and resource, and everything else gets the generic strategy. Adding behaviour for a
 * built-in means a module in its group's folder and a line here.
 */
import { findResource, type SubresourceDescriptor } from "@opgen/apimachinery/catalog";
import {
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
} from "../admission/policy/strategy.js";
import type { ResourceInfo, ResourceVersionInfo } from "../api/types.js";
import {
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
} from "./admissionregistration/webhook-configurations.js";
import { daemonSets, deployments, replicaSets, statefulSets } from "./apps/workloads.js";
import { horizontalPodAutoscalers } from "./autoscaling/horizontal-pod-autoscalers.js";
import { cronJobs } from "./batch/cronjobs.js";
import { jobs } from "./batch/jobs.js";
import { certificateSigningRequests } from "./certificates/certificate-signing-requests.js";
import { leases } from "./coordination/leases.js";
import { configMaps, secrets } from "./core/config.js";
import { endpoints } from "./core/endpoints.js";
import { coreEvents, eventsV1 } from "./core/events.js";
import { limitRanges } from "./core/limit-ranges.js";
import { namespaces } from "./core/namespaces.js";
import { nodes } from "./core/nodes.js";
import { persistentVolumeClaims } from "./core/persistent-volume-claims.js";
import { persistentVolumes } from "./core/persistent-volumes.js";
import { podTemplates } from "./core/pod-templates.js";
import { pods } from "./core/pods.js";
import { replicationControllers } from "./core/replication-controllers.js";
import { resourceQuotas } from "./core/resource-quotas.js";
import { serviceAccounts } from "./core/service-accounts.js";
import { services } from "./core/services.js";
import { customResources } from "./custom/custom-resources.js";
import { endpointSlices } from "./discovery/endpoint-slices.js";
import { ingresses } from "./networking/ingresses.js";
import { podDisruptionBudgets } from "./policy/pod-disruption-budgets.js";
import { genericPrinters } from "./printing/index.js";
import { clusterRoleBindings, rbacObjects, roleBindings } from "./rbac/rbac.js";
import { priorityClasses } from "./scheduling/priority-classes.js";
import { genericStrategy, type ResourceStrategy } from "./strategy.js";

export type { ResourceStrategy } from "./strategy.js";

const builtins = new Map<string, ResourceStrategy>([
  ["/namespaces", namespaces],
  ["/pods", pods],
  ["/podtemplates", podTemplates],
  ["/services", services],
  ["/serviceaccounts", serviceAccounts],
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
  ["batch/cronjobs", cronJobs],
  ["rbac.authorization.k8s.io/roles", rbacObjects],
  ["rbac.authorization.k8s.io/rolebindings", roleBindings],
  ["rbac.authorization.k8s.io/clusterroles", rbacObjects],
  ["rbac.authorization.k8s.io/clusterrolebindings", clusterRoleBindings],
  ["/endpoints", endpoints],
  ["/limitranges", limitRanges],
  ["discovery.k8s.io/endpointslices", endpointSlices],
  ["/persistentvolumeclaims", persistentVolumeClaims],
  ["/persistentvolumes", persistentVolumes],
  ["/replicationcontrollers", replicationControllers],
  ["/resourcequotas", resourceQuotas],
  ["policy/poddisruptionbudgets", podDisruptionBudgets],
  ["autoscaling/horizontalpodautoscalers", horizontalPodAutoscalers],
  ["networking.k8s.io/ingresses", ingresses],
  ["scheduling.k8s.io/priorityclasses", priorityClasses],
  ["certificates.k8s.io/certificatesigningrequests", certificateSigningRequests],
  ["admissionregistration.k8s.io/mutatingwebhookconfigurations", mutatingWebhookConfigurations],
  ["admissionregistration.k8s.io/validatingwebhookconfigurations", validatingWebhookConfigurations],
  ["admissionregistration.k8s.io/validatingadmissionpolicies", validatingAdmissionPolicies],
  [
    "admissionregistration.k8s.io/validatingadmissionpolicybindings",
    validatingAdmissionPolicyBindings,
  ],
]);

export function strategyFor(
  info: Pick<ResourceInfo, "group" | "resource" | "custom">,
): ResourceStrategy {
  if (info.custom) return customResources;
  const key = `${info.group}/${info.resource}`;
  return builtins.get(key) ?? printedGeneric.get(key) ?? genericStrategy;
}

// Built-ins with kube's columns but no behaviour of their own.
const printedGeneric = new Map<string, ResourceStrategy>(
  [...genericPrinters].map(([key, p]) => [key, { ...genericStrategy, printer: () => p }]),
);

/**
 * The subresources a served version has: status and scale as the version declares them, and the
 * strategy's own (`namespaces/finalize`, `serviceaccounts/token`) with the kind and verbs the
 * 1.32 catalog gives them. Routing and discovery both read this.
 */
export function subresourcesOf(
  info: ResourceInfo,
  v: ResourceVersionInfo,
): SubresourceDescriptor[] {
  const subs: SubresourceDescriptor[] = [];
  const rw = ["get", "patch", "update"];
  if (v.scale)
    subs.push({ name: "scale", group: "autoscaling", version: "v1", kind: "Scale", verbs: rw });
  if (v.status) subs.push({ name: "status", kind: info.kind, verbs: rw });
  if (!info.custom) {
    const extra = strategyFor(info).extraSubresources ?? [];
    const catalog = extra.length
      ? findResource({ group: info.group, version: v.name, plural: info.resource })
      : undefined;
    for (const name of extra) {
      const d = catalog?.subresources.find((s) => s.name === name);
      if (!d) continue;
      // The catalog keeps OpenAPI's `connect` action; discovery lists the verbs of the methods a
      // connecter serves (exec, attach, portforward: GET and POST; proxy: every method).
      const verbs = d.verbs.includes("connect")
        ? d.name === "proxy"
          ? ["create", "delete", "get", "patch", "update"]
          : ["create", "get"]
        : d.verbs;
      // Discovery names a subresource's group and version only where they differ.
      const same = (d.group ?? info.group) === info.group && (d.version ?? v.name) === v.name;
      subs.push(same ? { name: d.name, kind: d.kind ?? info.kind, verbs } : { ...d, verbs });
    }
  }
  return subs.sort((a, b) => (a.name < b.name ? -1 : 1));
}
