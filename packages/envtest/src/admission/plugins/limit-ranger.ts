/**
 * The LimitRanger admission plugin (`plugin/pkg/admission/limitranger`), both halves as
 * kube-apiserver runs them. Mutating, on pod creation: containers and init containers get the
 * `default` limits and `defaultRequest` requests of the namespace's LimitRanges of type Container
 * where they set none, recorded in the `kubernetes.io/limit-ranger` annotation. Validating (after
 * the mutating webhooks and the pod's own validation): each container against the Container
 * items' `min`/`max`/`maxLimitRequestRatio`, the pod's totals against the Pod items', and a
 * PersistentVolumeClaim's storage request (on create and on resize) against the
 * PersistentVolumeClaim items'; a violation is refused with 403 and kube's message.
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../../api/registry.js";
import { type JsonObject, type KubeObject, objectAt } from "../../api/types.js";
import {
  comparable,
  type GoQuantity,
  MAX_MILLI,
  milliValue,
  quantityString,
  value,
} from "../../rest/go-quantity.js";
import { podTotals } from "../../rest/quota/pod-totals.js";
import { type ResourceList, resourceList } from "../../rest/quota/resource-list.js";
import type { RequestScope } from "../../rest/scope.js";
import type { Store } from "../../store/store.js";
import type { AdmissionPlugin } from "../chain.js";

const LIMIT_RANGES = bucketKey("", "limitranges");
const ANNOTATION = "kubernetes.io/limit-ranger";

function limitItems(lr: KubeObject): JsonObject[] {
  return ((objectAt(lr.spec).limits ?? []) as unknown[]).filter(
    (i): i is JsonObject => typeof i === "object" && i !== null && !Array.isArray(i),
  );
}

export class LimitRanger implements AdmissionPlugin {
  readonly name = "LimitRanger";
  constructor(private readonly store: Store) {}

  /** PodMutateLimitFunc, LimitRange by LimitRange. */
  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (resourceOf(scope, old) !== "pods") return;
    for (const lr of this.store.list(LIMIT_RANGES, scope.namespace)) defaultPod(lr, obj);
  }

  /** PodValidateLimitFunc and PersistentVolumeClaimValidateLimitFunc. */
  validate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    const resource = resourceOf(scope, old);
    if (!resource || old?.metadata?.deletionTimestamp) return;
    for (const lr of this.store.list(LIMIT_RANGES, scope.namespace)) {
      const errs = resource === "pods" ? podErrors(lr, obj) : claimErrors(lr, obj);
      if (errs.length === 0) continue;
      // One LimitRange's violations together, as utilerrors.NewAggregate prints them.
      const unique = [...new Set(errs)];
      const name = obj.metadata?.name || obj.metadata?.generateName || "Unknown";
      throw errors.forbidden(
        { group: "", resource },
        name,
        unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`,
      );
    }
  }
}

/** What the plugin handles: pod creates (pods' resources cannot change) and claim writes. */
function resourceOf(scope: RequestScope, old: KubeObject | undefined): string | undefined {
  if (scope.subresource !== undefined || scope.info.group !== "") return undefined;
  if (scope.info.resource === "pods") return old ? undefined : "pods";
  return scope.info.resource === "persistentvolumeclaims" ? "persistentvolumeclaims" : undefined;
}

function containersOf(pod: KubeObject): [string, JsonObject[]][] {
  const spec = objectAt(pod.spec);
  return [
    ["container", ((spec.containers ?? []) as JsonObject[]).filter(isObj)],
    ["init container", ((spec.initContainers ?? []) as JsonObject[]).filter(isObj)],
  ];
}

function isObj(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** defaultContainerResourceRequirements + mergePodResourceRequirements for one LimitRange. */
function defaultPod(lr: KubeObject, pod: KubeObject): void {
  const defaultLimits: JsonObject = {};
  const defaultRequests: JsonObject = {};
  for (const item of limitItems(lr)) {
    if (item.type !== "Container") continue;
    Object.assign(defaultRequests, objectAt(item.defaultRequest));
    Object.assign(defaultLimits, objectAt(item.default));
  }
  const notes: string[] = [];
  for (const [prefix, containers] of containersOf(pod)) {
    for (const c of containers) {
      const resources = objectAt(c.resources);
      const limits = { ...objectAt(resources.limits) };
      const requests = { ...objectAt(resources.requests) };
      const setLimits = Object.keys(defaultLimits).filter((k) => !(k in limits));
      const setRequests = Object.keys(defaultRequests).filter((k) => !(k in requests));
      for (const k of setLimits) limits[k] = defaultLimits[k];
      for (const k of setRequests) requests[k] = defaultRequests[k];
      if (setLimits.length || setRequests.length) {
        c.resources = {
          ...resources,
          ...(Object.keys(limits).length ? { limits } : {}),
          ...(Object.keys(requests).length ? { requests } : {}),
        };
      }
      if (setRequests.length)
        notes.push(`${setRequests.sort().join(", ")} request for ${prefix} ${c.name}`);
      if (setLimits.length)
        notes.push(`${setLimits.sort().join(", ")} limit for ${prefix} ${c.name}`);
    }
  }
  if (notes.length && pod.metadata)
    pod.metadata.annotations = {
      ...(pod.metadata.annotations ?? {}),
      [ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}`,
    };
}

function podErrors(lr: KubeObject, pod: KubeObject): string[] {
  const errs: string[] = [];
  const check = (item: JsonObject, kind: string, requests: ResourceList, limits: ResourceList) => {
    for (const [k, v] of resourceList(item.min))
      push(errs, minConstraint(kind, k, v, requests, limits));
    for (const [k, v] of resourceList(item.max))
      push(errs, maxConstraint(kind, k, v, requests, limits));
    for (const [k, v] of resourceList(item.maxLimitRequestRatio))
      push(errs, ratioConstraint(kind, k, v, requests, limits));
  };
  for (const item of limitItems(lr)) {
    if (item.type === "Container") {
      for (const [, containers] of containersOf(pod))
        for (const c of containers) {
          const resources = objectAt(c.resources);
          check(
            item,
            "Container",
            resourceList(resources.requests),
            resourceList(resources.limits),
          );
        }
    } else if (item.type === "Pod") {
      const [requests, limits] = podTotals(pod);
      check(item, "Pod", requests, limits);
    }
  }
  return errs;
}

function claimErrors(lr: KubeObject, pvc: KubeObject): string[] {
  const errs: string[] = [];
  const requests = resourceList(objectAt(objectAt(pvc.spec).resources).requests);
  for (const item of limitItems(lr)) {
    if (item.type !== "PersistentVolumeClaim") continue;
    // A claim's limits are not the user's ask: min and max apply to the request.
    for (const [k, v] of resourceList(item.min))
      push(errs, minConstraint("PersistentVolumeClaim", k, v, requests, new Map()));
    for (const [k, v] of resourceList(item.max)) {
      const req = requests.get(k);
      const [observed, enforced] = comparable(req, v);
      if (!req)
        errs.push(
          `maximum ${k} usage per PersistentVolumeClaim is ${quantityString(v)}.  No request is specified`,
        );
      else if (observed! > enforced!)
        errs.push(
          `maximum ${k} usage per PersistentVolumeClaim is ${quantityString(v)}, but request is ${quantityString(req)}`,
        );
    }
  }
  return errs;
}

function push(errs: string[], e: string | undefined): void {
  if (e) errs.push(e);
}

function minConstraint(
  kind: string,
  name: string,
  enforced: GoQuantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced) as [bigint, bigint, bigint];
  const min = `minimum ${name} usage per ${kind} is ${quantityString(enforced)}`;
  if (!req) return `${min}.  No request is specified`;
  if (r < e) return `${min}, but request is ${quantityString(req)}`;
  if (lim && l < e) return `${min}, but limit is ${quantityString(lim)}`;
  return undefined;
}

function maxConstraint(
  kind: string,
  name: string,
  enforced: GoQuantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced) as [bigint, bigint, bigint];
  const max = `maximum ${name} usage per ${kind} is ${quantityString(enforced)}`;
  if (!lim) return `${max}.  No limit is specified`;
  if (l > e) return `${max}, but limit is ${quantityString(lim)}`;
  if (req && r > e) return `${max}, but request is ${quantityString(req)}`;
  return undefined;
}

function ratioConstraint(
  kind: string,
  name: string,
  enforced: GoQuantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req, lim, enforced) as [bigint, bigint, bigint];
  const ratio = `${name} max limit to request ratio per ${kind} is ${quantityString(enforced)}`;
  if (!req || r === 0n) return `${ratio}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${ratio}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  // In milli-units when the bound allows, as kube compares them.
  const milli = value(enforced) <= MAX_MILLI;
  const bound = Number(milli ? milliValue(enforced) : value(enforced));
  if ((milli ? observed * 1000 : observed) > bound)
    return `${ratio}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}
