/**
 * The ValidatingAdmissionPolicies in force, read from the store and kept current as policies and
 * bindings change (kube's policy source, `apiserver: pkg/admission/plugin/policy/generic/
 * policy_source.go`): each policy with the bindings that name it. A binding whose policy does not
 * exist binds nothing, a policy without bindings enforces nothing, as in kube. Policies and
 * bindings are taken in name order, so the first denial reported is deterministic.
 */
import { bucketKey } from "../../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { Store } from "../../store/store.js";
import type { LabelSelectorSpec, Rule } from "../configurations.js";
import type { MatchCondition } from "../match-conditions.js";

export const GROUP = "admissionregistration.k8s.io";
const buckets = {
  policies: bucketKey(GROUP, "validatingadmissionpolicies"),
  bindings: bucketKey(GROUP, "validatingadmissionpolicybindings"),
};

export interface NamedRule extends Rule {
  resourceNames?: string[];
}

/** matchConstraints of a policy, matchResources of a binding (defaulted as stored). */
export interface MatchResources {
  namespaceSelector?: LabelSelectorSpec;
  objectSelector?: LabelSelectorSpec;
  resourceRules?: NamedRule[];
  excludeResourceRules?: NamedRule[];
  matchPolicy?: string;
}

export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface PolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  validations: Validation[];
  auditAnnotations: AuditAnnotation[];
  matchConditions: MatchCondition[];
  variables: { name: string; expression: string }[];
  failurePolicy: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorSpec;
  parameterNotFoundAction?: string;
}

export interface Binding {
  name: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions: string[];
}

export interface Policy {
  name: string;
  spec: PolicySpec;
  bindings: Binding[];
}

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const obj = (v: unknown): JsonObject | undefined => (isObject(v) ? (v as JsonObject) : undefined);
const byName = (a: KubeObject, b: KubeObject) =>
  (a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1;

/** A stored policy's spec, as the plugin reads it. */
export function policySpec(o: KubeObject): PolicySpec {
  const s = obj(o.spec) ?? {};
  return {
    ...(obj(s.paramKind) ? { paramKind: s.paramKind as PolicySpec["paramKind"] } : {}),
    ...(obj(s.matchConstraints) ? { matchConstraints: s.matchConstraints as MatchResources } : {}),
    validations: list<Validation>(s.validations),
    auditAnnotations: list<AuditAnnotation>(s.auditAnnotations),
    matchConditions: list<MatchCondition>(s.matchConditions),
    variables: list<{ name: string; expression: string }>(s.variables),
    failurePolicy: typeof s.failurePolicy === "string" ? s.failurePolicy : "Fail",
  };
}

function binding(o: KubeObject): Binding {
  const s = obj(o.spec) ?? {};
  return {
    name: o.metadata?.name ?? "",
    ...(obj(s.paramRef) ? { paramRef: s.paramRef as ParamRef } : {}),
    ...(obj(s.matchResources) ? { matchResources: s.matchResources as MatchResources } : {}),
    validationActions: list<string>(s.validationActions),
  };
}

/** The current policies with their bindings, rebuilt only after one of them changed. */
export class PolicySource {
  private cache?: Policy[];

  constructor(private readonly store: Store) {
    const drop = () => {
      this.cache = undefined;
    };
    store.subscribe(buckets.policies, drop);
    store.subscribe(buckets.bindings, drop);
  }

  policies(): Policy[] {
    if (this.cache) return this.cache;
    const bindings = new Map<string, Binding[]>();
    for (const b of [...this.store.list(buckets.bindings)].sort(byName)) {
      const name = String(obj(b.spec)?.policyName ?? "");
      bindings.set(name, [...(bindings.get(name) ?? []), binding(b)]);
    }
    this.cache = [...this.store.list(buckets.policies)].sort(byName).flatMap((p) => {
      const bound = bindings.get(p.metadata?.name ?? "");
      return bound ? [{ name: p.metadata?.name ?? "", spec: policySpec(p), bindings: bound }] : [];
    });
    return this.cache;
  }
}
