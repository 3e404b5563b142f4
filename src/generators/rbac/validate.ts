/**
 * Turns the parsed arguments of one `@rbac` marker into an `RbacRule`, rejecting what the API server
 * would reject when the role is applied (rbac/v1 `ValidatePolicyRule`) and what would silently
 * grant nothing: unknown verbs, URLs mixed with resources, URLs in a namespaced Role, resources
 * without groups, a rule naming neither resources nor URLs.
 */
import type { MarkerArgs, MarkerValue } from "../../markers/types.js";
import type { RbacRule } from "./rule.js";
import { RESOURCE_VERBS, suggestVerb, URL_VERBS } from "./verbs.js";

export type RuleResult = { ok: true; rule: RbacRule } | { ok: false; errors: string[] };

function list(value: MarkerValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => String(item));
}

function text(value: MarkerValue | undefined): string {
  return value === undefined || value === null ? "" : String(value);
}

// DNS-1123 label: what a namespace name must be.
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function verbErrors(verbs: readonly string[], allowed: readonly string[], what: string): string[] {
  const errors: string[] = [];
  for (const verb of new Set(verbs)) {
    if (allowed.includes(verb)) continue;
    const hint = suggestVerb(verb, allowed);
    errors.push(
      `unknown verb "${verb}" for ${what}${hint ? `; did you mean ${hint}?` : `; known verbs: ${allowed.join(", ")}`}`,
    );
  }
  return errors;
}

export function ruleFromArgs(args: MarkerArgs): RuleResult {
  const rule: RbacRule = {
    groups: list(args.groups),
    resources: list(args.resources),
    resourceNames: list(args.resourceNames),
    verbs: list(args.verbs),
    urls: list(args.urls),
    namespace: text(args.namespace),
    roleName: text(args.roleName),
  };
  const errors: string[] = [];

  if (rule.verbs.length === 0) errors.push("verbs must name at least one verb");
  if (rule.urls.length > 0) {
    if (rule.groups.length > 0 || rule.resources.length > 0 || rule.resourceNames.length > 0) {
      errors.push(
        "urls cannot be combined with groups, resources or resourceNames: a rule grants either resources or non-resource URLs; write two markers",
      );
    }
    if (rule.namespace) {
      errors.push(
        "urls cannot be used with namespace: a namespaced Role cannot grant non-resource URLs",
      );
    }
    for (const url of rule.urls) {
      if (!url.startsWith("/")) errors.push(`url "${url}" must start with "/"`);
    }
    errors.push(...verbErrors(rule.verbs, URL_VERBS, "non-resource URLs"));
  } else {
    if (rule.resources.length === 0) {
      errors.push("missing resources (or urls for non-resource URLs)");
    }
    if (rule.groups.length === 0) {
      errors.push('missing groups; write groups=core (or groups="") for the core group');
    }
    errors.push(...verbErrors(rule.verbs, RESOURCE_VERBS, "resources"));
  }
  if (rule.namespace && !DNS1123_LABEL.test(rule.namespace)) {
    errors.push(`namespace "${rule.namespace}" is not a valid namespace name (DNS-1123 label)`);
  }
  if (
    rule.roleName &&
    (/[/%]/.test(rule.roleName) || rule.roleName === "." || rule.roleName === "..")
  ) {
    errors.push(`roleName "${rule.roleName}" is not a valid role name`);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rule };
}
