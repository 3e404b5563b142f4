/**
 * The quota evaluators of kube 1.32 (`pkg/quota/v1/evaluator/core`, `k8s.io/apiserver/pkg/quota/v1/
 * generic`): for one kind of object, which quota resources it is charged under, what one object
 * uses of them, which quota scopes it falls in, and the constraints a quota on cpu or memory puts
 * on pods. Pods, Services and PersistentVolumeClaims have their own; every other resource is
 * counted (`count/<resource>[.<group>]`, with the legacy names configmaps, secrets,
 * replicationcontrollers and resourcequotas).
 */
import { isQualifiedName } from "@opgen/apimachinery/names";
import { parseQuantity } from "@opgen/apimachinery/quantity";
import { type KubeObject, objectAt } from "../../api/types.js";
import type { GoQuantity } from "../go-quantity.js";
import { podTotals } from "./pod-totals.js";
import { add, count, type ResourceList, resourceList } from "./resource-list.js";

export type Operation = "CREATE" | "UPDATE";

/** A quota's scope requirement (spec.scopes become `Exists` requirements). */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether a write of this kind can change usage. */
  handles(operation: Operation): boolean;
  /** The names of `names` this evaluator tracks. */
  matchingResources(names: readonly string[]): string[];
  /** What one object uses. */
  usage(obj: KubeObject, now: number): ResourceList;
  /** Whether the object falls in a scope (kinds without scopes match none). */
  matchesScope(req: ScopeRequirement, obj: KubeObject): boolean;
  /** Why the object may not be admitted under a quota on `required`, if it may not. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
}

/** generic.ObjectCountQuotaResourceNameFor. */
export function countName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** Writes quota never sees: virtual resources and events (install.DefaultIgnoredResources). */
const IGNORED = new Set([
  "/bindings",
  "/componentstatuses",
  "/events",
  "events.k8s.io/events",
  "authentication.k8s.io/tokenreviews",
  "authentication.k8s.io/selfsubjectreviews",
  "authorization.k8s.io/subjectaccessreviews",
  "authorization.k8s.io/selfsubjectaccessreviews",
  "authorization.k8s.io/localsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectrulesreviews",
]);

/** legacyObjectCountAliases. */
const LEGACY_ALIASES = new Set([
  "configmaps",
  "resourcequotas",
  "replicationcontrollers",
  "secrets",
]);

export function isIgnored(group: string, resource: string): boolean {
  return IGNORED.has(`${group}/${resource}`);
}

const noScope = () => false;

/** generic.NewObjectCountEvaluator: one of each object, on create. */
function objectCountEvaluator(group: string, resource: string): Evaluator {
  const names = [countName(group, resource)];
  // The legacy name of a core count is the resource's own.
  if (group === "" && LEGACY_ALIASES.has(resource)) names.push(resource);
  return {
    group,
    resource,
    handles: (op) => op === "CREATE",
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    usage: () => new Map(names.map((n) => [n, count(1)])),
    matchesScope: noScope,
    constraints: () => undefined,
  };
}

// ----------------------------------------------------------------------------------- pods

const POD_RESOURCES = new Set([
  "count/pods",
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
]);
/** The names a quota on which makes every container state the value (a historical mistake). */
const VALIDATION_SET = new Set([
  "cpu",
  "memory",
  "requests.cpu",
  "requests.memory",
  "limits.cpu",
  "limits.memory",
]);

/** helper.IsNativeResource: no domain, or a kubernetes.io one. */
function isNative(name: string): boolean {
  return !name.includes("/") || name.includes("kubernetes.io/");
}

/** helper.IsExtendedResourceName. */
function isExtended(name: string): boolean {
  if (isNative(name) || name.startsWith("requests.")) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** podComputeUsageHelper: what requests and limits charge (`cpu` is the request). */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([["pods", count(1)]]);
  for (const r of ["cpu", "memory", "ephemeral-storage"]) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith("hugepages-")) {
      out.set(r, q);
      out.set(`requests.${r}`, q);
    }
    if (isExtended(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

/**
 * QuotaV1Pod: terminal pods, and pods whose deletion is overdue by their grace period, are not
 * charged compute resources.
 */
export function podCharged(pod: KubeObject, now: number): boolean {
  const phase = objectAt(pod.status).phase;
  if (phase === "Failed" || phase === "Succeeded") return false;
  const m = pod.metadata;
  if (m?.deletionTimestamp && typeof m.deletionGracePeriodSeconds === "number")
    return now <= Date.parse(m.deletionTimestamp) + m.deletionGracePeriodSeconds * 1000;
  return true;
}

/** resourcehelper.PodRequests/PodLimits: the effective totals plus the runtime's overhead. */
function podRequestsAndLimits(pod: KubeObject): [ResourceList, ResourceList] {
  const [requests, limits] = podTotals(pod);
  const overhead = resourceList(objectAt(pod.spec).overhead);
  const withOverhead = add(requests, overhead);
  // Overhead raises a limit only where the pod has one.
  const limited = add(limits, new Map([...overhead].filter(([k]) => limits.has(k))));
  return [withOverhead, limited];
}

function isBestEffort(pod: KubeObject): boolean {
  const qos = objectAt(pod.status).qosClass;
  if (typeof qos === "string") return qos === "BestEffort";
  // qos.GetPodQOS before the pod was classified: no positive cpu or memory request or limit.
  const spec = objectAt(pod.spec);
  const containers = [
    ...((spec.containers ?? []) as unknown[]),
    ...((spec.initContainers ?? []) as unknown[]),
  ];
  return containers.every((c) => {
    const r = objectAt(objectAt(c).resources);
    return ["requests", "limits"].every((key) => {
      const list = resourceList(r[key]);
      return ["cpu", "memory"].every((n) => (list.get(n)?.q.sign() ?? 0) <= 0);
    });
  });
}

function isTerminating(pod: KubeObject): boolean {
  const ads = objectAt(pod.spec).activeDeadlineSeconds;
  return typeof ads === "number" && ads >= 0;
}

/** usesCrossNamespacePodAffinity: a pod (anti-)affinity term naming namespaces or a selector. */
function crossNamespaceAffinity(pod: KubeObject): boolean {
  const affinity = objectAt(objectAt(pod.spec).affinity);
  const crossTerm = (t: unknown) => {
    const term = objectAt(t);
    const ns = term.namespaces;
    return (Array.isArray(ns) && ns.length > 0) || (term.namespaceSelector ?? null) !== null;
  };
  for (const kind of ["podAffinity", "podAntiAffinity"]) {
    const a = objectAt(affinity[kind]);
    const required = (a.requiredDuringSchedulingIgnoredDuringExecution ?? []) as unknown[];
    const preferred = (a.preferredDuringSchedulingIgnoredDuringExecution ?? []) as unknown[];
    if (required.some(crossTerm)) return true;
    if (preferred.some((w) => crossTerm(objectAt(w).podAffinityTerm))) return true;
  }
  return false;
}

/**
 * A PriorityClass requirement as a label selector over `{PriorityClass: <name>}` (no label when
 * the pod names no class), as ScopedResourceSelectorRequirementsAsSelector builds it.
 */
function priorityClassMatches(req: ScopeRequirement, pod: KubeObject): boolean {
  const name = objectAt(pod.spec).priorityClassName;
  const has = typeof name === "string" && name !== "";
  const values = req.values ?? [];
  switch (req.operator) {
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "In":
      return has && values.includes(name as string);
    case "NotIn":
      return !has || !values.includes(name as string);
    default:
      return false;
  }
}

/** Which containers lack a value a quota on cpu or memory requires (enforcePodContainerConstraints). */
function missingValues(required: Set<string>, pod: KubeObject): Map<string, Set<string>> {
  const missing = new Map<string, Set<string>>();
  const spec = objectAt(pod.spec);
  for (const c of [
    ...((spec.containers ?? []) as unknown[]),
    ...((spec.initContainers ?? []) as unknown[]),
  ]) {
    const container = objectAt(c);
    const r = objectAt(container.resources);
    const has = computeUsage(resourceList(r.requests), resourceList(r.limits));
    for (const name of required) {
      if (has.has(name)) continue;
      const set = missing.get(name) ?? new Set<string>();
      set.add(String(container.name ?? ""));
      missing.set(name, set);
    }
  }
  return missing;
}

const podEvaluator: Evaluator = {
  group: "",
  resource: "pods",
  // In-place resize is off in 1.32: pods are charged when created.
  handles: (op) => op === "CREATE",
  matchingResources: (input) => [
    ...input.filter((n) => POD_RESOURCES.has(n)),
    ...input.filter(
      (n) =>
        n.startsWith("hugepages-") ||
        n.startsWith("requests.hugepages-") ||
        (!isNative(n) && n.startsWith("requests.")),
    ),
  ],
  usage(pod, now) {
    const out: ResourceList = new Map([["count/pods", count(1)]]);
    if (!podCharged(pod, now)) return out;
    const [requests, limits] = podRequestsAndLimits(pod);
    return add(out, computeUsage(requests, limits));
  },
  matchesScope(req, pod) {
    switch (req.scopeName) {
      case "Terminating":
        return isTerminating(pod);
      case "NotTerminating":
        return !isTerminating(pod);
      case "BestEffort":
        return isBestEffort(pod);
      case "NotBestEffort":
        return !isBestEffort(pod);
      case "PriorityClass":
        return priorityClassMatches(req, pod);
      case "CrossNamespacePodAffinity":
        return crossNamespaceAffinity(pod);
      default:
        return false;
    }
  },
  constraints(required, pod) {
    const set = new Set(required.filter((n) => VALIDATION_SET.has(n)));
    if (set.size === 0) return undefined;
    const missing = missingValues(set, pod);
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()]
      .sort()
      .map((name) => `${name} for: ${[...missing.get(name)!].sort().join(",")}`);
    return `must specify ${parts.join("; ")}`;
  },
};

// ------------------------------------------------------------------------------- services

const SERVICE_RESOURCES = new Set([
  "count/services",
  "services",
  "services.nodeports",
  "services.loadbalancers",
]);

const serviceEvaluator: Evaluator = {
  group: "",
  resource: "services",
  // A Service's type can change, so updates are charged too.
  handles: () => true,
  matchingResources: (input) => input.filter((n) => SERVICE_RESOURCES.has(n)),
  usage(svc) {
    const spec = objectAt(svc.spec);
    const ports = ((spec.ports ?? []) as unknown[]).map(objectAt);
    let nodePorts = 0;
    let loadBalancers = 0;
    if (spec.type === "NodePort") nodePorts = ports.length;
    else if (spec.type === "LoadBalancer") {
      loadBalancers = 1;
      // Without allocated node ports only the ones the Service names count.
      nodePorts =
        spec.allocateLoadBalancerNodePorts === false
          ? ports.filter((p) => typeof p.nodePort === "number" && p.nodePort !== 0).length
          : ports.length;
    }
    return new Map([
      ["count/services", count(1)],
      ["services", count(1)],
      ["services.loadbalancers", count(loadBalancers)],
      ["services.nodeports", count(nodePorts)],
    ]);
  },
  matchesScope: noScope,
  constraints: () => undefined,
};

// ---------------------------------------------------------------- persistentvolumeclaims

const STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
const PVC_RESOURCES = ["persistentvolumeclaims", "requests.storage"];

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation, then the field. */
function claimClass(pvc: KubeObject): string {
  const annotated = pvc.metadata?.annotations?.["volume.beta.kubernetes.io/storage-class"];
  if (annotated !== undefined) return annotated;
  const field = objectAt(pvc.spec).storageClassName;
  return typeof field === "string" ? field : "";
}

/** Storage is charged in whole bytes (RoundUp(0)). */
function wholeBytes(list: ResourceList, key: string): GoQuantity | undefined {
  const g = list.get(key);
  if (!g || g.q.isInteger()) return g;
  const whole = g.q.units > 0n ? g.q.integer() + 1n : g.q.integer();
  return { q: parseQuantity(String(whole))!, format: g.format };
}

/** The storage a claim is charged: its request, or more when more was allocated. */
function claimStorage(pvc: KubeObject) {
  const requested = wholeBytes(
    resourceList(objectAt(objectAt(pvc.spec).resources).requests),
    "storage",
  );
  const allocated = wholeBytes(resourceList(objectAt(pvc.status).allocatedResources), "storage");
  if (requested && allocated && allocated.q.cmp(requested.q) > 0) return allocated;
  return requested;
}

const claimEvaluator: Evaluator = {
  group: "",
  resource: "persistentvolumeclaims",
  handles: () => true,
  matchingResources: (input) =>
    input.filter(
      (n) =>
        n === "count/persistentvolumeclaims" ||
        PVC_RESOURCES.includes(n) ||
        PVC_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r)),
    ),
  usage(pvc) {
    const out: ResourceList = new Map([
      ["persistentvolumeclaims", count(1)],
      ["count/persistentvolumeclaims", count(1)],
    ]);
    const cls = claimClass(pvc);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, count(1));
    const storage = claimStorage(pvc);
    if (storage) {
      out.set("requests.storage", storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  matchesScope: noScope,
  constraints: () => undefined,
};

const SPECIAL = new Map<string, Evaluator>([
  ["pods", podEvaluator],
  ["services", serviceEvaluator],
  ["persistentvolumeclaims", claimEvaluator],
]);

/** The evaluator for writes of a resource (an object count for all but the three above). */
export function evaluatorFor(group: string, resource: string): Evaluator {
  return (
    (group === "" ? SPECIAL.get(resource) : undefined) ?? objectCountEvaluator(group, resource)
  );
}

/**
 * The evaluators that track any of a quota's resource names, as the resourcequota controller
 * holds them: the three above, the legacy counts, and a count for every served resource a
 * `count/` name denotes (`served` says which are).
 */
export function evaluatorsTracking(
  names: readonly string[],
  served: (group: string, resource: string) => boolean,
): Evaluator[] {
  const out = new Map<string, Evaluator>();
  const put = (e: Evaluator) => out.set(`${e.group}/${e.resource}`, e);
  for (const e of SPECIAL.values()) if (e.matchingResources(names).length) put(e);
  for (const name of names) {
    if (LEGACY_ALIASES.has(name)) put(objectCountEvaluator("", name));
    if (!name.startsWith("count/")) continue;
    const rest = name.slice("count/".length);
    const dot = rest.indexOf(".");
    const resource = dot < 0 ? rest : rest.slice(0, dot);
    const group = dot < 0 ? "" : rest.slice(dot + 1);
    if (out.has(`${group}/${resource}`) || isIgnored(group, resource)) continue;
    if (served(group, resource)) put(evaluatorFor(group, resource));
  }
  return [...out.values()];
}
