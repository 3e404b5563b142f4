/**
 * The AdmissionReview a webhook receives and the checks its answer must pass
 * (`apiserver: pkg/admission/plugin/webhook/request/admissionreview.go` CreateAdmissionObjects,
 * VerifyAdmissionResponse). A failed check is a call failure, subject to the failure policy.
 */
import { randomUUID } from "node:crypto";
import { ACCEPTED_ADMISSION_REVIEW_VERSIONS } from "@opgen/apimachinery/admissionregistration";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { UserInfo } from "../rest/scope.js";
import type { RequestAttributes } from "./matching.js";

export interface ReviewRequest {
  version: string;
  uid: string;
  body: JsonObject;
}

export interface ReviewInput {
  /** What the webhook matched (its version, maybe an equivalent one). */
  matched: RequestAttributes;
  /** What the client asked for. */
  requested: RequestAttributes;
  user: UserInfo;
  dryRun: boolean;
  options: JsonObject;
  object?: KubeObject;
  oldObject?: KubeObject;
}

/** The review in the first of the webhook's versions the server knows (undefined: none). */
export function admissionReview(versions: string[], input: ReviewInput): ReviewRequest | undefined {
  const version = versions.find((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v));
  if (!version) return undefined;
  const uid = randomUUID();
  const { matched: m, requested: r } = input;
  const gvr = (a: RequestAttributes) => ({
    group: a.group,
    version: a.version,
    resource: a.resource,
  });
  const request: JsonObject = {
    uid,
    kind: m.kind,
    resource: gvr(m),
    ...(m.subresource ? { subResource: m.subresource } : {}),
    requestKind: r.kind,
    requestResource: gvr(r),
    ...(r.subresource ? { requestSubResource: r.subresource } : {}),
    ...(r.name ? { name: r.name } : {}),
    ...(r.namespace ? { namespace: r.namespace } : {}),
    operation: r.operation,
    userInfo: {
      username: input.user.name,
      ...(input.user.uid ? { uid: input.user.uid } : {}),
      groups: input.user.groups,
      ...(input.user.extra ? { extra: input.user.extra } : {}),
    },
    object: input.object ?? null,
    oldObject: input.oldObject ?? null,
    dryRun: input.dryRun,
    options: input.options,
  };
  return {
    version,
    uid,
    body: { apiVersion: `admission.k8s.io/${version}`, kind: "AdmissionReview", request },
  };
}

export interface ReviewResponse {
  allowed: boolean;
  status?: JsonObject;
  /** Decoded JSONPatch text. */
  patch?: string;
  warnings: string[];
}

/** The checked response, or what is wrong with it. */
export function verifyResponse(
  answer: unknown,
  req: ReviewRequest,
  mutating: boolean,
): ReviewResponse | string {
  const review = (isObject(answer) ? answer : {}) as JsonObject;
  const response = review.response;
  if (req.version === "v1") {
    const expected = "admission.k8s.io/v1, Kind=AdmissionReview";
    const got = `${String(review.apiVersion ?? "")}, Kind=${String(review.kind ?? "")}`;
    if (got !== expected) return `expected webhook response of ${expected}, got ${got}`;
    if (!isObject(response)) return "webhook response was absent";
    if (response.uid !== req.uid) {
      return `expected response.uid="${req.uid}", got "${String(response.uid ?? "")}"`;
    }
  } else if (!isObject(response)) return "webhook response was absent";
  const res = response as JsonObject;
  const hasPatch = typeof res.patch === "string" && res.patch.length > 0;
  const patchType = res.patchType;
  if (mutating) {
    if (req.version === "v1") {
      if (hasPatch && patchType === undefined)
        return "webhook returned response.patch but not response.patchType";
      if (!hasPatch && patchType !== undefined)
        return "webhook returned response.patchType but not response.patch";
    }
    if (hasPatch && patchType !== undefined && patchType !== "JSONPatch")
      return `webhook returned invalid response.patchType of "${String(patchType)}"`;
  } else {
    if (hasPatch) return "validating webhook may not return response.patch";
    if (patchType !== undefined) return "validating webhook may not return response.patchType";
  }
  const warnings = Array.isArray(res.warnings)
    ? res.warnings.filter((w): w is string => typeof w === "string")
    : [];
  return {
    allowed: res.allowed === true,
    ...(isObject(res.status) ? { status: res.status } : {}),
    ...(hasPatch ? { patch: Buffer.from(res.patch as string, "base64").toString("utf8") } : {}),
    warnings,
  };
}
