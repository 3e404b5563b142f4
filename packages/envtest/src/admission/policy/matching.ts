/**
 * Whether a policy's matchConstraints or a binding's matchResources select a request
 * (`apiserver: pkg/admission/plugin/policy/matching/matching.go`): the namespace and object
 * selectors as for webhooks, then excludeResourceRules, then resourceRules with their
 * resourceNames, trying the resource's other served versions under `matchPolicy: Equivalent`.
 * A selector's error (the request's namespace is gone) counts only when the rules match.
 */
import { ApiError } from "@opgen/apimachinery/status";
import type { Store } from "../../store/store.js";
import {
  namespaceSelectorMatches,
  objectSelectorMatches,
  type RequestAttributes,
  ruleMatches,
} from "../matching.js";
import type { MatchResources, NamedRule } from "./source.js";

/** A misconfiguration met while matching: the failure policy decides. */
export class ConfigurationError extends Error {}

function named(rule: NamedRule, a: RequestAttributes): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
}

/** The attributes a rule matched: the request's own, or an equivalent version's. */
function matchRules(
  rules: NamedRule[],
  matchPolicy: string | undefined,
  a: RequestAttributes,
  otherVersions: string[],
): RequestAttributes | undefined {
  if (rules.some((r) => ruleMatches(r, a) && named(r, a))) return a;
  if (matchPolicy !== "Equivalent") return undefined;
  for (const r of rules) {
    for (const v of otherVersions) {
      const candidate: RequestAttributes = {
        ...a,
        version: v,
        kind: a.kind.group === a.group ? { ...a.kind, version: v } : a.kind,
      };
      if (ruleMatches(r, candidate) && named(r, candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The attributes `m` matches the request as (in the version its rules name), or undefined;
 * throws ConfigurationError when the match cannot be decided.
 */
export function matchResources(
  store: Store,
  m: MatchResources,
  a: RequestAttributes,
  otherVersions: string[],
): RequestAttributes | undefined {
  let selectorError: string | undefined;
  let nsMatches = true;
  try {
    nsMatches = namespaceSelectorMatches(store, m, a);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    selectorError = e.message;
  }
  if (!nsMatches) return undefined;
  if (!objectSelectorMatches(m, a)) return undefined;
  if (matchRules(m.excludeResourceRules ?? [], m.matchPolicy, a, otherVersions)) return undefined;
  const rules = m.resourceRules ?? [];
  const matched = rules.length === 0 ? a : matchRules(rules, m.matchPolicy, a, otherVersions);
  if (!matched) return undefined;
  if (selectorError !== undefined) throw new ConfigurationError(selectorError);
  return matched;
}
