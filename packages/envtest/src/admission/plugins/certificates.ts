/**
 * kube-apiserver's certificate admission plugins (`plugin/pkg/admission/certificates`), all on by
 * default: CertificateApproval (an update of `approval` needs the `approve` verb on the
 * `certificates.k8s.io` `signers` resource named by the stored request's signerName, or
 * `<domain>/*`), CertificateSigning (a `status` update that changes the certificate or the
 * conditions needs `sign` likewise) and CertificateSubjectRestriction (no request to the
 * kube-apiserver-client signer may name the system:masters group). Without an authorizer (envtest
 * without RBAC) every identity may approve and sign, as kube's AlwaysAllow authorizer grants.
 */
import { NAME_OID, parseCsrPem, subjectValues } from "@opgen/apimachinery/certs";
import { errors } from "@opgen/apimachinery/status";
import { deepEqual, type KubeObject, objectAt } from "../../api/types.js";
import type { Attributes } from "../../auth/attributes.js";
import type { RequestScope, UserInfo } from "../../rest/scope.js";
import type { AdmissionPlugin } from "../chain.js";

export const KUBE_APISERVER_CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";

/** The authorizer: undefined allows, a string is the denial's reason. */
export type Authorize = (a: Attributes) => string | undefined;

/**
 * IsAuthorizedForSignerName: `verb` on signers/<signerName>, else on signers/<domain>/*.
 */
export function authorizedForSigner(
  authorize: Authorize | undefined,
  user: UserInfo,
  verb: string,
  signerName: string,
): boolean {
  if (!authorize) return true;
  const attrs = (name: string): Attributes => ({
    user,
    verb,
    group: "certificates.k8s.io",
    resource: "signers",
    name,
    path: "",
    resourceRequest: true,
  });
  if (authorize(attrs(signerName)) === undefined) return true;
  return authorize(attrs(`${signerName.split("/")[0]}/*`)) === undefined;
}

function isCsr(scope: RequestScope): boolean {
  return (
    scope.info.group === "certificates.k8s.io" &&
    scope.info.resource === "certificatesigningrequests"
  );
}

const signerOf = (o: KubeObject): string => String(objectAt(o.spec).signerName ?? "");

/** A refusal of the request to write `obj`. */
function forbidden(scope: RequestScope, obj: KubeObject, why: string) {
  const name = obj.metadata?.name ?? "";
  return errors.forbidden({ group: scope.info.group, resource: scope.info.resource }, name, why);
}

/**
 * CertificateApproval: an update of `approval` needs `approve` on the stored request's signer
 * (the body's signerName is not to be trusted). `authorizer` is read per request, as the
 * environment wraps the server's authorizer after the server exists.
 */
export function certificateApproval(authorizer: () => Authorize | undefined): AdmissionPlugin {
  return {
    name: "CertificateApproval",
    validate(scope, obj, old) {
      if (!old || !isCsr(scope) || scope.subresource !== "approval") return;
      const signerName = signerOf(old);
      if (!authorizedForSigner(authorizer(), scope.user, "approve", signerName))
        throw forbidden(
          scope,
          obj,
          `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`,
        );
    },
  };
}

/** CertificateSigning: a status update changing the certificate or conditions needs `sign`. */
export function certificateSigning(authorizer: () => Authorize | undefined): AdmissionPlugin {
  return {
    name: "CertificateSigning",
    validate(scope, obj, old) {
      if (!old || !isCsr(scope) || scope.subresource !== "status") return;
      const before = objectAt(old.status);
      const after = objectAt(obj.status);
      if (
        before.certificate === after.certificate &&
        deepEqual(before.conditions, after.conditions)
      )
        return;
      const signerName = signerOf(old);
      if (!authorizedForSigner(authorizer(), scope.user, "sign", signerName))
        throw forbidden(
          scope,
          obj,
          `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`,
        );
    },
  };
}

/** CertificateSubjectRestriction: no kube-apiserver-client request may name system:masters. */
export const certificateSubjectRestriction: AdmissionPlugin = {
  name: "CertificateSubjectRestriction",
  validate(scope, obj, old) {
    if (old || !isCsr(scope) || scope.subresource !== undefined) return;
    if (signerOf(obj) !== KUBE_APISERVER_CLIENT_SIGNER) return;
    const parsed = parseCsrPem(Buffer.from(String(objectAt(obj.spec).request ?? ""), "base64"));
    if (typeof parsed === "string") throw forbidden(scope, obj, `failed to parse CSR: ${parsed}`);
    if (subjectValues(parsed.subject, NAME_OID.organization).includes("system:masters"))
      throw forbidden(
        scope,
        obj,
        `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`,
      );
  },
};
