/**
 * The ValidatingAdmissionPolicy admission plugin (`apiserver: pkg/admission/plugin/policy/
 * validating/dispatcher.go`): among validating admission, after the built-in validating plugins
 * and before the validating webhooks. For each policy whose matchConstraints select the request,
 * each binding whose matchResources do, and each param the binding selects, the policy is
 * evaluated; a failed validation is acted on as the binding's validationActions say (Deny fails
 * the request, Warn adds a `Warning` header, Audit only annotates the audit event, which envtest
 * does not record). Misconfiguration (no matchConstraints, an unknown paramKind, params not found)
 * fails the request under `failurePolicy: Fail` and is skipped under Ignore. The first denial
 * answers, as kube's: `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy 'p' with
 * binding 'b' denied request: <message>`, with the validation's reason (Invalid, 422, by default).
 * Policies and bindings themselves are never subject to policies.
 */
import {
  type AuthzFunction,
  CelAuthorizer,
  celValue,
  ResourceCheck,
} from "@opgen/apimachinery/cel";
import { ApiError, errors, type StatusReason } from "@opgen/apimachinery/status";
import { bucketKey, type Registry } from "../../api/registry.js";
import type { JsonObject, KubeObject } from "../../api/types.js";
import type { Attributes } from "../../auth/attributes.js";
import type { AdmissionPoint } from "../../rest/write-steps.js";
import type { Store } from "../../store/store.js";
import type { RequestAttributes } from "../matching.js";
import { type Decision, evaluatePolicy } from "./evaluate.js";
import { ConfigurationError, matchResources } from "./matching.js";
import { collectParams, gvkString, paramResource } from "./params.js";
import { GROUP, type Policy, PolicySource } from "./source.js";

const EXEMPT = new Set([
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
]);

/** kube's reasonToCode: the status code a denial's reason answers with. */
function reasonCode(reason: string): number {
  if (reason === "Forbidden") return 403;
  if (reason === "Unauthorized") return 401;
  if (reason === "RequestEntityTooLarge") return 413;
  return 422;
}

/** What the CEL expressions see of the request (`cel.CreateAdmissionRequest`). */
function admissionRequest(
  matched: RequestAttributes,
  requested: RequestAttributes,
  p: AdmissionPoint,
) {
  const gvr = (a: RequestAttributes) => ({
    group: a.group,
    version: a.version,
    resource: a.resource,
  });
  const user = p.scope.user;
  return {
    kind: matched.kind,
    resource: gvr(matched),
    ...(matched.subresource ? { subResource: matched.subresource } : {}),
    requestKind: requested.kind,
    requestResource: gvr(requested),
    ...(requested.subresource ? { requestSubResource: requested.subresource } : {}),
    ...(requested.name ? { name: requested.name } : {}),
    ...(requested.namespace ? { namespace: requested.namespace } : {}),
    operation: requested.operation,
    userInfo: {
      username: user.name,
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.groups.length ? { groups: user.groups } : {}),
      ...(user.extra ? { extra: user.extra } : {}),
    },
    dryRun: p.dryRun,
    options: p.options,
  };
}

/** The part of the namespace policies see (`cel.CreateNamespaceObject`). */
function namespaceObject(ns: KubeObject): JsonObject {
  const m = ns.metadata ?? {};
  const keep = [
    "name",
    "generateName",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "finalizers",
  ] as const;
  const metadata: JsonObject = {};
  for (const k of keep) if (m[k] !== undefined) metadata[k] = m[k] as JsonObject[string];
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata,
    ...(ns.spec ? { spec: ns.spec } : {}),
    ...(ns.status ? { status: ns.status } : {}),
  };
}

/** Converts an object into the version a policy matched (the server's conversion). */
export type ToVersion = (
  o: KubeObject | undefined,
  version: string,
) => Promise<KubeObject | undefined>;

interface Denial extends Decision {
  policy: string;
  binding?: string;
}

/** The server's authorizer: undefined allows, a string is the denial's reason. */
export type Authorize = (a: Attributes) => string | undefined;

export class PolicyAdmission {
  readonly source: PolicySource;

  /** `authorizer` is read per request: the environment installs RBAC after the server exists. */
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly authorizer: () => Authorize | undefined = () => undefined,
  ) {
    this.source = new PolicySource(store);
  }

  /** `authorizer` in expressions: checks answered by the server's authorizer (all allowed without one). */
  private celAuthorizer(p: AdmissionPoint, a: RequestAttributes): CelAuthorizer {
    const authorize = this.authorizer();
    const check: AuthzFunction = (user, c) => {
      const denied = authorize?.({
        user,
        verb: c.verb,
        group: c.group ?? "",
        resource: c.resource ?? "",
        ...(c.subresource ? { subresource: c.subresource } : {}),
        ...(c.namespace ? { namespace: c.namespace } : {}),
        ...(c.name ? { name: c.name } : {}),
        path: c.path ?? "",
        resourceRequest: c.resourceRequest,
      });
      return denied === undefined
        ? { allowed: true, reason: "" }
        : { allowed: false, reason: denied };
    };
    const authz = new CelAuthorizer(p.scope.user, check);
    const own = new ResourceCheck(authz, a.group, a.resource, a.subresource, a.namespace, a.name);
    return new CelAuthorizer(p.scope.user, check, own);
  }

  /** Throws the first denial; adds the Warn actions' warnings to the request. */
  async validate(
    p: AdmissionPoint,
    a: RequestAttributes,
    otherVersions: string[],
    toVersion: ToVersion,
  ): Promise<void> {
    const policies = this.source.policies();
    if (policies.length === 0) return;
    if (a.group === GROUP && EXEMPT.has(a.resource)) return;
    const denials: Denial[] = [];
    for (const policy of policies) {
      await this.dispatch(policy, p, a, otherVersions, toVersion, denials);
    }
    const first = denials[0];
    if (!first) return;
    const message = first.binding
      ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
      : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`;
    // admission.NewForbidden names the object being written: its name, else its generateName.
    const meta = p.object?.metadata;
    const name = meta?.name || meta?.generateName || "Unknown";
    const forbidden = errors.forbidden({ group: a.group, resource: a.resource }, name, message, [
      { message },
    ]);
    const reason = first.reason || "Invalid";
    throw new ApiError(
      reasonCode(reason),
      reason as StatusReason,
      forbidden.message,
      forbidden.status.details,
    );
  }

  private async dispatch(
    policy: Policy,
    p: AdmissionPoint,
    a: RequestAttributes,
    otherVersions: string[],
    toVersion: ToVersion,
    denials: Denial[],
  ): Promise<void> {
    const fail = policy.spec.failurePolicy !== "Ignore";
    const configError = (message: string, binding?: string) => {
      if (fail)
        denials.push({
          action: "Deny",
          policy: policy.name,
          ...(binding !== undefined ? { binding } : {}),
          message: `failed to configure ${binding !== undefined ? "binding" : "policy"}: ${message}`,
        });
    };
    const constraints = policy.spec.matchConstraints;
    if (!constraints) return configError("policy contained no match constraints, a required field");
    let matched: RequestAttributes | undefined;
    try {
      matched = matchResources(this.store, constraints, a, otherVersions);
    } catch (e) {
      if (e instanceof ConfigurationError) return configError(e.message);
      throw e;
    }
    if (!matched) return;
    const kind = policy.spec.paramKind;
    const paramInfo = kind ? paramResource(this.registry, kind) : undefined;
    if (kind && !paramInfo)
      return configError(`failed to find resource referenced by paramKind: '${gvkString(kind)}'`);
    let versioned: { object: unknown; oldObject: unknown } | undefined;
    for (const binding of policy.bindings) {
      let params: (KubeObject | null)[];
      try {
        if (
          binding.matchResources &&
          !matchResources(this.store, binding.matchResources, a, otherVersions)
        )
          continue;
        params = collectParams(this.store, kind, paramInfo, binding.paramRef, a.namespace);
      } catch (e) {
        if (e instanceof ConfigurationError) {
          configError(e.message, binding.name);
          continue;
        }
        throw e;
      }
      if (params.length === 0) continue;
      versioned ??= {
        object: celValue((await toVersion(p.object, matched.version)) ?? null, undefined),
        oldObject: celValue((await toVersion(p.oldObject, matched.version)) ?? null, undefined),
      };
      const ns = this.namespace(a);
      const request = celValue(admissionRequest(matched, a, p), undefined);
      const authorizer = this.celAuthorizer(p, a);
      for (const param of params) {
        const decisions = evaluatePolicy(policy.spec, {
          ...versioned,
          request,
          params: celValue(param, undefined),
          namespaceObject: ns,
          authorizer,
        });
        for (const d of decisions) {
          if (d.action !== "Deny") continue;
          const denial = { ...d, policy: policy.name, binding: binding.name };
          if (d.audit) {
            denials.push(denial);
            continue;
          }
          for (const action of binding.validationActions) {
            if (action === "Deny") denials.push(denial);
            else if (action === "Warn")
              p.scope.warnings.push(
                `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${d.message}`,
              );
          }
        }
      }
    }
  }

  /** The request's namespace as `namespaceObject` (null for cluster-scoped requests). */
  private namespace(a: RequestAttributes): unknown {
    const isNamespace = a.group === "" && a.resource === "namespaces";
    if (isNamespace || !a.namespace) return null;
    const ns = this.store.get(bucketKey("", "namespaces"), undefined, a.namespace);
    if (!ns) throw errors.notFound({ group: "", resource: "namespaces" }, a.namespace);
    return celValue(namespaceObject(ns), undefined);
  }
}
