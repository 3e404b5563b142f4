/**
 * Pods (`pkg/registry/core/pod`): SetDefaults_Pod (spec defaults, the not-ready/unreachable
 * tolerations, a Pending BestEffort status), pod spec validation, graceful deletion of pods bound
 * to a node (the kubelet, or envtest's simulator, removes them) and kubectl's pod columns.
 */
import type { JsonObject, KubeObject } from "../../api/types.js";
import { age, ageColumn, nameColumn } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validatePodSpec } from "../workload-validation.js";
import { defaultPodSpec } from "./pod-defaults.js";

function countReady(o: KubeObject): string {
  const statuses = (objectAt(o.status).containerStatuses as JsonObject[] | undefined) ?? [];
  const total = (objectAt(o.spec).containers as unknown[] | undefined)?.length ?? 0;
  return `${statuses.filter((s) => s.ready).length}/${total}`;
}

export const pods: ResourceStrategy = {
  nameRule: "subdomain",
  statusOnCreate: true,
  extraSubresources: ["binding", "eviction"],
  defaults(o) {
    const spec = ensureObject(o, "spec");
    defaultPodSpec(spec);
    if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
    if (spec.priority === undefined) spec.priority = 0;
    if (spec.preemptionPolicy === undefined) spec.preemptionPolicy = "PreemptLowerPriority";
    if (spec.tolerations === undefined) {
      spec.tolerations = ["not-ready", "unreachable"].map((condition) => ({
        key: `node.kubernetes.io/${condition}`,
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      }));
    }
    const status = ensureObject(o, "status");
    if (status.phase === undefined) status.phase = "Pending";
    if (status.qosClass === undefined) status.qosClass = "BestEffort";
  },
  validate: (o) => validatePodSpec(o.spec, "spec"),
  gracePeriodSeconds(pod, requested) {
    const spec = objectAt(pod.spec);
    const phase = objectAt(pod.status).phase;
    if (!spec.nodeName || phase === "Succeeded" || phase === "Failed") return 0;
    const grace = requested ?? (spec.terminationGracePeriodSeconds as number | undefined) ?? 30;
    return Math.max(grace, 0);
  },
  printer: () => ({
    columns: [
      nameColumn,
      {
        name: "Ready",
        type: "string",
        description: "The aggregate readiness state of this pod for accepting traffic.",
      },
      {
        name: "Status",
        type: "string",
        description: "The aggregate status of the containers in this pod.",
      },
      {
        name: "Restarts",
        type: "string",
        description:
          "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
      },
      ageColumn,
      {
        name: "IP",
        type: "string",
        priority: 1,
        description: "The IP address assigned to the pod",
      },
      {
        name: "Node",
        type: "string",
        priority: 1,
        description: "The name of the node this pod is assigned to",
      },
    ],
    cells: (o) => [
      o.metadata?.name,
      countReady(o),
      o.metadata?.deletionTimestamp ? "Terminating" : (objectAt(o.status).phase ?? "Pending"),
      "0",
      age(o.metadata?.creationTimestamp),
      objectAt(o.status).podIP ?? "<none>",
      objectAt(o.spec).nodeName ?? "<none>",
    ],
  }),
};
