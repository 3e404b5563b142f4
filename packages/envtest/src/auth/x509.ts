/**
 * Client-certificate authentication as kube-apiserver's `--client-ca-file` x509 authenticator: a
 * TLS client certificate that chains to the cluster CA (checked by the TLS layer, which requests
 * but does not require one), is within its validity and allows client auth names the user by its
 * subject's CommonName and the groups by its Organizations, the uid by the one subject attribute
 * 1.3.6.1.4.1.57683.2 if present (AllowParsingUserUIDFromCertAuth, beta in 1.32); the credential
 * id extra is the certificate's SHA-256 fingerprint, and `system:authenticated` is added as for
 * every user. A missing or unverifiable certificate (or several uids, or an empty one)
 * authenticates no one, leaving the request to the tokens.
 */
import type { X509Certificate } from "node:crypto";
import type { TLSSocket } from "node:tls";
import { NAME_OID, parseCertificate, subjectValues } from "@opgen/apimachinery/certs";
import type { UserInfo } from "../rest/scope.js";

const CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
const ANY_USAGE = "2.5.29.37.0";
const UID = "1.3.6.1.4.1.57683.2";
export const CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";

/** The user a verified client certificate names, or undefined. */
export function userOfCertificate(cert: X509Certificate): UserInfo | undefined {
  // A certificate without extended key usages may be used for anything (Go's x509.Verify).
  const usages = cert.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE))
    return undefined;
  const { subject } = parseCertificate(cert.raw);
  // pkix.Name keeps the last CommonName.
  const name = subjectValues(subject, NAME_OID.commonName).at(-1) ?? "";
  if (name === "") return undefined;
  const groups = subjectValues(subject, NAME_OID.organization);
  const uids = subjectValues(subject, UID);
  if (uids.length > 1 || uids[0] === "") return undefined;
  return {
    name,
    ...(uids[0] ? { uid: uids[0] } : {}),
    groups: [...new Set([...groups, "system:authenticated"])],
    extra: {
      [CREDENTIAL_ID]: [`X509SHA256=${cert.fingerprint256.replaceAll(":", "").toLowerCase()}`],
    },
  };
}

/** The user of the request's TLS client certificate, when the TLS layer verified it. */
export function authenticateClientCertificate(socket: unknown): UserInfo | undefined {
  const tls = socket as Partial<TLSSocket>;
  if (!tls.authorized || typeof tls.getPeerX509Certificate !== "function") return undefined;
  const cert = tls.getPeerX509Certificate();
  const now = Date.now();
  if (!cert || new Date(cert.validFrom).getTime() > now || new Date(cert.validTo).getTime() < now)
    return undefined;
  return userOfCertificate(cert);
}
