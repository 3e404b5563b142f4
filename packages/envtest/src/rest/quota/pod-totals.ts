/**
 * A pod's effective requests and limits, as kube's resource helpers compute them
 * (`component-helpers/resource`): what LimitRanger checks a pod's totals against and what the
 * quota evaluator charges a pod for.
 */
import { type JsonObject, type KubeObject, objectAt } from "../../api/types.js";
import { addQuantities } from "../go-quantity.js";
import { type ResourceList, resourceList } from "./resource-list.js";

function isObj(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A pod's effective requests and limits (the plugin's podRequests/podLimits): the containers'
 * sum, raised to what any init container needs while it runs. Sidecars (init containers with
 * `restartPolicy: Always`) keep running, so they add to the sum and to every later init step.
 */
export function podTotals(pod: KubeObject): [ResourceList, ResourceList] {
  const totals = (key: "requests" | "limits"): ResourceList => {
    const sum: ResourceList = new Map();
    const spec = objectAt(pod.spec);
    for (const c of ((spec.containers ?? []) as unknown[]).filter(isObj))
      addList(sum, resourceList(objectAt(c.resources)[key]));
    const sidecars: ResourceList = new Map();
    const initPeak: ResourceList = new Map();
    for (const c of ((spec.initContainers ?? []) as unknown[]).filter(isObj)) {
      const own = resourceList(objectAt(c.resources)[key]);
      let step: ResourceList;
      if (c.restartPolicy === "Always") {
        addList(sum, own);
        addList(sidecars, own);
        step = sidecars;
      } else {
        step = new Map();
        addList(step, own);
        addList(step, sidecars);
      }
      maxList(initPeak, step);
    }
    maxList(sum, initPeak);
    return sum;
  };
  return [totals("requests"), totals("limits")];
}

function addList(list: ResourceList, add: ResourceList): void {
  for (const [k, q] of add) {
    const cur = list.get(k);
    list.set(k, cur ? addQuantities(cur, q) : q);
  }
}

function maxList(list: ResourceList, other: ResourceList): void {
  for (const [k, q] of other) {
    const cur = list.get(k);
    if (!cur || q.q.cmp(cur.q) > 0) list.set(k, q);
  }
}
