/**
 * Answers "does this role let the manager do verb V on resource R of group G?" the way the RBAC
 * authorizer does (rbac/v1 `RuleAllows`): a rule matches when its groups, resources and verbs each
 * contain the requested one or `*`. A rule restricted by `resourceNames` never grants the
 * collection verbs (`list`, `watch`) the cache needs, so it is not counted for them.
 */
import type { PolicyRule, RbacRoleObject } from "../rule.js";

const COLLECTION_VERBS = new Set(["list", "watch", "create", "deletecollection"]);

function has(values: readonly string[] | undefined, wanted: string): boolean {
  return values !== undefined && (values.includes(wanted) || values.includes("*"));
}

export function ruleAllows(
  rule: PolicyRule,
  group: string,
  resource: string,
  verb: string,
): boolean {
  if (!has(rule.apiGroups, group) || !has(rule.resources, resource) || !has(rule.verbs, verb)) {
    return false;
  }
  return !(rule.resourceNames?.length && COLLECTION_VERBS.has(verb));
}

export function roleAllows(
  role: RbacRoleObject,
  group: string,
  resource: string,
  verb: string,
): boolean {
  return role.rules.some((rule) => ruleAllows(rule, group, resource, verb));
}

/** The verbs of `wanted` that `role` does not grant on group/resource. */
export function missingVerbs(
  role: RbacRoleObject,
  group: string,
  resource: string,
  wanted: readonly string[],
): string[] {
  return wanted.filter((verb) => !roleAllows(role, group, resource, verb));
}
