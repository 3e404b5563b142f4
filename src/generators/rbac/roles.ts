/**
 * controller-gen's `GenerateRoles`: buckets rules by (namespace, role name), splits each marker into
 * one rule per resource, normalizes each bucket, and returns the roles ordered by namespace then
 * name, so the ClusterRoles (namespace "") come first.
 *
 * Unlike controller-gen, which writes nothing when there are no cluster-wide rules, the ClusterRole
 * named `defaultRoleName` is always returned (with `rules: []` when empty): the scaffold's
 * ClusterRoleBinding and kustomization refer to it, so a project without markers yet still renders
 * and applies.
 */
import { compareGoStrings } from "../../util/go-strings.js";
import { normalizeRules, type RuleLists } from "./normalize.js";
import { RBAC_API_VERSION, type RbacRoleObject, type RbacRule } from "./rule.js";

interface Bucket {
  namespace: string;
  roleName: string;
  rules: RuleLists[];
}

/** The rules a marker contributes: one per resource, or the marker itself when it names none. */
export function splitPerResource(rule: RbacRule): RuleLists[] {
  const base = {
    groups: rule.groups,
    resourceNames: rule.resourceNames,
    urls: rule.urls,
    verbs: rule.verbs,
  };
  if (rule.resources.length === 0) return [{ ...base, resources: [] }];
  return rule.resources.map((resource) => ({ ...base, resources: [resource] }));
}

export function generateRoles(
  rules: readonly RbacRule[],
  defaultRoleName: string,
): RbacRoleObject[] {
  const buckets = new Map<string, Bucket>();
  const bucketFor = (namespace: string, roleName: string): Bucket => {
    const id = JSON.stringify([namespace, roleName]);
    let bucket = buckets.get(id);
    if (!bucket) {
      bucket = { namespace, roleName, rules: [] };
      buckets.set(id, bucket);
    }
    return bucket;
  };

  bucketFor("", defaultRoleName);
  for (const rule of rules) {
    bucketFor(rule.namespace, rule.roleName || defaultRoleName).rules.push(
      ...splitPerResource(rule),
    );
  }

  const ordered = [...buckets.values()].sort(
    (a, b) =>
      compareGoStrings(a.namespace, b.namespace) || compareGoStrings(a.roleName, b.roleName),
  );
  return ordered.map((bucket): RbacRoleObject => {
    const policyRules = normalizeRules(bucket.rules);
    if (bucket.namespace === "") {
      return {
        apiVersion: RBAC_API_VERSION,
        kind: "ClusterRole",
        metadata: { name: bucket.roleName },
        rules: policyRules,
      };
    }
    return {
      apiVersion: RBAC_API_VERSION,
      kind: "Role",
      metadata: { name: bucket.roleName, namespace: bucket.namespace },
      rules: policyRules,
    };
  });
}
