/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook (`apiserver: pkg/admission/plugin/
 * webhook/{mutating,validating}/dispatcher.go`): mutating webhooks called one after another, each
 * seeing the previous one's result, with one reinvocation round for `IfNeeded`; validating
 * webhooks called in parallel; dry-run refused for webhooks with side effects; outcomes and
 * error texts as kube-apiserver returns them (`errors/statuserror.go` ToStatusErr, the failure
 * policy on call failures). Also the server's conversion driver for webhook-converted CRDs.
 */
import {
  ApiError,
  errors,
  type StatusDetails,
  type StatusReason,
} from "@opgen/apimachinery/status";
import {
  deepClone,
  deepEqual,
  groupVersion,
  isObject,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
} from "../api/types.js";
import { applyJsonPatch } from "../patch/jsonpatch.js";
import { fromConverted } from "../rest/schema-pipeline.js";
import type { AdmissionPoint, ConversionPoint, WriteDriver } from "../rest/write-steps.js";
import type { Store } from "../store/store.js";
import { CallError, postJson } from "./client.js";
import type { Webhook, WebhookSource } from "./configurations.js";
import { convertByWebhook } from "./conversion.js";
import { evaluateMatchConditions } from "./match-conditions.js";
import { isExempt, matchWebhook, type RequestAttributes } from "./matching.js";
import type { PolicyAdmission } from "./policy/plugin.js";
import { admissionReview, verifyResponse } from "./review.js";
import { callTarget } from "./targets.js";

/** A call that failed (transport, status, invalid answer): the failure policy decides. */
class CallFailure extends Error {}

/** kube's ToStatusErr: a denial as the client sees it. */
export function denial(webhook: string, status: JsonObject | undefined): ApiError {
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const s = status ?? {};
  const code = typeof s.code === "number" && s.code >= 400 ? s.code : 400;
  const message =
    typeof s.message === "string" && s.message
      ? `${deniedBy}: ${s.message}`
      : typeof s.reason === "string" && s.reason
        ? `${deniedBy}: ${s.reason}`
        : `${deniedBy} without explanation`;
  const reason = typeof s.reason === "string" && s.reason ? (s.reason as StatusReason) : undefined;
  const details = isObject(s.details) ? (s.details as StatusDetails) : undefined;
  return new ApiError(code, reason, message, details);
}

export class WebhookAdmission implements WriteDriver {
  constructor(
    private readonly store: Store,
    private readonly source: WebhookSource,
    /** ValidatingAdmissionPolicy, which kube runs just before the validating webhooks. */
    private readonly policies?: PolicyAdmission,
  ) {}

  convert(p: ConversionPoint): Promise<KubeObject[]> {
    return convertByWebhook(this.store, p.info, p.objects, p.version.name);
  }

  /** Undefined at once when no mutating webhook is configured (nothing to await). */
  mutate(p: AdmissionPoint): Promise<KubeObject | undefined> | undefined {
    const hooks = this.source.mutating();
    return hooks.length === 0 ? undefined : this.callMutatingWebhooks(hooks, p);
  }

  private async callMutatingWebhooks(
    hooks: Webhook[],
    p: AdmissionPoint,
  ): Promise<KubeObject | undefined> {
    const base = this.attributes(p);
    if (isExempt(base)) return undefined;
    let current = p.object;
    let lastChange = -1;
    const called: number[] = [];
    const run = async (i: number) => {
      const h = hooks[i]!;
      const a = { ...base, ...(current ? { object: current } : {}) };
      const matched = matchWebhook(this.store, h, a, this.otherVersions(p));
      if (!matched) return false;
      const next = await this.callMutating(h, matched, a, p, current);
      if (next && !deepEqual(next, current)) {
        current = next;
        lastChange = i;
      }
      return true;
    };
    for (let i = 0; i < hooks.length; i++) if (await run(i)) called.push(i);
    // Reinvocation: IfNeeded webhooks that ran before a later change are called once more.
    const firstRoundChange = lastChange;
    for (const i of called) {
      if (i < firstRoundChange && hooks[i]!.reinvocationPolicy === "IfNeeded") await run(i);
    }
    return lastChange >= 0 ? current : undefined;
  }

  /**
   * ValidatingAdmissionPolicy, which kube runs just before the validating webhooks; undefined at
   * once when no policy is bound.
   */
  policy(point: AdmissionPoint): Promise<void> | undefined {
    const policies = this.policies;
    if (!policies || policies.source.policies().length === 0) return undefined;
    const a = this.attributes(point);
    return policies.validate(point, a, this.otherVersions(point), (o, v) =>
      this.toVersion(point.scope.info, o, v, a.subresource),
    );
  }

  /** Undefined at once when no validating webhook is configured. */
  validate(point: AdmissionPoint): Promise<void> | undefined {
    const hooks = this.source.validating();
    return hooks.length === 0 ? undefined : this.callValidatingWebhooks(hooks, point);
  }

  private async callValidatingWebhooks(hooks: Webhook[], point: AdmissionPoint): Promise<void> {
    // A copy: nothing a validating webhook call does may reach the object about to be stored.
    const p = point.object ? { ...point, object: deepClone(point.object) } : point;
    const a = this.attributes(p);
    if (isExempt(a)) return;
    // Matched first (a missing namespace fails the request before any call), then called in
    // parallel; the first failure in webhook order fails the request, to be deterministic.
    const matched = hooks.flatMap((h) => {
      const m = matchWebhook(this.store, h, a, this.otherVersions(p));
      return m ? [{ h, m }] : [];
    });
    const results = await Promise.allSettled(
      matched.map(({ h, m }) => this.callValidating(h, m, a, p)),
    );
    for (const r of results) if (r.status === "rejected") throw r.reason;
  }

  private attributes(p: AdmissionPoint): RequestAttributes {
    const { scope } = p;
    const info = scope.info;
    const sub = scope.subresource ?? "";
    const name = scope.name ?? p.object?.metadata?.name ?? p.oldObject?.metadata?.name ?? "";
    const isNamespace = info.group === "" && info.resource === "namespaces";
    return {
      group: info.group,
      version: scope.version.name,
      resource: info.resource,
      subresource: sub,
      kind:
        p.kind ??
        (sub === "scale"
          ? { group: "autoscaling", version: "v1", kind: "Scale" }
          : { group: info.group, version: scope.version.name, kind: info.kind }),
      // A namespace's own requests carry its name as namespace (kube's RequestInfo).
      namespace: isNamespace ? (scope.name ?? "") : (scope.namespace ?? ""),
      name,
      operation: p.operation,
      ...(p.object ? { object: p.object } : {}),
      ...(p.oldObject ? { oldObject: p.oldObject } : {}),
    };
  }

  private otherVersions(p: AdmissionPoint): string[] {
    return p.scope.info.versions
      .filter((v) => v.served && v.name !== p.scope.version.name)
      .map((v) => v.name);
  }

  /** The object in another served version (matchPolicy Equivalent), as the server converts. */
  private async toVersion(
    info: ResourceInfo,
    o: KubeObject | undefined,
    version: string,
    subresource: string,
  ): Promise<KubeObject | undefined> {
    if (!o || (subresource !== "" && subresource !== "status")) return o;
    const apiVersion = groupVersion(info.group, version);
    if (o.apiVersion === apiVersion) return o;
    const v = info.versions.find((x) => x.name === version);
    if (info.conversionWebhook && v) {
      const [c] = await convertByWebhook(this.store, info, [o], version);
      return fromConverted(info, v, c!);
    }
    if (info.convert) return info.convert(deepClone(o), version);
    return { ...deepClone(o), apiVersion };
  }

  /** One webhook call: the checked response, or a CallFailure. */
  private async call(
    h: Webhook,
    matched: RequestAttributes,
    requested: RequestAttributes,
    p: AdmissionPoint,
    object: KubeObject | undefined,
  ) {
    if (p.dryRun && h.sideEffects !== "None" && h.sideEffects !== "NoneOnDryRun") {
      throw errors.badRequest(`admission webhook "${h.name}" does not support dry run`);
    }
    const info = p.scope.info;
    const sub = matched.subresource;
    const versioned = await this.toVersion(info, object, matched.version, sub);
    const old = await this.toVersion(info, p.oldObject, matched.version, sub);
    const review = admissionReview(h.admissionReviewVersions, {
      matched,
      requested,
      user: p.scope.user,
      dryRun: p.dryRun,
      options: p.options,
      ...(versioned ? { object: versioned } : {}),
      ...(old ? { oldObject: old } : {}),
    });
    if (!review) throw new CallFailure("webhook does not accept known AdmissionReview versions");
    if (h.matchConditions.length > 0) {
      const m = evaluateMatchConditions(h.matchConditions, review.body.request as JsonObject);
      if (m === false) return undefined;
      if (typeof m === "string") {
        if (h.failurePolicy === "Ignore") return undefined;
        throw errors.forbidden({ group: info.group, resource: info.resource }, requested.name, m);
      }
    }
    let answer: unknown;
    try {
      answer = await postJson(
        callTarget(this.store, h.clientConfig, h.timeoutSeconds),
        review.body,
      );
    } catch (e) {
      if (e instanceof CallError) throw new CallFailure(`failed to call webhook: ${e.message}`);
      throw e;
    }
    const response = verifyResponse(answer, review, h.mutating);
    if (typeof response === "string")
      throw new CallFailure(`received invalid webhook response: ${response}`);
    p.scope.warnings.push(...response.warnings);
    if (!response.allowed) throw denial(h.name, response.status);
    return { response, versioned };
  }

  /** Applies the failure policy to a call failure: Ignore skips the webhook, Fail fails. */
  private async withPolicy<T>(h: Webhook, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof CallFailure)) throw e;
      if (h.failurePolicy === "Ignore") return undefined;
      throw errors.internal(`failed calling webhook "${h.name}": ${e.message}`);
    }
  }

  private async callMutating(
    h: Webhook,
    matched: RequestAttributes,
    requested: RequestAttributes,
    p: AdmissionPoint,
    object: KubeObject | undefined,
  ): Promise<KubeObject | undefined> {
    const result = await this.withPolicy(h, () => this.call(h, matched, requested, p, object));
    if (!result?.response.patch) return undefined;
    const patch = result.response.patch;
    if (!result.versioned) {
      // DELETE has no object to patch; an empty patch is allowed.
      if (isEmptyPatch(patch)) return undefined;
      throw errors.internal(
        `admission webhook "${h.name}" attempted to modify the object, which is not supported for this operation`,
      );
    }
    let patched: unknown;
    try {
      patched = applyJsonPatch(result.versioned, patch);
    } catch (e) {
      throw errors.internal((e as Error).message);
    }
    if (!isObject(patched)) throw errors.internal("the patched object is not an object");
    return this.toVersion(
      p.scope.info,
      patched as KubeObject,
      requested.version,
      requested.subresource,
    );
  }

  private async callValidating(
    h: Webhook,
    matched: RequestAttributes,
    requested: RequestAttributes,
    p: AdmissionPoint,
  ): Promise<void> {
    await this.withPolicy(h, () => this.call(h, matched, requested, p, p.object));
  }
}

function isEmptyPatch(patch: string): boolean {
  try {
    const p = JSON.parse(patch) as unknown;
    return Array.isArray(p) && p.length === 0;
  } catch {
    return false;
  }
}
