/**
 * The RBAC authorizer (`plugin/pkg/auth/authorizer/rbac`): a request is allowed when a rule of
 * a Role bound in the request's namespace, or of a ClusterRole bound by a RoleBinding there or
 * by a ClusterRoleBinding, matches its verb, API group, resource/subresource and name (or its
 * non-resource URL). `system:masters` bypasses, as in kube-apiserver. ClusterRole aggregation
 * and the bootstrap discovery roles for authenticated users are honoured. Also answers
 * SelfSubjectAccessReview, SelfSubjectRulesReview and SubjectAccessReview.
 */
import type { KubeObject } from "../api/types.js";
import type { Attributes } from "../http/handler.js";
import type { UserInfo } from "../rest/scope.js";
import type { Store } from "../store/store.js";

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

interface RoleRef {
  kind: string;
  name: string;
}

const rbac = "rbac.authorization.k8s.io";

/** What `system:discovery`, `system:basic-user` and `system:public-info-viewer` grant. */
const bootstrapRules: PolicyRule[] = [
  {
    verbs: ["get"],
    nonResourceURLs: [
      "/api",
      "/api/*",
      "/apis",
      "/apis/*",
      "/healthz",
      "/livez",
      "/readyz",
      "/version",
      "/version/",
      "/openapi",
      "/openapi/*",
    ],
  },
  {
    verbs: ["create"],
    apiGroups: ["authorization.k8s.io"],
    resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
  },
  { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"] },
];

function has(list: string[] | undefined, v: string): boolean {
  return !!list && (list.includes("*") || list.includes(v));
}

function resourceMatches(
  rule: PolicyRule,
  resource: string,
  subresource: string | undefined,
): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === "*" || r === combined) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

export function ruleAllows(rule: PolicyRule, a: Attributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) {
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === "*" || u === a.path || (u.endsWith("*") && a.path.startsWith(u.slice(0, -1))),
    );
  }
  if (!has(rule.apiGroups, a.group)) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0)
    return !!a.name && rule.resourceNames.includes(a.name);
  return true;
}

function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string | undefined): boolean {
  if (s.kind === "User") return s.name === user.name;
  if (s.kind === "Group") return user.groups.includes(s.name);
  if (s.kind === "ServiceAccount") {
    const ns = s.namespace || bindingNamespace;
    return user.name === `system:serviceaccount:${ns}:${s.name}`;
  }
  return false;
}

export class RbacAuthorizer {
  constructor(private readonly store: Store) {}

  /**
   * A ClusterRole's stored rules. As kube's authorizer, aggregation is not evaluated here: the
   * aggregation controller writes an aggregated role's rules (controllers/clusterrole-aggregation).
   */
  private clusterRoleRules(name: string): PolicyRule[] {
    const role = this.store.get(`${rbac}/clusterroles`, undefined, name);
    return [...((role?.rules as PolicyRule[] | undefined) ?? [])];
  }

  private roleRules(ref: RoleRef, namespace: string | undefined): PolicyRule[] {
    if (ref.kind === "ClusterRole") return this.clusterRoleRules(ref.name);
    if (ref.kind === "Role" && namespace) {
      const role = this.store.get(`${rbac}/roles`, namespace, ref.name);
      return (role?.rules as PolicyRule[] | undefined) ?? [];
    }
    return [];
  }

  /** Every rule that applies to `user` in `namespace` (cluster-wide rules included). */
  rulesFor(user: UserInfo, namespace: string | undefined): PolicyRule[] {
    const rules: PolicyRule[] = [...bootstrapRules];
    const bound = (b: KubeObject, ns: string | undefined) =>
      ((b.subjects as Subject[] | undefined) ?? []).some((s) => subjectMatches(s, user, ns));
    for (const b of this.store.list(`${rbac}/clusterrolebindings`)) {
      if (bound(b, undefined)) rules.push(...this.roleRules(b.roleRef as RoleRef, undefined));
    }
    if (namespace) {
      for (const b of this.store.list(`${rbac}/rolebindings`, namespace)) {
        if (bound(b, namespace)) rules.push(...this.roleRules(b.roleRef as RoleRef, namespace));
      }
    }
    return rules;
  }

  /** undefined = allowed; a string (possibly empty) = denied with that reason. */
  authorize(a: Attributes): string | undefined {
    if (a.user.groups.includes("system:masters")) return undefined;
    const rules = this.rulesFor(a.user, a.namespace);
    return rules.some((r) => ruleAllows(r, a)) ? undefined : "";
  }

  /** SelfSubjectRulesReview: the rules that apply to the caller in `spec.namespace`. */
  rulesReview(caller: UserInfo, body: KubeObject): KubeObject {
    const namespace = ((body.spec ?? {}) as { namespace?: string }).namespace;
    const rules: PolicyRule[] = caller.groups.includes("system:masters")
      ? [
          { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
          { verbs: ["*"], nonResourceURLs: ["*"] },
        ]
      : this.rulesFor(caller, namespace);
    return {
      kind: "SelfSubjectRulesReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: {},
      spec: body.spec ?? {},
      status: {
        resourceRules: rules
          .filter((r) => !r.nonResourceURLs)
          .map((r) => ({
            verbs: r.verbs ?? [],
            apiGroups: r.apiGroups ?? [],
            resources: r.resources ?? [],
            ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
          })),
        nonResourceRules: rules
          .filter((r) => r.nonResourceURLs)
          .map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] })),
        incomplete: false,
      },
    };
  }

  /**
   * POST of a (Self|Local)SubjectAccessReview: evaluates `spec` and fills `status`. With
   * `allowAll` (no RBAC: kube's AlwaysAllow authorizer) every request is allowed.
   */
  review(
    resource: string,
    caller: UserInfo,
    body: KubeObject,
    allowAll = false,
  ): KubeObject | undefined {
    if (resource === "selfsubjectrulesreviews") return this.rulesReview(caller, body);
    const kinds: Record<string, string> = {
      selfsubjectaccessreviews: "SelfSubjectAccessReview",
      subjectaccessreviews: "SubjectAccessReview",
      localsubjectaccessreviews: "LocalSubjectAccessReview",
    };
    const kind = kinds[resource];
    if (!kind) return undefined;
    const spec = (body.spec ?? {}) as {
      resourceAttributes?: {
        namespace?: string;
        verb?: string;
        group?: string;
        resource?: string;
        subresource?: string;
        name?: string;
      };
      nonResourceAttributes?: { path?: string; verb?: string };
      user?: string;
      groups?: string[];
    };
    const user =
      resource === "selfsubjectaccessreviews"
        ? caller
        : { name: spec.user ?? "", groups: spec.groups ?? [] };
    const ra = spec.resourceAttributes;
    const na = spec.nonResourceAttributes;
    const attrs: Attributes = ra
      ? {
          user,
          verb: ra.verb ?? "",
          group: ra.group ?? "",
          resource: ra.resource ?? "",
          ...(ra.subresource ? { subresource: ra.subresource } : {}),
          ...(ra.namespace ? { namespace: ra.namespace } : {}),
          ...(ra.name ? { name: ra.name } : {}),
          path: "",
          resourceRequest: true,
        }
      : {
          user,
          verb: na?.verb ?? "",
          group: "",
          resource: "",
          path: na?.path ?? "",
          resourceRequest: false,
        };
    const allowed = allowAll || this.authorize(attrs) === undefined;
    return {
      kind,
      apiVersion: "authorization.k8s.io/v1",
      metadata: body.metadata?.namespace ? { namespace: body.metadata.namespace } : {},
      spec: body.spec ?? {},
      status: allowed
        ? {
            allowed: true,
            reason: allowAll || user.groups.includes("system:masters") ? "" : "RBAC: allowed",
          }
        : { allowed: false },
    };
  }
}
