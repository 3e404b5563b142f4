/**
 * The TLS material of envtest's servers: a cluster CA (which clients' kubeconfig trusts, the
 * kube-root-ca.crt ConfigMap publishes and the CSR signer signs with) and a serving certificate
 * for localhost, kubernetes.default.svc, 127.0.0.1 and ::1 issued by it, both from
 * `@opgen/apimachinery/certs`. Made once per process and shared by every server it starts (each
 * still has its own port, tokens and state), so a start costs no key generation or signing.
 */
import { randomBytes } from "node:crypto";
import {
  type CertificateAuthority,
  issueCertificate,
  newSelfSignedCA,
} from "@opgen/apimachinery/certs";

export interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
  /** The cluster CA with its key, for the CSR signer. */
  ca: CertificateAuthority;
}

let cachedMaterial: TlsMaterial | undefined;

/** The process's cluster CA and serving certificate. */
export function tlsMaterial(): TlsMaterial {
  cachedMaterial ??= mintTlsMaterial();
  return cachedMaterial;
}

/** Issues a fresh cluster CA and a serving certificate for the local addresses. */
export function mintTlsMaterial(): TlsMaterial {
  const ca = newSelfSignedCA(`opgen-envtest-ca-${randomBytes(4).toString("hex")}`);
  const serving = issueCertificate(ca, "serving", {
    commonName: "kube-apiserver",
    hosts: ["localhost", "kubernetes.default.svc", "127.0.0.1", "::1"],
  });
  return { caPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem, ca };
}
