/**
 * ResourceQuotas (`pkg/apis/core/validation` ValidateResourceQuota and its update): every hard
 * (and status) resource is a quota resource, standard unless it has a domain, with a
 * non-negative quantity, whole for counted resources; spec.scopes and the scopeSelector name
 * known scopes that fit the tracked resources, no conflicting pair, operators that fit the scope;
 * scopes may not change. Status is the resourcequota controller's (controllers/resource-quota.ts);
 * `kubectl get quota` prints `used/hard` pairs.
 */
import { type FieldError, field, goStrings, goValue } from "@opgen/apimachinery/status";
import { isObject, type KubeObject, objectAt } from "../../api/types.js";
import { goQuantity, goQuantityValue, milliValue } from "../../rest/go-quantity.js";
import { resourceQuotaPrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";
import { resourceNameErrors } from "./limit-ranges.js";

/** helper.standardQuotaResources (hugepages are standard too). */
const QUOTA_RESOURCES = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.storage",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "persistentvolumeclaims",
  "configmaps",
  "services.nodeports",
  "services.loadbalancers",
]);
/** helper.integerResources: counted, so whole. */
const INTEGER_RESOURCES = new Set([
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
]);
const SCOPES = new Set([
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "CrossNamespacePodAffinity",
]);
const POD_COUNT = new Set(["pods"]);
const POD_COMPUTE = new Set([
  "cpu",
  "memory",
  "limits.cpu",
  "limits.memory",
  "requests.cpu",
  "requests.memory",
]);
const CONFLICTING = [
  ["BestEffort", "NotBestEffort"],
  ["NotTerminating", "Terminating"],
];

const isStandardQuotaResource = (name: string) =>
  QUOTA_RESOURCES.has(name) ||
  name.startsWith("hugepages-") ||
  name.startsWith("requests.hugepages-");

/** helper.IsExtendedResourceName (extended resources are counted in whole units). */
function isExtended(name: string): boolean {
  if (!name.includes("/") || name.includes("kubernetes.io/") || name.startsWith("requests."))
    return false;
  return resourceNameErrors(`requests.${name}`, "").length === 0;
}

/** IsResourceQuotaScopeValidForResource. */
function scopeFitsResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case "BestEffort":
      return POD_COUNT.has(resource);
    default:
      return true;
  }
}

/** ValidateResourceQuotaResourceName and ValidateResourceQuantityValue for one list. */
function listErrors(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const entries = isObject(list) ? list : {};
  // Go visits the map in random order; sorted keys make the message stable.
  for (const name of Object.keys(entries).sort()) {
    const at = `${path}[${name}]`;
    errs.push(...resourceNameErrors(name, at));
    if (!name.includes("/") && !isStandardQuotaResource(name))
      errs.push(field.invalid(at, name, "must be a standard resource for quota"));
    const q = goQuantity(entries[name]);
    if (!q) continue;
    if (q.q.sign() < 0)
      errs.push(
        field.invalid(at, q.text ?? String(entries[name]), "must be greater than or equal to 0"),
      );
    if ((INTEGER_RESOURCES.has(name) || isExtended(name)) && milliValue(q) % 1000n !== 0n)
      errs.push(field.invalid(at, goQuantityValue(q), "must be an integer"));
  }
  return errs;
}

/** `%#v` of the internal spec.scopes. */
function scopesValue(scopes: unknown) {
  return Array.isArray(scopes)
    ? goStrings(scopes, "core.ResourceQuotaScope")
    : goValue("[]core.ResourceQuotaScope(nil)");
}

/** `%#v` of the internal *ScopeSelector, as a field error prints the pointed-to struct. */
function selectorValue(selector: unknown) {
  const exprs = (objectAt(selector).matchExpressions ?? []) as unknown[];
  const list = Array.isArray(objectAt(selector).matchExpressions)
    ? `[]core.ScopedResourceSelectorRequirement{${exprs
        .map((e) => {
          const x = objectAt(e);
          const values = Array.isArray(x.values) ? goStrings(x.values).text : "[]string(nil)";
          return `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(String(x.scopeName ?? ""))}, Operator:${JSON.stringify(String(x.operator ?? ""))}, Values:${values}}`;
        })
        .join(", ")}}`
    : "[]core.ScopedResourceSelectorRequirement(nil)";
  return goValue(`core.ScopeSelector{MatchExpressions:${list}}`);
}

function conflicting(seen: Set<string>): boolean[] {
  return CONFLICTING.map((pair) => pair.every((s) => seen.has(s)));
}

/** validateResourceQuotaScopes. */
function scopesErrors(spec: Record<string, unknown>): FieldError[] {
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.map(String) : [];
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const hard = Object.keys(objectAt(spec.hard)).sort();
  const value = scopesValue(spec.scopes);
  const seen = new Set<string>();
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) errs.push(field.invalid("spec.scopes", value, "unsupported scope"));
    for (const k of hard)
      if (isStandardQuotaResource(k) && !scopeFitsResource(scope, k))
        errs.push(field.invalid("spec.scopes", value, "unsupported scope applied to resource"));
    seen.add(scope);
  }
  for (const c of conflicting(seen))
    if (c) errs.push(field.invalid("spec.scopes", value, "conflicting scopes"));
  return errs;
}

/** validateScopeSelector (its paths carry no index, as kube's do). */
function selectorErrors(spec: Record<string, unknown>): FieldError[] {
  if (!isObject(spec.scopeSelector)) return [];
  const errs: FieldError[] = [];
  const path = "spec.scopeSelector.matchExpressions";
  const hard = Object.keys(objectAt(spec.hard)).sort();
  const seen = new Set<string>();
  const exprs = (spec.scopeSelector.matchExpressions ?? []) as unknown[];
  for (const e of Array.isArray(exprs) ? exprs : []) {
    const x = objectAt(e);
    const scope = String(x.scopeName ?? "");
    const operator = String(x.operator ?? "");
    const values = Array.isArray(x.values) ? x.values : [];
    if (!SCOPES.has(scope))
      errs.push(field.invalid(`${path}.scopeName`, scope, "unsupported scope"));
    for (const k of hard)
      if (isStandardQuotaResource(k) && !scopeFitsResource(scope, k))
        errs.push(
          field.invalid(
            path,
            selectorValue(spec.scopeSelector),
            "unsupported scope applied to resource",
          ),
        );
    if (scope !== "PriorityClass" && SCOPES.has(scope) && operator !== "Exists")
      errs.push(
        field.invalid(
          `${path}.operator`,
          operator,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    if (operator === "In" || operator === "NotIn") {
      if (values.length === 0)
        errs.push(
          field.required(
            `${path}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (operator === "Exists" || operator === "DoesNotExist") {
      if (values.length !== 0)
        errs.push(
          field.invalid(
            `${path}.values`,
            goStrings(values),
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else errs.push(field.invalid(`${path}.operator`, operator, "not a valid selector operator"));
    seen.add(scope);
  }
  for (const c of conflicting(seen))
    if (c) errs.push(field.invalid(path, scopesValue(spec.scopes), "conflicting scopes"));
  return errs;
}

function scopeSet(o: KubeObject): string {
  const scopes = objectAt(o.spec).scopes;
  return [...new Set(Array.isArray(scopes) ? scopes.map(String) : [])].sort().join("\n");
}

export const resourceQuotas: ResourceStrategy = {
  nameRule: "subdomain",
  validate(o) {
    const spec = objectAt(o.spec);
    const status = objectAt(o.status);
    return [
      ...listErrors(spec.hard, "spec.hard"),
      ...scopesErrors(spec),
      ...selectorErrors(spec),
      ...listErrors(status.hard, "status.hard"),
      ...listErrors(status.used, "status.used"),
    ];
  },
  validateUpdate(o, old) {
    if (scopeSet(o) === scopeSet(old)) return [];
    return [
      field.invalid("spec.scopes", scopesValue(objectAt(o.spec).scopes), "field is immutable"),
    ];
  },
  printer: () => resourceQuotaPrinter,
};
