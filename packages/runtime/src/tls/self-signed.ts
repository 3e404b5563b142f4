/**
 * The certificate the secure metrics server presents when no cert dir is given: a CA and a
 * serving certificate for localhost and 127.0.0.1 made in memory at start, as controller-runtime
 * does with client-go's GenerateSelfSignedCertKeyWithFixtures (kube-controller-manager serves its
 * own metrics the same way). It encrypts the scrape; who may scrape is decided by the
 * TokenReview/SubjectAccessReview filter, not by the certificate.
 *
 * Why node-forge: Node's crypto makes keys but cannot issue X.509 certificates. node-forge is
 * already in the tree (@opgen/envtest mints its serving certificates with it, same pinned
 * version), is pure JavaScript with no dependencies of its own, and an operator image gains
 * ~1.8 MB; writing our own ASN.1/DER encoder would be more code to get wrong. The RSA key comes
 * from Node's native crypto (milliseconds, not forge's seconds).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface CertKeyPair {
  /** The serving certificate followed by its CA, PEM. */
  cert: string;
  key: string;
  /** The CA alone, for clients that want to verify (tests, curl --cacert). */
  ca: string;
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive in DER
  return bytes.toString("hex");
}

/** Issues a CA (`<host>-ca@<unix>`) and a serving certificate for `host` and `ips`, valid a year. */
export function selfSignedCertificate(host = "localhost", ips = ["127.0.0.1"]): CertKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const signer = forge.pki.privateKeyFromPem(keyPem);
  const pub = forge.pki.publicKeyFromPem(
    publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  const now = Date.now();
  const stamp = Math.floor(now / 1000);
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + 365 * 24 * 3600_000);

  const caName = [{ name: "commonName", value: `${host}-ca@${stamp}` }];
  const ca = forge.pki.createCertificate();
  ca.publicKey = pub;
  ca.serialNumber = serial();
  ca.validity.notBefore = notBefore;
  ca.validity.notAfter = notAfter;
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, digitalSignature: true, critical: true },
  ]);
  ca.sign(signer, forge.md.sha256.create());

  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: "commonName", value: `${host}@${stamp}` }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [{ type: 2, value: host }, ...ips.map((ip) => ({ type: 7, ip }))],
    },
  ]);
  cert.sign(signer, forge.md.sha256.create());

  const caPem = forge.pki.certificateToPem(ca);
  return { cert: forge.pki.certificateToPem(cert) + caPem, key: keyPem, ca: caPem };
}
