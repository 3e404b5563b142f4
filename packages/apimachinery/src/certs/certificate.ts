/**
 * The one X.509 writer: a certificate from a template, signed by an issuer, laid out as Go's
 * `x509.CreateCertificate` lays it out (so kube's clients read what they read from kube):
 * version 3; keyUsage (critical), extendedKeyUsage, basicConstraints (critical), a
 * subjectKeyIdentifier on CA certificates, the issuer's key id as authorityKeyIdentifier, then the
 * subjectAltName (critical when the subject is empty); signed with the issuer key's algorithm.
 * The structures are @peculiar/asn1-x509's; keys and signatures are node:crypto's.
 */
import { createHash, type KeyObject, randomBytes } from "node:crypto";
import { encodeAltNames, hasAltNames, noAltNames, type SubjectAltNames } from "./alt-names.js";
import { parseDer, toDer } from "./asn1.js";
import { schema, x509 } from "./asn1-lib.cjs";
import { publicKeyInfo, signatureScheme } from "./keys.js";
import { encodeName, type NameAttribute, nameAttributes } from "./names.js";
import { encodePem } from "./pem.js";
import { x509Usages } from "./usages.js";

export interface CertificateTemplate {
  subject: readonly NameAttribute[];
  /** The certified public key: a key object, or SubjectPublicKeyInfo DER (a request's). */
  publicKey: KeyObject | Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** Usage names of the certificates API (`digital signature`, `server auth`, ...). */
  usages: readonly string[];
  isCA?: boolean;
  altNames?: SubjectAltNames;
}

/** Who signs: the issuer's certificate and key, or only a key for a self-signed certificate. */
export interface Issuer {
  key: KeyObject;
  certificate?: ParsedCertificate;
}

/** A certificate read back: what issuing under it and authenticating with it need. */
export interface ParsedCertificate {
  der: Buffer;
  subject: NameAttribute[];
  subjectName: x509.Name;
  subjectKeyId?: Buffer;
  notBefore: Date;
  notAfter: Date;
}

export interface IssuedCertificate {
  der: Buffer;
  pem: string;
}

const copy = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

/**
 * A random serial below 2^128, as kube's signer draws it, as a positive INTEGER's content octets
 * (minimal, with a 0 byte first when the top bit is set). The library writes these as given.
 */
function randomSerial(): ArrayBuffer {
  const bytes = randomBytes(16);
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const m = bytes.subarray(i);
  return copy((m[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), m]) : m);
}

/** Go's default key id: RFC 7093 method 1, the leftmost 160 bits of a SHA-256 of the key. */
function keyId(subjectPublicKey: ArrayBuffer): Buffer {
  return createHash("sha256").update(new Uint8Array(subjectPublicKey)).digest().subarray(0, 20);
}

const ext = (id: string, critical: boolean, value: unknown): x509.Extension =>
  new x509.Extension({ extnID: id, critical, extnValue: new schema.OctetString(toDer(value)) });

function extensions(
  t: CertificateTemplate,
  subject: x509.Name,
  spkiKey: ArrayBuffer,
  issuer: Issuer,
): x509.Extension[] {
  const { keyUsage, extKeyUsage } = x509Usages(t.usages);
  const out: x509.Extension[] = [];
  if (keyUsage !== 0) out.push(ext(x509.id_ce_keyUsage, true, new x509.KeyUsage(keyUsage)));
  if (extKeyUsage.length > 0)
    out.push(ext(x509.id_ce_extKeyUsage, false, new x509.ExtendedKeyUsage(extKeyUsage)));
  out.push(
    ext(x509.id_ce_basicConstraints, true, new x509.BasicConstraints({ cA: t.isCA === true })),
  );
  if (t.isCA)
    out.push(
      ext(x509.id_ce_subjectKeyIdentifier, false, new x509.SubjectKeyIdentifier(keyId(spkiKey))),
    );
  const issuerKeyId = issuer.certificate?.subjectKeyId;
  if (issuerKeyId) {
    const akid = new x509.AuthorityKeyIdentifier({
      keyIdentifier: new x509.KeyIdentifier(issuerKeyId),
    });
    out.push(ext(x509.id_ce_authorityKeyIdentifier, false, akid));
  }
  const sans = t.altNames ?? noAltNames();
  if (hasAltNames(sans))
    out.push(ext(x509.id_ce_subjectAltName, subject.length === 0, encodeAltNames(sans)));
  return out;
}

/** Issues the certificate `template` describes, signed by `issuer`. */
export function createCertificate(
  template: CertificateTemplate,
  issuer: Issuer,
): IssuedCertificate {
  const scheme = signatureScheme(issuer.key);
  const spki = publicKeyInfo(template.publicKey);
  const subject = encodeName(template.subject);
  const tbs = new x509.TBSCertificate({
    version: x509.Version.v3,
    serialNumber: randomSerial(),
    signature: scheme.algorithm,
    issuer: issuer.certificate?.subjectName ?? subject,
    validity: new x509.Validity({ notBefore: template.notBefore, notAfter: template.notAfter }),
    subject,
    subjectPublicKeyInfo: spki,
    extensions: new x509.Extensions(extensions(template, subject, spki.subjectPublicKey, issuer)),
  });
  const signature = scheme.sign(toDer(tbs));
  const der = toDer(
    new x509.Certificate({
      tbsCertificate: tbs,
      signatureAlgorithm: scheme.algorithm,
      signatureValue: copy(signature),
    }),
  );
  return { der, pem: encodePem("CERTIFICATE", der) };
}

/** Reads a certificate (DER) for issuing under it or naming its holder. */
export function parseCertificate(der: Uint8Array): ParsedCertificate {
  const cert = parseDer(der, x509.Certificate);
  const tbs = cert.tbsCertificate;
  const skid = tbs.extensions?.find((e) => e.extnID === x509.id_ce_subjectKeyIdentifier);
  return {
    der: Buffer.from(der),
    subject: nameAttributes(tbs.subject),
    subjectName: tbs.subject,
    ...(skid
      ? {
          subjectKeyId: Buffer.from(
            parseDer(skid.extnValue.buffer, x509.SubjectKeyIdentifier).buffer,
          ),
        }
      : {}),
    notBefore: tbs.validity.notBefore.getTime(),
    notAfter: tbs.validity.notAfter.getTime(),
  };
}
