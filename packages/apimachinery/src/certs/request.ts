/**
 * PKCS#10 certificate requests as kube reads them (`certificates.ParseCSR`, Go's
 * `x509.ParseCertificateRequest` and `CheckSignature`): the first PEM block must be a CERTIFICATE
 * REQUEST, its DER must parse, and its signature must verify with the key it carries (RSA, ECDSA
 * or Ed25519). Errors carry Go's texts, which kube shows in its validation messages. Also writes
 * requests (client-go's `cert.MakeCSR`), for clients and tests.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import {
  decodeAltNames,
  encodeAltNames,
  hasAltNames,
  noAltNames,
  type SubjectAltNames,
} from "./alt-names.js";
import { Asn1Error, parseDer, toDer } from "./asn1.js";
import { csr, schema, x509 } from "./asn1-lib.cjs";
import { publicKeyInfo, signatureScheme } from "./keys.js";
import { encodeName, type NameAttribute, nameAttributes } from "./names.js";
import { encodePem, pemBlocks } from "./pem.js";

const EXTENSION_REQUEST = "1.2.840.113549.1.9.14";

export interface CertificateRequest {
  subject: NameAttribute[];
  /** The DER of its SubjectPublicKeyInfo, certified as is. */
  publicKeyInfo: Buffer;
  /** The SANs of its extensionRequest attribute. */
  sans: SubjectAltNames;
  signatureAlgorithm: string;
  /** Verifies the request's self-signature; the error text is Go's. */
  checkSignature(): string | undefined;
}

/** Signature algorithms by OID: the digest node:crypto verifies with and the key type. */
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

/** The SANs in the request's extensionRequest attribute (Go reads the first one it finds). */
function requestedAltNames(attributes: readonly x509.Attribute[]): SubjectAltNames {
  for (const attr of attributes) {
    if (attr.type !== EXTENSION_REQUEST) continue;
    for (const value of attr.values) {
      const san = parseDer(value, x509.Extensions).find(
        (e) => e.extnID === x509.id_ce_subjectAltName,
      );
      if (san) return decodeAltNames(parseDer(san.extnValue.buffer, x509.SubjectAlternativeName));
    }
  }
  return noAltNames();
}

function signatureCheck(signed: Buffer, signature: Buffer, algorithm: string, spki: Buffer) {
  return (): string | undefined => {
    const alg = SIGNATURES[algorithm];
    let key: KeyObject;
    try {
      key = createPublicKey({ key: spki, format: "der", type: "spki" });
    } catch {
      return "x509: cannot verify signature: algorithm unimplemented";
    }
    if (!alg) return "x509: cannot verify signature: algorithm unimplemented";
    if (key.asymmetricKeyType !== alg.key)
      return "x509: signature algorithm specifies an incompatible public key";
    try {
      return verify(alg.hash, signed, key, signature) ? undefined : VERIFY_FAILURE[alg.key];
    } catch {
      return VERIFY_FAILURE[alg.key];
    }
  };
}

/** Parses DER PKCS#10; throws Asn1Error on malformed input. */
export function parseCertificateRequest(der: Uint8Array): CertificateRequest {
  const req = parseDer(der, csr.CertificationRequest);
  const info = req.certificationRequestInfo;
  if (!req.certificationRequestInfoRaw)
    throw new Asn1Error("asn1: structure error: no request info");
  const spki = toDer(info.subjectPKInfo);
  const algorithm = req.signatureAlgorithm.algorithm;
  return {
    subject: nameAttributes(info.subject),
    publicKeyInfo: spki,
    sans: requestedAltNames(info.attributes ?? []),
    signatureAlgorithm: algorithm,
    checkSignature: signatureCheck(
      Buffer.from(req.certificationRequestInfoRaw),
      Buffer.from(req.signature),
      algorithm,
      spki,
    ),
  };
}

/**
 * `certificates.ParseCSR`: the first PEM block of `pem` as a certificate request, or Go's error
 * text.
 */
export function parseCsrPem(pem: Buffer | string): CertificateRequest | string {
  const block = pemBlocks(pem)[0];
  if (block?.type !== "CERTIFICATE REQUEST") return "PEM block type must be CERTIFICATE REQUEST";
  try {
    return parseCertificateRequest(block.bytes);
  } catch (e) {
    if (e instanceof Asn1Error) return e.message;
    throw e;
  }
}

/** The extensionRequest attribute asking for `sans`. */
function extensionRequest(sans: SubjectAltNames): x509.Attribute {
  const san = new x509.Extension({
    extnID: x509.id_ce_subjectAltName,
    critical: false,
    extnValue: new schema.OctetString(toDer(encodeAltNames(sans))),
  });
  return new x509.Attribute({
    type: EXTENSION_REQUEST,
    values: [new Uint8Array(toDer(new x509.Extensions([san]))).buffer],
  });
}

export interface RequestTemplate {
  subject: readonly NameAttribute[];
  /** The requester's private key: the request carries its public half and its signature. */
  key: KeyObject;
  altNames?: SubjectAltNames;
}

/** A signed request for `template`, as DER and PEM (`cert.MakeCSR`). */
export function createCertificateRequest(template: RequestTemplate): { der: Buffer; pem: string } {
  const scheme = signatureScheme(template.key);
  const sans = template.altNames ?? noAltNames();
  const attributes = hasAltNames(sans) ? [extensionRequest(sans)] : [];
  const info = new csr.CertificationRequestInfo({
    version: 0,
    subject: encodeName(template.subject),
    subjectPKInfo: publicKeyInfo(template.key),
    attributes: new csr.Attributes(attributes),
  });
  const der = toDer(
    new csr.CertificationRequest({
      certificationRequestInfo: info,
      signatureAlgorithm: scheme.algorithm,
      signature: new Uint8Array(scheme.sign(toDer(info))).buffer,
    }),
  );
  return { der, pem: encodePem("CERTIFICATE REQUEST", der) };
}
