/**
 * The LimitRanger admission plugin for pods (`plugin/pkg/admission/limitranger`): a new pod's
 * containers get the `default` limits and `defaultRequest` requests of the namespace's
 * LimitRanges of type Container where they set none, recorded in the
 * `kubernetes.io/limit-ranger` annotation, and a container outside a range's `min`/`max` is
 * refused with kube's message.
 */

import { quantityValue } from "@opgen/apimachinery/quantity";
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import { type JsonObject, type KubeObject, objectAt } from "../api/types.js";
import type { Store } from "../store/store.js";
import type { AdmissionHook } from "./admission.js";
import type { RequestScope } from "./scope.js";

const LIMIT_RANGES = bucketKey("", "limitranges");
const ANNOTATION = "kubernetes.io/limit-ranger";

export class LimitRanger implements AdmissionHook {
  constructor(private readonly store: Store) {}

  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (old || scope.subresource !== undefined) return;
    if (scope.info.group !== "" || scope.info.resource !== "pods") return;
    const items = this.store
      .list(LIMIT_RANGES, scope.namespace)
      .flatMap((lr) =>
        ((objectAt(lr.spec).limits ?? []) as JsonObject[]).filter((i) => i.type === "Container"),
      );
    if (items.length === 0) return;
    const spec = objectAt(obj.spec);
    const notes: string[] = [];
    const groups: [string, JsonObject[]][] = [
      ["init container", (spec.initContainers ?? []) as JsonObject[]],
      ["container", (spec.containers ?? []) as JsonObject[]],
    ];
    for (const [prefix, containers] of groups) {
      for (const c of containers) {
        const resources = objectAt(c.resources);
        const limits = { ...objectAt(resources.limits) };
        const requests = { ...objectAt(resources.requests) };
        const setLimits: string[] = [];
        const setRequests: string[] = [];
        for (const item of items) {
          for (const [k, v] of Object.entries(objectAt(item.default)))
            if (!(k in limits)) {
              limits[k] = v;
              setLimits.push(k);
            }
          for (const [k, v] of Object.entries(objectAt(item.defaultRequest)))
            if (!(k in requests)) {
              requests[k] = v;
              setRequests.push(k);
            }
        }
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
        this.validate(items, obj, requests, limits);
      }
    }
    if (notes.length && obj.metadata)
      obj.metadata.annotations = {
        ...(obj.metadata.annotations ?? {}),
        [ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}`,
      };
  }

  private validate(
    items: JsonObject[],
    pod: KubeObject,
    requests: JsonObject,
    limits: JsonObject,
  ): void {
    const refuse = (why: string) => {
      throw errors.forbidden({ group: "", resource: "pods" }, pod.metadata?.name ?? "", why);
    };
    for (const item of items) {
      for (const [k, bound] of Object.entries(objectAt(item.max))) {
        const limit = quantityValue(limits[k]);
        const max = quantityValue(bound);
        if (max === undefined) continue;
        if (limit === undefined)
          refuse(`maximum ${k} usage per Container is ${bound}.  No limit is specified`);
        else if (limit > max)
          refuse(`maximum ${k} usage per Container is ${bound}, but limit is ${limits[k]}`);
      }
      for (const [k, bound] of Object.entries(objectAt(item.min))) {
        const request = quantityValue(requests[k]);
        const min = quantityValue(bound);
        if (min === undefined) continue;
        if (request === undefined)
          refuse(`minimum ${k} usage per Container is ${bound}.  No request is specified`);
        else if (request < min)
          refuse(`minimum ${k} usage per Container is ${bound}, but request is ${requests[k]}`);
      }
    }
  }
}
