/**
 * Which webhooks a request reaches (`apiserver: pkg/admission/plugin/webhook/generic/webhook.go`
 * ShouldCallHook, `predicates/{rules,namespace,object}`): rules (operations, apiGroups,
 * apiVersions, resources with subresources and `*`, scope), then with `matchPolicy: Equivalent`
 * the same resource in the other served versions, the object selector (new or old object) and
 * the namespace selector (the namespace's labels; a namespace's own on CREATE/UPDATE).
 */
import { labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import type { KubeObject } from "../api/types.js";
import type { Store } from "../store/store.js";
import type { LabelSelectorSpec, Rule, Webhook } from "./configurations.js";

/** What a request is, as admission attributes name it. */
export interface RequestAttributes {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  kind: { group: string; version: string; kind: string };
  namespace: string;
  name: string;
  operation: string;
  object?: KubeObject;
  oldObject?: KubeObject;
}

/** Configuration objects are never sent to webhooks (`rules.IsExemptAdmissionConfigurationResource`). */
export function isExempt(a: Pick<RequestAttributes, "group" | "resource">): boolean {
  return (
    a.group === "admissionregistration.k8s.io" &&
    [
      "mutatingwebhookconfigurations",
      "validatingwebhookconfigurations",
      "validatingadmissionpolicies",
      "validatingadmissionpolicybindings",
    ].includes(a.resource)
  );
}

const has = (list: string[] | undefined, v: string) =>
  (list ?? []).some((x) => x === "*" || x === v);

function resourceMatches(patterns: string[] | undefined, resource: string, sub: string): boolean {
  const full = sub ? `${resource}/${sub}` : resource;
  for (const p of patterns ?? []) {
    if (p === "*/*" || p === full) return true;
    const [res, s] = p.split("/", 2) as [string, string | undefined];
    if (s === undefined) {
      // `*` alone matches every resource but no subresource.
      if (res === "*" && !sub) return true;
      continue;
    }
    if ((res === "*" || res === resource) && (s === "*" || s === sub)) return true;
  }
  return false;
}

function scopeMatches(scope: string | undefined, a: RequestAttributes): boolean {
  if (!scope || scope === "*") return true;
  const isNamespace = a.group === "" && a.resource === "namespaces";
  if (scope === "Namespaced") return !isNamespace && a.namespace !== "";
  if (scope === "Cluster") return isNamespace || a.namespace === "";
  return false;
}

export function ruleMatches(rule: Rule, a: RequestAttributes): boolean {
  return (
    has(rule.operations, a.operation) &&
    has(rule.apiGroups, a.group) &&
    has(rule.apiVersions, a.version) &&
    resourceMatches(rule.resources, a.resource, a.subresource) &&
    scopeMatches(rule.scope, a)
  );
}

function selectorMatches(sel: LabelSelectorSpec | undefined, labels: unknown): boolean {
  if (!sel) return true;
  const s = labelSelectorAsSelector(sel);
  if (s.empty()) return true;
  return s.matches((labels ?? {}) as Record<string, string>);
}

/** The selectors a webhook or an admission policy's match resources carry. */
export type Selectors = Pick<Webhook, "namespaceSelector" | "objectSelector">;

export function objectSelectorMatches(h: Selectors, a: RequestAttributes): boolean {
  if (!h.objectSelector || labelSelectorAsSelector(h.objectSelector).empty()) return true;
  // A side that is absent (no new object on DELETE) never matches.
  return (
    (a.object !== undefined && selectorMatches(h.objectSelector, a.object.metadata?.labels)) ||
    (a.oldObject !== undefined && selectorMatches(h.objectSelector, a.oldObject.metadata?.labels))
  );
}

/** Throws NotFound when the request's namespace does not exist. */
export function namespaceSelectorMatches(
  store: Store,
  h: Selectors,
  a: RequestAttributes,
): boolean {
  const isNamespace = a.group === "" && a.resource === "namespaces";
  if (!a.namespace && !isNamespace) return true;
  if (!h.namespaceSelector || labelSelectorAsSelector(h.namespaceSelector).empty()) return true;
  if (isNamespace && (a.operation === "CREATE" || a.operation === "UPDATE") && a.object) {
    return selectorMatches(h.namespaceSelector, a.object.metadata?.labels);
  }
  const nsName = isNamespace ? a.name : a.namespace;
  const ns = store.get(bucketKey("", "namespaces"), undefined, nsName);
  if (!ns) throw errors.notFound({ group: "", resource: "namespaces" }, nsName);
  return selectorMatches(h.namespaceSelector, ns.metadata?.labels);
}

/**
 * Whether `h` is called for the request, and in which version: the request's own, or with
 * `matchPolicy: Equivalent` the first other served version (preferred first) its rules name.
 */
export function matchWebhook(
  store: Store,
  h: Webhook,
  a: RequestAttributes,
  otherVersions: string[],
): RequestAttributes | undefined {
  let matched: RequestAttributes | undefined;
  if (h.rules.some((r) => ruleMatches(r, a))) matched = a;
  else if (h.matchPolicy !== "Exact") {
    for (const v of otherVersions) {
      const candidate: RequestAttributes = {
        ...a,
        version: v,
        // A subresource with its own kind (Scale) keeps it in every version.
        kind: a.kind.group === a.group ? { ...a.kind, version: v } : a.kind,
      };
      if (h.rules.some((r) => ruleMatches(r, candidate))) {
        matched = candidate;
        break;
      }
    }
  }
  if (!matched) return undefined;
  if (!objectSelectorMatches(h, a)) return undefined;
  if (!namespaceSelectorMatches(store, h, a)) return undefined;
  return matched;
}
