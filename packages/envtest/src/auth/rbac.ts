/**
 * The RBAC authorizer (`plugin/pkg/auth/authorizer/rbac`): a request is allowed when a rule of
 * a Role bound in the request's namespace, or of a ClusterRole bound by a RoleBinding there or
 * by a ClusterRoleBinding, matches its verb, API group, resource/subresource and name (or its
 * non-resource URL). `system:masters` bypasses, as in kube-apiserver. ClusterRole aggregation
 * and the bootstrap discovery roles for authenticated users are honoured, and so are the
 * bootstrap roles of the kube-controller-manager controllers envtest runs. Also answers
 * SelfSubjectAccessReview, SelfSubjectRulesReview and SubjectAccessReview, and tells what of
 * some rules others do not cover (`uncovered`, for the escalation check of admission/plugins/rbac-escalation.ts).
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { UserInfo } from "../rest/scope.js";
import type { Store } from "../store/store.js";
import type { Attributes } from "./attributes.js";

export interface PolicyRule {
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

export interface RoleRef {
  kind: string;
  name: string;
  apiGroup?: string;
}

const rbac = "rbac.authorization.k8s.io";

const discovery: PolicyRule = {
  verbs: ["get"],
  nonResourceURLs: [
    "/api",
    "/api/*",
    "/apis",
    "/apis/*",
    "/openapi",
    "/openapi/*",
    "/version",
    "/version/",
  ],
};
const publicInfo: PolicyRule = {
  verbs: ["get"],
  nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"],
};
const basicUser: PolicyRule[] = [
  {
    verbs: ["create"],
    apiGroups: ["authorization.k8s.io"],
    resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
  },
  { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"] },
];

/** What `system:discovery`, `system:basic-user` and `system:public-info-viewer` grant. */
const bootstrapRules: PolicyRule[] = [discovery, publicInfo, ...basicUser];

/** The bootstrap ClusterRoleBinding (of the ClusterRole of the same name) granting each rule. */
const bootstrapBindings = new Map<PolicyRule, { name: string; group: string }>([
  [discovery, { name: "system:discovery", group: "system:authenticated" }],
  [publicInfo, { name: "system:public-info-viewer", group: "system:authenticated" }],
  ...basicUser.map(
    (r) => [r, { name: "system:basic-user", group: "system:authenticated" }] as const,
  ),
]);

/**
 * A binding as kube's authorizer names it in an allowed reason (roleBindingDescriber and
 * clusterRoleBindingDescriber, plugin/pkg/auth/authorizer/rbac/rbac.go; describeSubject).
 */
function describeBinding(b: KubeObject, subject: Subject, namespace: string | undefined): string {
  const ref = b.roleRef as RoleRef;
  const name = b.metadata?.name ?? "";
  const who =
    subject.kind === "ServiceAccount"
      ? `${subject.kind} ${JSON.stringify(`${subject.name}/${subject.namespace || namespace || ""}`)}`
      : `${subject.kind} ${JSON.stringify(subject.name)}`;
  const binding = namespace
    ? `RoleBinding ${JSON.stringify(`${name}/${namespace}`)}`
    : `ClusterRoleBinding ${JSON.stringify(name)}`;
  return `${binding} of ${ref.kind} ${JSON.stringify(ref.name)} to ${who}`;
}

/**
 * The rules of the bootstrap roles (`system:controller:*`, kube's `controller_policy.go`) that
 * admission consults for the controllers envtest runs as service accounts: the aggregation
 * controller may `escalate` ClusterRoles, the certificate controller `sign` for the built-in
 * signers. Their other rules authorize requests, which internal writes do not make (see
 * client/api-client.ts).
 */
const controllerRules: Record<string, PolicyRule[]> = {
  "system:serviceaccount:kube-system:clusterrole-aggregation-controller": [
    {
      verbs: ["escalate", "get", "list", "watch", "update", "patch"],
      apiGroups: [rbac],
      resources: ["clusterroles"],
    },
  ],
  "system:serviceaccount:kube-system:certificate-controller": [
    {
      verbs: ["sign"],
      apiGroups: ["certificates.k8s.io"],
      resources: ["signers"],
      resourceNames: [
        "kubernetes.io/legacy-unknown",
        "kubernetes.io/kube-apiserver-client",
        "kubernetes.io/kube-apiserver-client-kubelet",
        "kubernetes.io/kubelet-serving",
      ],
    },
  ],
};

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
      (u) =>
        u === "*" || u === a.path || (u.endsWith("*") && a.path.startsWith(u.replace(/\*+$/, ""))),
    );
  }
  if (!has(rule.apiGroups, a.group)) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  // A request without a name matches an empty resourceName, as kube's ResourceNameMatches.
  if (rule.resourceNames && rule.resourceNames.length > 0)
    return rule.resourceNames.includes(a.name ?? "");
  return true;
}

/**
 * A rule broken down to one verb, group, resource and name each (or one URL and verb), as kube's
 * BreakdownRule: the unit `uncovered` compares.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames?.length ? rule.resourceNames : undefined;
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const base = { apiGroups: [group], resources: [resource], verbs: [verb] };
        if (names) for (const n of names) out.push({ ...base, resourceNames: [n] });
        else out.push(base);
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

/**
 * The parts of `rules` that `owner` does not cover (kube's `Covers`), broken down. A broken-down
 * rule is covered when one owner rule would allow it as a request: its verb, group, resource
 * (or subresource wildcard) and name, or its URL (`/x*` prefixes); a wildcard is covered only
 * by a wildcard.
 */
export function uncovered(
  owner: readonly PolicyRule[],
  rules: readonly PolicyRule[],
): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const sub of rules.flatMap(breakdownRule)) {
    const a = subruleAttributes(sub);
    // A named subrule needs the owner to allow that name; an unnamed one an owner without names.
    const ok = owner.some(
      (r) => ruleAllows(r, a) && (sub.resourceNames !== undefined || !r.resourceNames?.length),
    );
    if (!ok) missing.push(sub);
  }
  return missing;
}

function subruleAttributes(sub: PolicyRule): Attributes {
  const user = { name: "", groups: [] };
  const verb = sub.verbs?.[0] ?? "";
  if (sub.nonResourceURLs) {
    const path = sub.nonResourceURLs[0] ?? "";
    return { user, verb, group: "", resource: "", path, resourceRequest: false };
  }
  const combined = sub.resources?.[0] ?? "";
  const slash = combined.indexOf("/");
  return {
    user,
    verb,
    group: sub.apiGroups?.[0] ?? "",
    resource: slash < 0 ? combined : combined.slice(0, slash),
    ...(slash < 0 ? {} : { subresource: combined.slice(slash + 1) }),
    ...(sub.resourceNames ? { name: sub.resourceNames[0] } : {}),
    path: "",
    resourceRequest: true,
  };
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
   * The rules a roleRef grants, read from what is stored (kube's GetRoleReferenceRules through
   * the registry): as kube's authorizer, aggregation is not evaluated here, the aggregation
   * controller writes an aggregated role's rules (controllers/clusterrole-aggregation). A missing
   * role is the registry's NotFound.
   */
  roleRefRules(ref: RoleRef, namespace: string | undefined): PolicyRule[] | ApiError {
    if (ref.kind === "ClusterRole") {
      const role = this.store.get(`${rbac}/clusterroles`, undefined, ref.name);
      if (!role) return errors.notFound({ group: rbac, resource: "clusterroles" }, ref.name);
      return [...((role.rules as PolicyRule[] | undefined) ?? [])];
    }
    if (ref.kind === "Role") {
      const role = namespace ? this.store.get(`${rbac}/roles`, namespace, ref.name) : undefined;
      if (!role) return errors.notFound({ group: rbac, resource: "roles" }, ref.name);
      return [...((role.rules as PolicyRule[] | undefined) ?? [])];
    }
    // Stored bindings name a Role or ClusterRole (validation); a request's may not, yet.
    return errors.internal(`unsupported role reference kind: ${JSON.stringify(ref.kind)}`);
  }

  /**
   * Every rule that applies to `user` in `namespace` (cluster-wide rules included), and the
   * errors resolving the roles of bindings that apply to it (kube's RulesFor): a binding to a
   * missing role grants nothing.
   */
  resolveRules(
    user: UserInfo,
    namespace: string | undefined,
  ): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [...bootstrapRules, ...(controllerRules[user.name] ?? [])];
    const problems: string[] = [];
    const add = (b: KubeObject, ns: string | undefined) => {
      const subjects = (b.subjects as Subject[] | undefined) ?? [];
      if (!subjects.some((s) => subjectMatches(s, user, ns))) return;
      const granted = this.roleRefRules(b.roleRef as RoleRef, ns);
      if (granted instanceof ApiError) problems.push(granted.message);
      else rules.push(...granted);
    };
    for (const b of this.store.list(`${rbac}/clusterrolebindings`)) add(b, undefined);
    if (namespace) {
      for (const b of this.store.list(`${rbac}/rolebindings`, namespace)) add(b, namespace);
    }
    return { rules, errors: problems };
  }

  /** Every rule that applies to `user` in `namespace` (cluster-wide rules included). */
  rulesFor(user: UserInfo, namespace: string | undefined): PolicyRule[] {
    return this.resolveRules(user, namespace).rules;
  }

  /**
   * The binding whose role allows `a`, described as kube's allowed reason does, visiting as
   * kube's VisitRulesFor: cluster role bindings, then the namespace's role bindings; undefined
   * when none does.
   */
  allowedBy(a: Attributes): string | undefined {
    for (const rule of bootstrapRules) {
      const b = bootstrapBindings.get(rule)!;
      if (a.user.groups.includes(b.group) && ruleAllows(rule, a))
        return `ClusterRoleBinding "${b.name}" of ClusterRole "${b.name}" to Group "${b.group}"`;
    }
    const controller = controllerRules[a.user.name];
    if (controller?.some((r) => ruleAllows(r, a))) {
      const [, , ns, sa] = a.user.name.split(":");
      const role = `system:controller:${sa}`;
      return `ClusterRoleBinding "${role}" of ClusterRole "${role}" to ServiceAccount "${sa}/${ns}"`;
    }
    const visit = (b: KubeObject, ns: string | undefined): string | undefined => {
      const subject = ((b.subjects as Subject[] | undefined) ?? []).find((s) =>
        subjectMatches(s, a.user, ns),
      );
      if (!subject) return undefined;
      const granted = this.roleRefRules(b.roleRef as RoleRef, ns);
      if (granted instanceof ApiError || !granted.some((r) => ruleAllows(r, a))) return undefined;
      return describeBinding(b, subject, ns);
    };
    for (const b of this.store.list(`${rbac}/clusterrolebindings`)) {
      const found = visit(b, undefined);
      if (found) return found;
    }
    if (!a.namespace) return undefined;
    for (const b of this.store.list(`${rbac}/rolebindings`, a.namespace)) {
      const found = visit(b, a.namespace);
      if (found) return found;
    }
    return undefined;
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
    const privileged = allowAll || user.groups.includes("system:masters");
    const by = privileged ? undefined : this.allowedBy(attrs);
    const allowed = privileged || by !== undefined;
    return {
      kind,
      apiVersion: "authorization.k8s.io/v1",
      metadata: body.metadata?.namespace ? { namespace: body.metadata.namespace } : {},
      spec: body.spec ?? {},
      status: allowed
        ? { allowed: true, reason: by ? `RBAC: allowed by ${by}` : "" }
        : { allowed: false },
    };
  }
}
