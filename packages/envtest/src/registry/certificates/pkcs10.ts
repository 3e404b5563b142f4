/**
 * PKCS#10 certificate requests and PEM as kube reads them (`certificates.ParseCSR`, Go's
 * `pem.Decode` and `x509.ParseCertificateRequest`/`CheckSignature`): the first PEM block must be a
 * CERTIFICATE REQUEST, its DER must parse, and its signature must verify with the public key it
 * carries (RSA, ECDSA or Ed25519, through node:crypto). Errors carry Go's texts where kube shows
 * them in a 422.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { children, DerError, oidOf, readOne, stringOf, TAG, type Tlv } from "./der.js";

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

/**
 * The PEM blocks of `data` in order, as repeated `pem.Decode` finds them: text before, between
 * and after blocks is skipped; a block whose body is not base64 ends the search.
 */
export function pemBlocks(data: Buffer): PemBlock[] {
  const text = data.toString("latin1");
  const out: PemBlock[] = [];
  const begin = /-----BEGIN ([^\r\n-]*)-----\r?\n/g;
  for (let m = begin.exec(text); m; m = begin.exec(text)) {
    const type = m[1]!;
    const endMarker = `-----END ${type}-----`;
    const endAt = text.indexOf(endMarker, begin.lastIndex);
    if (endAt < 0) break;
    const lines = text.slice(begin.lastIndex, endAt).split(/\r?\n/);
    const headers: Record<string, string> = {};
    while (lines.length > 0 && lines[0]!.includes(":")) {
      const line = lines.shift()!;
      const i = line.indexOf(":");
      headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
    const b64 = lines.join("").replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) break;
    out.push({ type, headers, bytes: Buffer.from(b64, "base64") });
    begin.lastIndex = endAt + endMarker.length;
  }
  return out;
}

/** One relative distinguished name attribute: its OID and text. */
export interface NameAttribute {
  oid: string;
  value: string;
}

export interface SubjectAltNames {
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
}

export interface CertificateRequest {
  /** The DER of the subject Name, copied into an issued certificate as is. */
  subjectRaw: Buffer;
  subject: NameAttribute[];
  /** The DER of SubjectPublicKeyInfo. */
  publicKeyInfo: Buffer;
  /** The subjectAltName extension's value from the extensionRequest attribute, if any. */
  sanExtension?: Buffer;
  sans: SubjectAltNames;
  signatureAlgorithm: string;
  /** Verifies the request's self-signature; the error text is Go's. */
  checkSignature(): string | undefined;
}

export const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  extensionRequest: "1.2.840.113549.1.9.14",
  subjectAltName: "2.5.29.17",
} as const;

/** Values of an attribute type in a subject, in order. */
export function subjectValues(subject: readonly NameAttribute[], oid: string): string[] {
  return subject.filter((a) => a.oid === oid).map((a) => a.value);
}

/** Signature algorithms by OID: the digest node:crypto verifies with and Go's failure text. */
const SIGNATURES: Record<string, { hash: string | null; key: "rsa" | "ec" | "ed25519" }> = {
  "1.2.840.113549.1.1.5": { hash: "sha1", key: "rsa" },
  "1.2.840.113549.1.1.11": { hash: "sha256", key: "rsa" },
  "1.2.840.113549.1.1.12": { hash: "sha384", key: "rsa" },
  "1.2.840.113549.1.1.13": { hash: "sha512", key: "rsa" },
  "1.2.840.10045.4.1": { hash: "sha1", key: "ec" },
  "1.2.840.10045.4.3.2": { hash: "sha256", key: "ec" },
  "1.2.840.10045.4.3.3": { hash: "sha384", key: "ec" },
  "1.2.840.10045.4.3.4": { hash: "sha512", key: "ec" },
  "1.3.101.112": { hash: null, key: "ed25519" },
};

const VERIFY_FAILURE = {
  rsa: "crypto/rsa: verification error",
  ec: "x509: ECDSA verification failure",
  ed25519: "x509: Ed25519 verification failure",
} as const;

export function parseName(name: Tlv): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) throw new DerError("malformed name");
      out.push({ oid: oidOf(type), value: stringOf(value) });
    }
  }
  return out;
}

function formatIp(b: Buffer): string {
  if (b.length === 4) return [...b].join(".");
  const groups: string[] = [];
  for (let i = 0; i + 1 < b.length; i += 2) groups.push(b.readUInt16BE(i).toString(16));
  // WHATWG's IPv6 serializer gives RFC 5952's shortest form, as Go's net.IP prints it.
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}

/** The GeneralNames of a subjectAltName extension value. */
export function parseSans(value: Buffer): SubjectAltNames {
  const sans: SubjectAltNames = { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
  for (const gn of children(readOne(value))) {
    const text = gn.body.toString("latin1");
    switch (gn.tag) {
      case 0x81:
        sans.emailAddresses.push(text);
        break;
      case 0x82:
        sans.dnsNames.push(text);
        break;
      case 0x86:
        sans.uris.push(text);
        break;
      case 0x87:
        sans.ipAddresses.push(formatIp(gn.body));
        break;
    }
  }
  return sans;
}

/** The subjectAltName extension in the request's extensionRequest attribute. */
function findSanExtension(attributes: Tlv | undefined): Buffer | undefined {
  if (!attributes) return undefined;
  for (const attr of children(attributes)) {
    const [type, values] = children(attr);
    if (!type || !values || oidOf(type) !== OID.extensionRequest) continue;
    for (const exts of children(values)) {
      for (const ext of children(exts)) {
        const parts = children(ext);
        if (oidOf(parts[0]!) !== OID.subjectAltName) continue;
        const value = parts[parts.length - 1]!;
        if (value.tag !== TAG.OCTET_STRING) throw new DerError("malformed extension");
        return Buffer.from(value.body);
      }
    }
  }
  return undefined;
}

/** Parses DER PKCS#10; throws DerError on malformed input. */
export function parseCertificateRequest(derBytes: Buffer): CertificateRequest {
  const top = readOne(derBytes);
  const [info, algorithm, signature] = children(top);
  if (top.tag !== TAG.SEQUENCE || !info || !algorithm || !signature)
    throw new DerError("malformed certificate request");
  if (info.tag !== TAG.SEQUENCE || signature.tag !== TAG.BIT_STRING)
    throw new DerError("malformed certificate request");
  const [version, subject, spki, attributes] = children(info);
  if (version?.tag !== TAG.INTEGER || subject?.tag !== TAG.SEQUENCE || spki?.tag !== TAG.SEQUENCE)
    throw new DerError("malformed certificate request");
  const algorithmOid = oidOf(children(algorithm)[0]!);
  const sanExtension = findSanExtension(attributes?.tag === 0xa0 ? attributes : undefined);
  const sig = signature.body.subarray(1);
  const signed = Buffer.from(info.raw);
  const publicKeyInfo = Buffer.from(spki.raw);
  let key: KeyObject | undefined;
  try {
    key = createPublicKey({ key: publicKeyInfo, format: "der", type: "spki" });
  } catch {
    key = undefined;
  }
  return {
    subjectRaw: Buffer.from(subject.raw),
    subject: parseName(subject),
    publicKeyInfo,
    ...(sanExtension ? { sanExtension } : {}),
    sans: sanExtension
      ? parseSans(sanExtension)
      : { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] },
    signatureAlgorithm: algorithmOid,
    checkSignature() {
      const alg = SIGNATURES[algorithmOid];
      if (!alg || !key) return "x509: cannot verify signature: algorithm unimplemented";
      const keyType = key.asymmetricKeyType === "rsa" ? "rsa" : key.asymmetricKeyType;
      if (keyType !== alg.key)
        return "x509: signature algorithm specifies an incompatible public key";
      try {
        return verify(alg.hash, signed, key, sig) ? undefined : VERIFY_FAILURE[alg.key];
      } catch {
        return VERIFY_FAILURE[alg.key];
      }
    },
  };
}

/**
 * `certificates.ParseCSR`: the first PEM block of `pemBytes` as a certificate request, or Go's
 * error text.
 */
export function parseCsrPem(pemBytes: Buffer): CertificateRequest | string {
  const block = pemBlocks(pemBytes)[0];
  if (block?.type !== "CERTIFICATE REQUEST") return "PEM block type must be CERTIFICATE REQUEST";
  try {
    return parseCertificateRequest(block.bytes);
  } catch (e) {
    if (e instanceof DerError) return `asn1: structure error: ${e.message}`;
    throw e;
  }
}
