/**
 * Mints the TLS material of one envtest server: a self-signed CA and a serving certificate for
 * 127.0.0.1/localhost signed by it. Node cannot issue X.509 certificates, so node-forge builds
 * them; the RSA key pair comes from Node's native crypto (milliseconds instead of forge's
 * pure-JS seconds). Key and certificates are made once per process and shared by every server
 * it starts (each still has its own port, tokens and state): tests start many servers, and
 * signing two certificates in JavaScript costs more than everything else a start does.
 */
import { generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
}

interface ProcessKeys {
  privatePem: string;
  publicPem: string;
  /** The same keys as node:crypto objects: parsing the PEM again costs ~0.5 ms per start. */
  privateKey: KeyObject;
  publicKey: KeyObject;
}

let cachedKeys: ProcessKeys | undefined;

/** The process's RSA key pair, which also signs service-account tokens. */
export function processKeyPair(): ProcessKeys {
  if (!cachedKeys) {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    cachedKeys = {
      privatePem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
      publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
      privateKey,
      publicKey,
    };
  }
  return cachedKeys;
}

function serial(): string {
  // A positive serial: clear the top bit so DER does not read it as negative.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString("hex");
}

let cachedMaterial: TlsMaterial | undefined;

/** The process's CA and serving certificate (valid for 127.0.0.1, ::1 and localhost). */
export function tlsMaterial(): TlsMaterial {
  cachedMaterial ??= mintTlsMaterial();
  return cachedMaterial;
}

/** Issues a fresh CA and a serving certificate valid for 127.0.0.1, ::1 and localhost. */
export function mintTlsMaterial(): TlsMaterial {
  const keys = processKeyPair();
  const privateKey = forge.pki.privateKeyFromPem(keys.privatePem);
  const publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 365 * 24 * 3600_000);

  const ca = forge.pki.createCertificate();
  ca.publicKey = publicKey;
  ca.serialNumber = serial();
  ca.validity.notBefore = notBefore;
  ca.validity.notAfter = notAfter;
  const caName = [{ name: "commonName", value: `opgen-envtest-ca-${serial().slice(0, 8)}` }];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  ca.sign(privateKey, forge.md.sha256.create());

  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: "commonName", value: "kube-apiserver" }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 2, value: "kubernetes.default.svc" },
        { type: 7, ip: "127.0.0.1" },
        { type: 7, ip: "::1" },
      ],
    },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());

  return {
    caPem: forge.pki.certificateToPem(ca),
    certPem: forge.pki.certificateToPem(cert),
    keyPem: keys.privatePem,
  };
}
