/**
 * What a ResourceQuota covers and what is used of it, computed from the store as the
 * resourcequota controller's CalculateUsage does (`k8s.io/apiserver/pkg/quota/v1` and its
 * generic CalculateUsageStats): each tracked resource starts at zero, and every object of the
 * namespace that falls in all the quota's scopes adds its usage.
 */
import { bucketKey, type Registry } from "../../api/registry.js";
import { type KubeObject, objectAt } from "../../api/types.js";
import type { Store } from "../../store/store.js";
import { type Evaluator, evaluatorsTracking, type ScopeRequirement } from "./evaluators.js";
import { add, type ResourceList, resourceList, zero } from "./resource-list.js";

export const QUOTAS = bucketKey("", "resourcequotas");

/** Which resources are served (the controller's discovery of quotable resources). */
export type Served = (group: string, resource: string) => boolean;

/** The quotable resources of a registry: the namespaced ones it serves. */
export function quotable(registry: Registry): Served {
  return (group, resource) => registry.get(group, resource)?.namespaced === true;
}

/** getScopeSelectorsFromQuota: spec.scopes as `Exists`, then the scopeSelector's expressions. */
export function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = objectAt(quota.spec);
  const out: ScopeRequirement[] = [];
  for (const s of (spec.scopes ?? []) as unknown[])
    if (typeof s === "string") out.push({ scopeName: s, operator: "Exists" });
  for (const e of (objectAt(spec.scopeSelector).matchExpressions ?? []) as unknown[]) {
    const expr = objectAt(e);
    out.push({
      scopeName: String(expr.scopeName ?? ""),
      operator: String(expr.operator ?? ""),
      values: Array.isArray(expr.values) ? expr.values.map(String) : [],
    });
  }
  return out;
}

export function hardOf(quota: KubeObject): ResourceList {
  return resourceList(objectAt(quota.spec).hard);
}

/** generic.Matches: the quota tracks one of the evaluator's resources and every scope fits. */
export function quotaMatches(quota: KubeObject, evaluator: Evaluator, obj: KubeObject): boolean {
  if (evaluator.matchingResources([...hardOf(quota).keys()]).length === 0) return false;
  return scopeRequirements(quota).every((r) => evaluator.matchesScope(r, obj));
}

/**
 * The usage of every resource of the quota's hard limits some evaluator tracks; names no
 * evaluator tracks (a `count/` of a resource not served) are left out.
 */
export function calculateUsage(
  store: Store,
  quota: KubeObject,
  served: Served,
  now: number,
): ResourceList {
  const names = [...hardOf(quota).keys()];
  const namespace = quota.metadata?.namespace;
  const scopes = scopeRequirements(quota);
  const evaluators = evaluatorsTracking(names, served);
  const tracked = new Set(evaluators.flatMap((e) => e.matchingResources(names)));
  let used: ResourceList = new Map();
  for (const e of evaluators) {
    const mine = e.matchingResources([...tracked]);
    if (mine.length === 0) continue;
    let stats: ResourceList = new Map(mine.map((n) => [n, zero()]));
    for (const obj of store.list(bucketKey(e.group, e.resource), namespace)) {
      if (scopes.every((s) => e.matchesScope(s, obj))) stats = add(stats, e.usage(obj, now));
    }
    used = add(used, stats);
  }
  return new Map([...used].filter(([k]) => tracked.has(k)));
}
