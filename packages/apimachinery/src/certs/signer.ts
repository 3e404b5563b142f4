/**
 * kube-controller-manager's local signer (`pkg/controller/certificates/authority`,
 * PermissiveSigningPolicy) issuing an approved request: the request's subject (as Go re-encodes a
 * pkix.Name) and SANs, its public key as is, the usages asked for, CA false, no other extension of
 * the request; valid from five minutes ago for the TTL (less those five minutes unless the TTL is
 * under eight hours), never past the CA's own expiry; a random 128-bit serial.
 */
import type { CertificateAuthority } from "./authority.js";
import { createCertificate, type IssuedCertificate } from "./certificate.js";
import type { CertificateRequest } from "./request.js";
import { x509Usages } from "./usages.js";

/** The signer's backdating of NotBefore (`--cluster-signing-backdate`'s fixed 5m). */
export const SIGNER_BACKDATE_MS = 5 * 60_000;
/** Below this TTL a certificate counts as short-lived and its end is not backdated. */
export const SIGNER_SHORT_MS = 8 * 3600_000;

export interface SignOptions {
  /** spec.usages of the request. */
  usages: readonly string[];
  /** The lifetime in milliseconds (already clamped by the signing controller). */
  ttlMs: number;
  now?: number;
}

/** Go's `%v` of a time.Time in UTC. */
const goTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " +0000 UTC");

/** The issued certificate, or why the CA will not sign (Go's texts). */
export function signCertificateRequest(
  req: CertificateRequest,
  ca: CertificateAuthority,
  opts: SignOptions,
): IssuedCertificate | { error: string } {
  const { unrecognized } = x509Usages(opts.usages);
  if (unrecognized.length > 0)
    return {
      error: `unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(" ")}]`,
    };
  const now = opts.now ?? Date.now();
  const signerNotAfter = ca.certificate.notAfter.getTime();
  const notBefore = now - SIGNER_BACKDATE_MS;
  let notAfter = opts.ttlMs < SIGNER_SHORT_MS ? now + opts.ttlMs : notBefore + opts.ttlMs;
  if (notAfter >= signerNotAfter) notAfter = signerNotAfter;
  if (notBefore >= signerNotAfter)
    return { error: `the signer has expired: NotAfter=${goTime(signerNotAfter)}` };
  if (now >= signerNotAfter)
    return {
      error: `refusing to sign a certificate that expired in the past: NotAfter=${goTime(signerNotAfter)}`,
    };
  return createCertificate(
    {
      subject: req.subject,
      publicKey: req.publicKeyInfo,
      notBefore: new Date(notBefore),
      notAfter: new Date(notAfter),
      usages: opts.usages,
      altNames: req.sans,
    },
    { key: ca.key, certificate: ca.certificate },
  );
}
