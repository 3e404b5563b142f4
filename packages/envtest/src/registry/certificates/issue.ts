/**
 * Issues the certificate of an approved request as kube-controller-manager's local signer does
 * (`pkg/controller/certificates/authority`, PermissiveSigningPolicy): the request's subject (as
 * Go re-encodes a pkix.Name) and SANs, its public key (any type), key usages and extended key
 * usages from spec.usages, no other extensions, CA false; valid from five minutes ago for the TTL
 * (less five minutes unless shorter than eight hours), never past the CA's own expiry; a random
 * 128-bit serial; signed SHA256-with-RSA by the cluster CA.
 */
import { type KeyObject, randomBytes, sign, X509Certificate } from "node:crypto";
import {
  bitString,
  bool,
  children,
  der,
  namedBits,
  oid,
  oidOf,
  readOne,
  seq,
  TAG,
  type Tlv,
  time,
  unsignedInteger,
} from "./der.js";
import type { CertificateRequest, NameAttribute } from "./pkcs10.js";

export interface Authority {
  certPem: string;
  key: KeyObject;
}

const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  "digital signature": 0,
  "content commitment": 1,
  "key encipherment": 2,
  "data encipherment": 3,
  "key agreement": 4,
  "cert sign": 5,
  "crl sign": 6,
  "encipher only": 7,
  "decipher only": 8,
};

/** Extended key usages by usage name; the number orders them as Go's ExtKeyUsage constants. */
const EXT_KEY_USAGES: Record<string, [number, string]> = {
  any: [0, "2.5.29.37.0"],
  "server auth": [1, "1.3.6.1.5.5.7.3.1"],
  "client auth": [2, "1.3.6.1.5.5.7.3.2"],
  "code signing": [3, "1.3.6.1.5.5.7.3.3"],
  "email protection": [4, "1.3.6.1.5.5.7.3.4"],
  "s/mime": [4, "1.3.6.1.5.5.7.3.4"],
  "ipsec end system": [5, "1.3.6.1.5.5.7.3.5"],
  "ipsec tunnel": [6, "1.3.6.1.5.5.7.3.6"],
  "ipsec user": [7, "1.3.6.1.5.5.7.3.7"],
  timestamping: [8, "1.3.6.1.5.5.7.3.8"],
  "ocsp signing": [9, "1.3.6.1.5.5.7.3.9"],
  "microsoft sgc": [10, "1.3.6.1.4.1.311.10.3.3"],
  "netscape sgc": [11, "2.16.840.1.113730.4.1"],
};

/** The attribute types pkix.Name keeps, in the order ToRDNSequence writes them. */
const NAME_ORDER = [
  "2.5.4.6", // country
  "2.5.4.10", // organization
  "2.5.4.11", // organizational unit
  "2.5.4.7", // locality
  "2.5.4.8", // province
  "2.5.4.9", // street address
  "2.5.4.17", // postal code
  "2.5.4.5", // serial number
  "2.5.4.3", // common name
];
const SINGLE_VALUED = new Set(["2.5.4.5", "2.5.4.3"]);

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*]*$/;

/** Go's asn1 string choice: PrintableString when every character allows it, else UTF8String. */
function directoryString(value: string): Buffer {
  return PRINTABLE.test(value)
    ? der(0x13, Buffer.from(value, "latin1"))
    : der(TAG.UTF8, Buffer.from(value, "utf8"));
}

/**
 * The subject as Go writes a parsed pkix.Name back: known types only, in its order, all values of
 * a type in one (multi-valued) RDN.
 */
export function encodeName(attributes: readonly NameAttribute[]): Buffer {
  const rdns: Buffer[] = [];
  for (const type of NAME_ORDER) {
    let values = attributes.filter((a) => a.oid === type).map((a) => a.value);
    // pkix.Name keeps the last CommonName and SerialNumber.
    if (SINGLE_VALUED.has(type)) values = values.slice(-1);
    values = values.filter((v) => v !== "");
    if (values.length === 0) continue;
    // DER orders a SET OF by the elements' encodings, as Go's asn1 does for a multi-valued RDN.
    const items = values.map((v) => seq(oid(type), directoryString(v))).sort(Buffer.compare);
    rdns.push(der(TAG.SET, ...items));
  }
  return seq(...rdns);
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), der(TAG.OCTET_STRING, value));
}

/** The CA certificate's subject (DER), subjectKeyIdentifier and expiry. */
function authorityFacts(certPem: string): { subject: Buffer; keyId?: Buffer; notAfter: Date } {
  const x509 = new X509Certificate(certPem);
  const tbs = children(children(readOne(x509.raw))[0]!);
  // TBSCertificate: [0] version, serial, signature, issuer, validity, subject, spki, ... [3] extensions.
  const offset = tbs[0]!.tag === 0xa0 ? 1 : 0;
  const subject = Buffer.from(tbs[offset + 4]!.raw);
  let keyId: Buffer | undefined;
  const exts = tbs.find((t) => t.tag === 0xa3);
  for (const ext of exts ? children(children(exts)[0]!) : []) {
    const parts = children(ext);
    if (oidOf(parts[0]!) === "2.5.29.14")
      keyId = Buffer.from(readOne(parts[parts.length - 1]!.body).body);
  }
  return { subject, ...(keyId ? { keyId } : {}), notAfter: new Date(x509.validTo) };
}

/** The SANs of the request in Go's order: DNS names, emails, IP addresses, URIs. */
function sanValue(req: CertificateRequest): Buffer | undefined {
  if (!req.sanExtension) return undefined;
  const names: Tlv[] = children(readOne(req.sanExtension));
  const order = [0x82, 0x81, 0x87, 0x86];
  const kept = order.flatMap((tag) => names.filter((n) => n.tag === tag).map((n) => n.raw));
  return kept.length > 0 ? seq(...kept) : undefined;
}

export interface IssueOptions {
  usages: readonly string[];
  /** The certificate's lifetime in milliseconds (already clamped by the signer). */
  ttlMs: number;
  now?: number;
}

const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * 3600_000;

/** The issued certificate as PEM, or why the CA cannot sign. */
export function issueCertificate(
  req: CertificateRequest,
  ca: Authority,
  opts: IssueOptions,
): { pem: string } | { error: string } {
  const now = opts.now ?? Date.now();
  const authority = authorityFacts(ca.certPem);
  const signerNotAfter = authority.notAfter.getTime();
  const notBefore = now - BACKDATE_MS;
  let notAfter = opts.ttlMs < SHORT_MS ? now + opts.ttlMs : now + opts.ttlMs - BACKDATE_MS;
  if (notAfter >= signerNotAfter) notAfter = signerNotAfter;
  if (notBefore >= signerNotAfter || now >= signerNotAfter) {
    return { error: `the signer has expired: NotAfter=${authority.notAfter.toISOString()}` };
  }

  const keyBits = [
    ...new Set(opts.usages.flatMap((u) => (u in KEY_USAGE_BITS ? [KEY_USAGE_BITS[u]!] : []))),
  ];
  const extUsages = [
    ...new Map(
      opts.usages
        .flatMap((u) => (u in EXT_KEY_USAGES ? [EXT_KEY_USAGES[u]!] : []))
        .map((e) => [e[0], e[1]]),
    ),
  ].sort((a, b) => a[0] - b[0]);
  const extensions: Buffer[] = [];
  if (keyBits.length > 0) extensions.push(extension("2.5.29.15", true, namedBits(keyBits)));
  if (extUsages.length > 0)
    extensions.push(extension("2.5.29.37", false, seq(...extUsages.map(([, id]) => oid(id)))));
  extensions.push(extension("2.5.29.19", true, seq()));
  if (authority.keyId)
    extensions.push(extension("2.5.29.35", false, seq(der(0x80, authority.keyId))));
  const san = sanValue(req);
  if (san) extensions.push(extension("2.5.29.17", false, san));

  const serial = randomBytes(16);
  const sha256WithRsa = seq(oid("1.2.840.113549.1.1.11"), der(TAG.NULL));
  const tbs = seq(
    der(0xa0, der(TAG.INTEGER, Buffer.from([2]))),
    unsignedInteger(serial),
    sha256WithRsa,
    authority.subject,
    seq(
      time(new Date(Math.floor(notBefore / 1000) * 1000)),
      time(new Date(Math.floor(notAfter / 1000) * 1000)),
    ),
    encodeName(req.subject),
    req.publicKeyInfo,
    der(0xa3, seq(...extensions)),
  );
  const signature = sign("sha256", tbs, ca.key);
  const cert = seq(tbs, sha256WithRsa, bitString(signature));
  const b64 = cert
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .replace(/\n$/, "");
  return { pem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n` };
}
