/**
 * RBAC's privilege-escalation prevention, as kube-apiserver's RBAC storage enforces it (the
 * `policybased` storages of `pkg/registry/rbac`): a Role or ClusterRole may only be written by a
 * user who holds every permission it grants, or may `escalate` roles; a RoleBinding or
 * ClusterRoleBinding only by one who holds every permission of the role it binds, or may `bind`
 * that role.
 * `system:masters` is exempt, as kube-apiserver's own loopback writes are. The check runs after
 * the mutating webhooks and before validation, on creates and on updates (apply and patch
 * included) unless they only change what the garbage collector changes.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import { deepEqual, type JsonObject, type KubeObject } from "../../api/types.js";
import type { Attributes } from "../../auth/attributes.js";
import { type PolicyRule, type RbacAuthorizer, type RoleRef, uncovered } from "../../auth/rbac.js";
import type { RequestScope, UserInfo } from "../../rest/scope.js";
import type { AdmissionPlugin } from "../chain.js";

const GROUP = "rbac.authorization.k8s.io";

/** What the aggregationRule of a ClusterRole needs: everything (`*` on `*.*` and on URLs). */
const fullAuthority: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

export class RbacEscalationCheck implements AdmissionPlugin {
  readonly name = "RBAC escalation check (rbac.authorization.k8s.io storage)";
  /** `forbade` hears of each refusal (envtest's serviceAccount() identities record them). */
  constructor(
    private readonly rbac: RbacAuthorizer,
    private readonly forbade?: (user: string, message: string) => void,
  ) {}

  beforeStrategy(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    const { group, resource } = scope.info;
    if (group !== GROUP || scope.subresource !== undefined) return;
    if (scope.user.groups.includes("system:masters")) return;
    try {
      if (resource === "roles" || resource === "clusterroles") this.checkRole(scope, obj, old);
      else if (resource === "rolebindings" || resource === "clusterrolebindings")
        this.checkBinding(scope, obj, old);
    } catch (e) {
      if (e instanceof ApiError && e.code === 403) this.forbade?.(scope.user.name, e.message);
      throw e;
    }
  }

  private checkRole(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    // RoleEscalationAuthorized: the request's own resource, name (none on a POST) and namespace.
    if (this.allowed(scope.user, "escalate", scope.info.resource, scope.name, scope.namespace))
      return;
    if (old && onlyGarbageCollectorFields(obj, old)) return;
    const cluster = scope.info.resource === "clusterroles";
    const name = obj.metadata?.name ?? "";
    const gr = { group: GROUP, resource: scope.info.resource };
    const rules = (obj.rules as PolicyRule[] | undefined) ?? [];
    const denied = this.confirmNoEscalation(
      scope.user,
      cluster ? undefined : scope.namespace,
      rules,
    );
    if (denied) throw errors.forbidden(gr, name, denied);
    // An aggregationRule gathers anything (and, kept, stops a role being tightened).
    if (cluster && (hasAggregationRule(obj) || (old && hasAggregationRule(old)))) {
      if (this.confirmNoEscalation(scope.user, undefined, fullAuthority))
        throw errors.forbidden(
          gr,
          name,
          "must have cluster-admin privileges to use the aggregationRule",
        );
    }
  }

  private checkBinding(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (old && onlyGarbageCollectorFields(obj, old)) return;
    const namespace = scope.info.resource === "rolebindings" ? scope.namespace : undefined;
    const ref = (obj.roleRef ?? {}) as Partial<RoleRef>;
    // BindingAuthorized: `bind` on the referenced role by name, in the binding's namespace.
    const refResource =
      ref.kind === "ClusterRole" ? "clusterroles" : ref.kind === "Role" ? "roles" : undefined;
    if (refResource && this.bindAllowed(scope.user, ref, refResource, namespace)) return;
    const granted = this.rbac.roleRefRules(
      { kind: ref.kind ?? "", name: ref.name ?? "" },
      namespace,
    );
    // The role's lookup error is the answer itself (a missing role is its 404).
    if (granted instanceof ApiError) throw granted;
    const denied = this.confirmNoEscalation(scope.user, namespace, granted);
    if (denied)
      throw errors.forbidden(
        { group: GROUP, resource: scope.info.resource },
        obj.metadata?.name ?? "",
        denied,
      );
  }

  private bindAllowed(
    user: UserInfo,
    ref: Partial<RoleRef>,
    resource: string,
    namespace: string | undefined,
  ): boolean {
    return this.authorized({
      user,
      verb: "bind",
      group: ref.apiGroup ?? "",
      resource,
      ...(namespace ? { namespace } : {}),
      ...(ref.name ? { name: ref.name } : {}),
      path: "",
      resourceRequest: true,
    });
  }

  private allowed(
    user: UserInfo,
    verb: string,
    resource: string,
    name: string | undefined,
    namespace: string | undefined,
  ): boolean {
    return this.authorized({
      user,
      verb,
      group: GROUP,
      resource,
      ...(namespace ? { namespace } : {}),
      ...(name ? { name } : {}),
      path: "",
      resourceRequest: true,
    });
  }

  private authorized(a: Attributes): boolean {
    return this.rbac.authorize(a) === undefined;
  }

  /**
   * kube's ConfirmNoEscalation: undefined when the user's own rules in `namespace` (cluster-wide
   * ones included) cover `rules`, else its message listing what is missing, compacted and sorted,
   * with the errors met resolving the user's own roles.
   */
  private confirmNoEscalation(
    user: UserInfo,
    namespace: string | undefined,
    rules: readonly PolicyRule[],
  ): string | undefined {
    const own = this.rbac.resolveRules(user, namespace);
    const missing = uncovered(own.rules, rules);
    if (missing.length === 0) return undefined;
    const lines = [...new Set(compactRules(missing).map(compactString))].sort();
    let message = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join("\n")}`;
    if (own.errors.length > 0) message += `; resolution errors: [${aggregate(own.errors)}]`;
    return message;
  }
}

function hasAggregationRule(o: KubeObject): boolean {
  const rule = o.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined;
  return (rule?.clusterRoleSelectors?.length ?? 0) > 0;
}

/**
 * kube's IsOnlyMutatingGCFields: the update changes nothing but owner references and finalizers.
 * managedFields are left out here: envtest records the writer's entry after admission, where kube
 * has already recorded it (an unchanged entry compares equal either way).
 */
function onlyGarbageCollectorFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences, finalizers, selfLink, managedFields, ...meta } = (o.metadata ??
      {}) as JsonObject;
    return { ...o, metadata: meta };
  };
  return deepEqual(strip(obj), strip(old));
}

/**
 * kube's CompactRules: broken-down rules of one group and resource (and at most one name) that
 * differ only by verb become one rule with those verbs, in the order met.
 */
function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const key = simpleKey(r);
    if (key === undefined) {
      out.push(r);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(r.verbs ?? [])];
    else simple.set(key, { ...r, verbs: [...(r.verbs ?? [])] });
  }
  return [...out, ...simple.values()];
}

function simpleKey(r: PolicyRule): string | undefined {
  if ((r.resourceNames?.length ?? 0) > 1 || (r.nonResourceURLs?.length ?? 0) > 0) return undefined;
  if (r.apiGroups?.length !== 1 || r.resources?.length !== 1) return undefined;
  return JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames?.[0] ?? null]);
}

/** kube's CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const field = (label: string, v: string[] | undefined) => {
    if (v?.length) parts.push(`${label}:${goQuotedList(v)}`);
  };
  field("APIGroups", r.apiGroups);
  field("Resources", r.resources);
  field("NonResourceURLs", r.nonResourceURLs);
  field("ResourceNames", r.resourceNames);
  field("Verbs", r.verbs);
  return `{${parts.join(", ")}}`;
}

/** Go's `%q` of a []string: `["a" "b"]`. */
function goQuotedList(v: readonly string[]): string {
  return `[${v.map((s) => JSON.stringify(s)).join(" ")}]`;
}

/** utilerrors.NewAggregate(...).Error(): one message bare, several bracketed, repeats once. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`;
}
