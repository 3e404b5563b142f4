/**
 * Certificates opgen makes for itself, with client-go's `certutil` rules
 * (GenerateSelfSignedCertKey, NewSelfSignedCACert): a CA and the certificates it issues are valid
 * from an hour before now (clock skew between the machine that mints and the one that checks)
 * for a year; the usages follow the role (usages.ts); hosts become IP or DNS SANs; serials are
 * random 128-bit numbers, as kube's signer draws them. Keys are new ECDSA P-256 keys unless given.
 */
import type { KeyObject } from "node:crypto";
import { hostAltNames } from "./alt-names.js";
import { createCertificate, type ParsedCertificate, parseCertificate } from "./certificate.js";
import { generatePrivateKey, privateKeyPem } from "./keys.js";
import { subjectOf } from "./names.js";
import { roleUsages } from "./usages.js";

/** certutil's backdating of self-made certificates. */
export const SELF_SIGNED_BACKDATE_MS = 3600_000;
/** certutil's lifetime of self-made certificates (maxAge). */
export const SELF_SIGNED_TTL_MS = 365 * 24 * 3600_000;

/** A CA that can issue: its certificate (PEM and parsed) and its private key. */
export interface CertificateAuthority {
  certPem: string;
  certificate: ParsedCertificate;
  key: KeyObject;
}

/** A certificate with its private key, both PEM. */
export interface CertKeyPair {
  certPem: string;
  keyPem: string;
  key: KeyObject;
}

export interface MintOptions {
  /** The key to certify (default: a new ECDSA P-256 key). */
  key?: KeyObject;
  /** Milliseconds since the epoch the validity counts from (default: now). */
  now?: number;
  ttlMs?: number;
}

function validity(opts: MintOptions): { notBefore: Date; notAfter: Date } {
  const notBefore = (opts.now ?? Date.now()) - SELF_SIGNED_BACKDATE_MS;
  return {
    notBefore: new Date(notBefore),
    notAfter: new Date(notBefore + (opts.ttlMs ?? SELF_SIGNED_TTL_MS)),
  };
}

/** A new self-signed CA named `commonName` (and `organizations`). */
export function newSelfSignedCA(
  commonName: string,
  opts: MintOptions & { organizations?: readonly string[] } = {},
): CertificateAuthority {
  const key = opts.key ?? generatePrivateKey();
  const { pem, der } = createCertificate(
    {
      subject: subjectOf(commonName, opts.organizations),
      publicKey: key,
      ...validity(opts),
      usages: roleUsages("ca", key.asymmetricKeyType),
      isCA: true,
    },
    { key },
  );
  return { certPem: pem, certificate: parseCertificate(der), key };
}

export interface LeafOptions extends MintOptions {
  commonName: string;
  organizations?: readonly string[];
  /** DNS names and IP addresses the certificate is for (serving), as text. */
  hosts?: readonly string[];
}

/** A serving (server auth) or client (client auth) certificate issued by `ca`. */
export function issueCertificate(
  ca: CertificateAuthority,
  role: "serving" | "client",
  opts: LeafOptions,
): CertKeyPair {
  const key = opts.key ?? generatePrivateKey();
  const { pem } = createCertificate(
    {
      subject: subjectOf(opts.commonName, opts.organizations),
      publicKey: key,
      ...validity(opts),
      usages: roleUsages(role, key.asymmetricKeyType),
      altNames: hostAltNames(opts.hosts ?? []),
    },
    { key: ca.key, certificate: ca.certificate },
  );
  return { certPem: pem, keyPem: privateKeyPem(key), key };
}

/**
 * certutil.GenerateSelfSignedCertKey: a CA `<host>-ca@<unix seconds>` and a serving certificate
 * `<host>@<unix seconds>` for `host` (IP or DNS) and the alternates. `certPem` is the serving
 * certificate followed by the CA, as client-go returns it.
 */
export function selfSignedCertKey(
  host: string,
  alternateIPs: readonly string[] = [],
  alternateDNS: readonly string[] = [],
  opts: Omit<MintOptions, "key"> = {},
): CertKeyPair & { caPem: string } {
  const stamp = Math.floor((opts.now ?? Date.now()) / 1000);
  const ca = newSelfSignedCA(`${host}-ca@${stamp}`, opts);
  const leaf = issueCertificate(ca, "serving", {
    ...opts,
    commonName: `${host}@${stamp}`,
    hosts: [host, ...alternateIPs, ...alternateDNS],
  });
  return { ...leaf, certPem: leaf.certPem + ca.certPem, caPem: ca.certPem };
}
