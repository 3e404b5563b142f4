/**
 * The RBAC model: an `@rbac` marker as written (`RbacRule`), the Kubernetes `PolicyRule` it becomes
 * and the `ClusterRole`/`Role` objects that hold the rules. Field names and optionality follow
 * rbac.authorization.k8s.io/v1 so the objects serialize exactly as controller-gen's do.
 */

/** Where a marker was written; line and column are 1-based. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** One `@rbac` marker, arguments as written (lists already split on `;`). */
export interface RbacRule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  verbs: string[];
  urls: string[];
  /** Empty: the rule belongs to the ClusterRole; otherwise to a Role in this namespace. */
  namespace: string;
  /** Empty: the generator's role name. */
  roleName: string;
}

/** An `RbacRule` together with where it was written, for diagnostics and the report. */
export interface LocatedRbacRule {
  rule: RbacRule;
  /** Position of the marker's `@`. */
  position: SourcePosition;
  /** The marker as written, for the report. */
  source: string;
  /** The class whose JSDoc holds the marker, if any. */
  className?: string;
}

/**
 * rbac/v1 PolicyRule. Absent lists are omitted, as `omitempty` omits them in Go; `verbs` has no
 * `omitempty` upstream and is always present.
 */
export interface PolicyRule {
  apiGroups?: string[];
  nonResourceURLs?: string[];
  resourceNames?: string[];
  resources?: string[];
  verbs: string[];
}

export const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";

export interface ClusterRoleObject {
  apiVersion: typeof RBAC_API_VERSION;
  kind: "ClusterRole";
  metadata: { name: string };
  rules: PolicyRule[];
}

export interface RoleObject {
  apiVersion: typeof RBAC_API_VERSION;
  kind: "Role";
  metadata: { name: string; namespace: string };
  rules: PolicyRule[];
}

export type RbacRoleObject = ClusterRoleObject | RoleObject;
