/**
 * CertificateSigningRequests as kube-apiserver's csrStrategy and its status and approval
 * strategies treat them: the requester is the authenticated user, whatever the body says
 * (spec.username, uid, groups, extra are set from the request's identity), a new request carries
 * no status (it cannot be created approved), an update of the main resource changes metadata only,
 * `status` changes the certificate and conditions other than Approved/Denied, and `approval`
 * changes the conditions only. Conditions get their timestamps from the server when they have
 * none. Validation is csr-validation.ts; the approval and signing admission is admission/plugins/certificates.ts.
 */
import { nowTime } from "../../api/meta.js";
import { type JsonObject, type KubeObject, objectAt } from "../../api/types.js";
import type { RequestScope, UserInfo } from "../../rest/scope.js";
import { certificateSigningRequestPrinter } from "../printing/cluster.js";
import { genericStrategy, type ResourceStrategy } from "../strategy.js";
import { validateCsrCreate, validateCsrUpdate } from "./csr-validation.js";

function conditionsOf(o: KubeObject): JsonObject[] {
  const c = objectAt(o.status).conditions;
  return Array.isArray(c) ? (c as JsonObject[]) : [];
}

/** A status as Go marshals it: conditions, then certificate, each only when set. */
function statusWith(conditions: readonly JsonObject[], certificate: unknown): JsonObject {
  return {
    ...(conditions.length > 0 ? { conditions: [...conditions] } : {}),
    ...(typeof certificate === "string" && certificate !== "" ? { certificate } : {}),
  };
}

/**
 * populateConditionTimestamps: a condition without lastUpdateTime gets now; one without
 * lastTransitionTime keeps that of an old condition of the same type and status, else now.
 */
function populateConditionTimestamps(conditions: JsonObject[], old: readonly JsonObject[]): void {
  const now = nowTime();
  conditions.forEach((c, i) => {
    const next = { ...c };
    if (!next.lastUpdateTime) next.lastUpdateTime = now;
    if (!next.lastTransitionTime) {
      const same = old.find(
        (o) => o.type === next.type && o.status === next.status && o.lastTransitionTime,
      );
      next.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
    conditions[i] = next;
  });
}

/**
 * preserveConditionInstances: when the update keeps as many conditions of `type` as before, they
 * are the old ones (a count change is left for validation to refuse).
 */
function preserveConditionInstances(
  conditions: JsonObject[],
  old: readonly JsonObject[],
  type: string,
) {
  const oldOnes = old.filter((c) => c.type === type);
  const indices = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (indices.length !== oldOnes.length) return;
  indices.forEach((index, n) => {
    conditions[index] = oldOnes[n]!;
  });
}

export const certificateSigningRequests: ResourceStrategy = {
  // The status writer (the signer) never sets conditions, the approver never the certificate.
  resetFields: (sub) =>
    sub === "status"
      ? [["spec"], ["status", "conditions"]]
      : sub === "approval"
        ? [["spec"], ["status", "certificate"]]
        : undefined,
  ...genericStrategy,
  // ValidateCertificateRequestName: kube does not care what a request is called.
  nameRule: "any",
  ownsSubresourceStatus: ["approval"],
  prepareForCreate(o: KubeObject, _warnings: string[], user?: UserInfo) {
    const spec = objectAt(o.spec);
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    if (user) {
      spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length > 0)
        spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
    }
    o.spec = spec;
    // Go's empty status marshals as {} (its empty conditions slice is omitted).
    o.status = {};
  },
  prepareForUpdate(o: KubeObject, old: KubeObject, subresource: string | undefined) {
    o.spec = old.spec;
    const oldConditions = conditionsOf(old);
    if (subresource === "status") {
      const conditions = [...conditionsOf(o)];
      preserveConditionInstances(conditions, oldConditions, "Approved");
      preserveConditionInstances(conditions, oldConditions, "Denied");
      populateConditionTimestamps(conditions, oldConditions);
      o.status = statusWith(conditions, objectAt(o.status).certificate);
      return;
    }
    if (subresource === "approval") {
      const conditions = [...conditionsOf(o)];
      populateConditionTimestamps(conditions, oldConditions);
      o.status = statusWith(conditions, objectAt(old.status).certificate);
      return;
    }
    if (old.status === undefined) delete o.status;
    else o.status = old.status;
  },
  validateWrite(o: KubeObject, old: KubeObject | undefined, scope: RequestScope) {
    return old ? validateCsrUpdate(o, old, scope.subresource) : validateCsrCreate(o);
  },
  printer: () => certificateSigningRequestPrinter,
};
