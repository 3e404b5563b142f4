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
import type { Attributes } from "../../http/filters/authorization.js";
import type { AdmissionHook } from "../../rest/admission.js";
import type { RequestScope, UserInfo } from "../../rest/scope.js";

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

export class CertificateAdmission implements AdmissionHook {
  /** `authorize` is read per request: the environment installs RBAC after the server exists. */
  constructor(private readonly authorizer: () => Authorize | undefined) {}

  validate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (!isCsr(scope)) return;
    const name = obj.metadata?.name ?? "";
    const forbidden = (why: string) =>
      errors.forbidden({ group: scope.info.group, resource: scope.info.resource }, name, why);
    if (!old) {
      if (scope.subresource !== undefined || signerOf(obj) !== KUBE_APISERVER_CLIENT_SIGNER) return;
      const parsed = parseCsrPem(Buffer.from(String(objectAt(obj.spec).request ?? ""), "base64"));
      if (typeof parsed === "string") throw forbidden(`failed to parse CSR: ${parsed}`);
      if (subjectValues(parsed.subject, NAME_OID.organization).includes("system:masters"))
        throw forbidden(
          `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`,
        );
      return;
    }
    // Both plugins check the stored signerName: the body's is not to be trusted.
    const signerName = signerOf(old);
    if (scope.subresource === "approval") {
      if (!authorizedForSigner(this.authorizer(), scope.user, "approve", signerName))
        throw forbidden(
          `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`,
        );
      return;
    }
    if (scope.subresource === "status") {
      const before = objectAt(old.status);
      const after = objectAt(obj.status);
      if (
        before.certificate === after.certificate &&
        deepEqual(before.conditions, after.conditions)
      )
        return;
      if (!authorizedForSigner(this.authorizer(), scope.user, "sign", signerName))
        throw forbidden(
          `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`,
        );
    }
  }
}
