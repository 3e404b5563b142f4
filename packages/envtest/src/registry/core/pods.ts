/**
 * Pods (`pkg/registry/core/pod`): SetDefaults_Pod (spec defaults, the not-ready/unreachable
 * tolerations, a Pending BestEffort status), pod spec validation, graceful deletion of pods bound
 * to a node (the kubelet, or envtest's simulator, removes them) and kubectl's pod columns.
 */
import { quantityValue } from "@opgen/apimachinery/quantity";
import type { JsonObject, KubeObject } from "../../api/types.js";
import { podUpdate } from "../immutability.js";
import { doc } from "../printing/describe.js";
import { listAt, str } from "../printing/format.js";
import { age, ageColumn, nameColumn } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validatePodSpec } from "../workload-validation.js";
import {
  EPHEMERAL_SUBRESOURCE,
  keepOnlyEphemeralContainers,
  validateEphemeralContainers,
  validateEphemeralContainersOnCreate,
  validateEphemeralContainersUpdate,
} from "./ephemeral-containers.js";
import { applyAppArmorVersionSkew } from "./pod-apparmor.js";
import { defaultPodSpec } from "./pod-defaults.js";

/**
 * kubectl's READY, STATUS and RESTARTS cells as kube's pod printer derives them from the
 * container statuses: init progress (`Init:0/1`), waiting and terminated reasons
 * (`CrashLoopBackOff`, `Completed`, `ExitCode:1`), `Terminating`.
 */
function podCells(o: KubeObject): [ready: string, status: string, restarts: string] {
  const status = objectAt(o.status);
  const spec = objectAt(o.spec);
  let reason = String(status.reason || status.phase || "Pending");
  let restarts = 0;
  let lastRestart: string | undefined;
  const note = (c: JsonObject) => {
    restarts += Number(c.restartCount ?? 0);
    const finished = objectAt(objectAt(c.lastState).terminated).finishedAt;
    if (typeof finished === "string" && (!lastRestart || finished > lastRestart))
      lastRestart = finished;
  };
  const inits = (status.initContainerStatuses ?? []) as JsonObject[];
  let initializing = false;
  inits.forEach((c, i) => {
    note(c);
    const state = objectAt(c.state);
    const term = objectAt(state.terminated);
    const wait = objectAt(state.waiting);
    if (state.terminated !== undefined && term.exitCode === 0) return;
    if (initializing) return;
    initializing = true;
    if (state.terminated !== undefined)
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    else if (wait.reason && wait.reason !== "PodInitializing") reason = `Init:${wait.reason}`;
    else reason = `Init:${i}/${((spec.initContainers as unknown[]) ?? []).length}`;
  });
  let ready = 0;
  if (!initializing) {
    restarts = 0;
    let running = false;
    const statuses = (status.containerStatuses ?? []) as JsonObject[];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      note(c);
      const state = objectAt(c.state);
      const wait = objectAt(state.waiting);
      const term = objectAt(state.terminated);
      if (wait.reason) reason = String(wait.reason);
      else if (term.reason) reason = String(term.reason);
      else if (state.terminated !== undefined)
        reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && state.running !== undefined) {
        running = true;
        ready++;
      }
    }
    if (reason === "Completed" && running) {
      const conditions = (status.conditions ?? []) as JsonObject[];
      reason = conditions.some((c) => c.type === "Ready" && c.status === "True")
        ? "Running"
        : "NotReady";
    }
  }
  if (o.metadata?.deletionTimestamp)
    reason = status.reason === "NodeLost" ? "Unknown" : "Terminating";
  const total = ((spec.containers as unknown[]) ?? []).length;
  const restartCell = lastRestart ? `${restarts} (${age(lastRestart)} ago)` : String(restarts);
  return [`${ready}/${total}`, reason, restartCell];
}

/** qos.GetPodQOS: Guaranteed when every container limits and requests cpu and memory equally. */
function qosClass(spec: JsonObject): string {
  const containers = [
    ...((spec.initContainers ?? []) as JsonObject[]),
    ...((spec.containers ?? []) as JsonObject[]),
  ];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const r = objectAt(c.resources);
    const requests = objectAt(r.requests);
    const limits = objectAt(r.limits);
    if (Object.keys(requests).length || Object.keys(limits).length) any = true;
    for (const k of ["cpu", "memory"]) {
      const l = quantityValue(limits[k]);
      if (l === undefined || quantityValue(requests[k] ?? limits[k]) !== l) guaranteed = false;
    }
  }
  return guaranteed ? "Guaranteed" : any ? "Burstable" : "BestEffort";
}

function readinessGates(o: KubeObject): string {
  const gates = (objectAt(o.spec).readinessGates ?? []) as JsonObject[];
  if (gates.length === 0) return "<none>";
  const conditions = (objectAt(o.status).conditions ?? []) as JsonObject[];
  const passed = gates.filter((g) =>
    conditions.some((c) => c.type === g.conditionType && c.status === "True"),
  ).length;
  return `${passed}/${gates.length}`;
}

export const pods: ResourceStrategy = {
  resetFields: (sub) =>
    sub === "status"
      ? [["spec"], ["metadata", "deletionTimestamp"], ["metadata", "ownerReferences"]]
      : undefined,
  nameRule: "subdomain",
  statusOnCreate: true,
  // A binding (binding.ts) writes the node and the PodScheduled condition together.
  ownsSubresourceStatus: ["binding"],
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
    // SetDefaults_Pod: a limit without a request requests the limit.
    for (const key of ["initContainers", "containers"])
      for (const c of (spec[key] as JsonObject[] | undefined) ?? []) {
        const resources = objectAt(c.resources);
        const limits = objectAt(resources.limits);
        if (Object.keys(limits).length === 0) continue;
        const requests = { ...objectAt(resources.requests) };
        for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
        c.resources = { ...resources, requests };
      }
    const status = ensureObject(o, "status");
    if (status.phase === undefined) status.phase = "Pending";
  },
  prepareForCreate(o, warnings) {
    applyAppArmorVersionSkew(o, warnings);
    const status = ensureObject(o, "status");
    status.qosClass = qosClass(objectAt(o.spec));
  },
  // Ephemeral containers are validated by the create and update checks: an update of a static
  // pod's ephemeral containers answers with that refusal alone.
  validate: (o) => validatePodSpec(o.spec, "spec"),
  validateCreate: validateEphemeralContainersOnCreate,
  validateUpdate: (o, old, subresource) =>
    subresource === undefined
      ? [...validateEphemeralContainers(o.spec), ...podUpdate(o, old)]
      : subresource === EPHEMERAL_SUBRESOURCE
        ? validateEphemeralContainersUpdate(o, old)
        : [],
  prepareForUpdate(o, old, subresource) {
    if (subresource === EPHEMERAL_SUBRESOURCE) keepOnlyEphemeralContainers(o, old);
  },
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
        description: doc("api.core.v1.PodStatus", "podIP"),
      },
      {
        name: "Node",
        type: "string",
        priority: 1,
        description: doc("api.core.v1.PodSpec", "nodeName"),
      },
      {
        name: "Nominated Node",
        type: "string",
        priority: 1,
        description: doc("api.core.v1.PodStatus", "nominatedNodeName"),
      },
      {
        name: "Readiness Gates",
        type: "string",
        priority: 1,
        description: doc("api.core.v1.PodSpec", "readinessGates"),
      },
    ],
    cells: (o) => [
      o.metadata?.name,
      ...podCells(o),
      age(o.metadata?.creationTimestamp),
      // kube prints the first of podIPs; empty strings print as <none>.
      str(listAt(objectAt(o.status).podIPs)[0]?.ip) || "<none>",
      str(objectAt(o.spec).nodeName) || "<none>",
      str(objectAt(o.status).nominatedNodeName) || "<none>",
      readinessGates(o),
    ],
  }),
};
