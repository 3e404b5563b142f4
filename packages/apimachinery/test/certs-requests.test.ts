/**
 * PKCS#10 requests and kube-controller-manager's signer in `@opgen/apimachinery/certs`: requests
 * made here and by openssl parse and verify with Go's error texts, and an issued certificate has
 * the request's subject (re-encoded as Go writes a pkix.Name), SANs and key, the usages asked for,
 * and the signer's validity rules, checked with Node's X509Certificate and the openssl CLI.
 */
import { execFileSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync, type KeyObject, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CertificateAuthority,
  type CertificateRequest,
  createCertificateRequest,
  encodePem,
  generatePrivateKey,
  hostAltNames,
  newSelfSignedCA,
  parseCsrPem,
  pemBlocks,
  SIGNER_BACKDATE_MS,
  signCertificateRequest,
  subjectOf,
} from "../src/certs/index.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "certs-requests-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse("2030-06-01T12:00:00Z");
const HOUR = 3600_000;
const YEAR = 365 * 24 * HOUR;

function parsed(pem: string | Buffer): CertificateRequest {
  const req = parseCsrPem(pem);
  if (typeof req === "string") throw new Error(req);
  return req;
}

/** A request made by openssl with `key` (PEM) for `subject` and optional SANs. */
function opensslRequest(key: KeyObject, subject: string, sans?: string): string {
  const keyPath = join(dir, "request.key");
  writeFileSync(keyPath, key.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  const extra = sans ? ["-addext", `subjectAltName=${sans}`] : [];
  return execFileSync("openssl", [
    "req",
    "-new",
    "-key",
    keyPath,
    "-subj",
    subject,
    ...extra,
  ]).toString();
}

function extensions(pem: string, names: string): string[] {
  const out = execFileSync("openssl", ["x509", "-noout", "-ext", names], { input: pem });
  return out
    .toString()
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

describe("certificate requests", () => {
  it.each([
    ["ECDSA P-256", () => generatePrivateKey()],
    ["RSA", () => generatePrivateKey("rsa-2048")],
    ["Ed25519", () => generateKeyPairSync("ed25519").privateKey],
  ])("made here with an %s key parse back and verify", (_name, key) => {
    const sans = { ...hostAltNames(["n1.example", "10.0.0.1", "fd00::1"]) };
    sans.emailAddresses.push("ops@example.com");
    sans.uris.push("spiffe://cluster/ns/a");
    const { pem } = createCertificateRequest({
      subject: subjectOf("system:node:n1", ["system:nodes"]),
      key: key(),
      altNames: sans,
    });
    const req = parsed(pem);
    expect(req.subject).toEqual([
      { oid: "2.5.4.10", value: "system:nodes" },
      { oid: "2.5.4.3", value: "system:node:n1" },
    ]);
    expect(req.sans).toEqual({
      dnsNames: ["n1.example"],
      emailAddresses: ["ops@example.com"],
      ipAddresses: ["10.0.0.1", "fd00::1"],
      uris: ["spiffe://cluster/ns/a"],
    });
    expect(req.checkSignature()).toBeUndefined();
    // openssl agrees that the request is well formed and self-signed.
    execFileSync("openssl", ["req", "-noout", "-verify"], { input: pem, stdio: "pipe" });
  });

  it("made by openssl parse in order, with IPv4-mapped addresses printed as Go prints them", () => {
    const req = parsed(
      opensslRequest(
        generatePrivateKey(),
        "/CN=a/O=z/O=y/CN=b",
        "DNS:x.example,IP:::ffff:1.2.3.4,IP:2001:db8:0:0:1:0:0:1",
      ),
    );
    expect(req.subject.map((a) => a.value)).toEqual(["a", "z", "y", "b"]);
    expect(req.sans.ipAddresses).toEqual(["1.2.3.4", "2001:db8::1:0:0:1"]);
    expect(req.checkSignature()).toBeUndefined();
  });

  it("whose signature does not match fail with Go's texts", () => {
    for (const [key, text] of [
      [generatePrivateKey("rsa-2048"), "crypto/rsa: verification error"],
      [generatePrivateKey(), "x509: ECDSA verification failure"],
    ] as const) {
      const der = createCertificateRequest({ subject: subjectOf("t"), key }).der;
      // The signature is the DER's last bytes.
      der[der.length - 1]! ^= 0xff;
      expect(parsed(encodePem("CERTIFICATE REQUEST", der)).checkSignature()).toBe(text);
    }
  });

  it("that are not one are refused as certificates.ParseCSR refuses them", () => {
    const { der } = createCertificateRequest({
      subject: subjectOf("t"),
      key: generatePrivateKey(),
    });
    expect(parseCsrPem("not a csr")).toBe("PEM block type must be CERTIFICATE REQUEST");
    expect(parseCsrPem(encodePem("CERTIFICATE", der))).toBe(
      "PEM block type must be CERTIFICATE REQUEST",
    );
    const trailing = Buffer.concat([der, Buffer.from([0])]);
    expect(parseCsrPem(encodePem("CERTIFICATE REQUEST", trailing))).toBe(
      "asn1: syntax error: trailing data",
    );
    expect(parseCsrPem(encodePem("CERTIFICATE REQUEST", der.subarray(0, 40)))).toMatch(
      /^asn1: syntax error: /,
    );
    expect(parseCsrPem(encodePem("CERTIFICATE REQUEST", Buffer.from([0x30, 0])))).toMatch(
      /^asn1: structure error: /,
    );
  });
});

describe("kube-controller-manager's signer", () => {
  const ca = newSelfSignedCA("cluster-ca", { now: NOW });
  const caCert = new X509Certificate(ca.certPem);

  function sign(
    req: CertificateRequest,
    usages: string[],
    ttlMs: number,
    signer: CertificateAuthority = ca,
    now = NOW,
  ): X509Certificate {
    const issued = signCertificateRequest(req, signer, { usages, ttlMs, now });
    if ("error" in issued) throw new Error(issued.error);
    return new X509Certificate(issued.der);
  }

  it("issues the request's key, subject and SANs with the usages asked for", () => {
    const key = generateKeyPairSync("ed25519").privateKey;
    const req = parsed(
      opensslRequest(
        key,
        "/CN=x/emailAddress=x@example.com/OU=u/O=b/C=DE/O=a",
        "URI:spiffe://x,IP:10.0.0.1,email:x@example.com,DNS:x.example",
      ),
    );
    const cert = sign(
      req,
      ["client auth", "digital signature", "signing", "server auth", "key encipherment"],
      HOUR,
    );
    // Known attribute types only, in pkix.Name's order; one RDN per type.
    expect(cert.subject).toBe("C=DE\nO=a + O=b\nOU=u\nCN=x");
    expect(cert.subjectAltName).toBe(
      "DNS:x.example, email:x@example.com, IP Address:10.0.0.1, URI:spiffe://x",
    );
    expect(cert.publicKey.export({ type: "spki", format: "der" })).toEqual(
      createPublicKey(key).export({ type: "spki", format: "der" }),
    );
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(extensions(cert.toString(), "keyUsage,extendedKeyUsage,authorityKeyIdentifier")).toEqual(
      [
        "X509v3 Key Usage: critical",
        "Digital Signature, Key Encipherment",
        "X509v3 Extended Key Usage:",
        "TLS Web Server Authentication, TLS Web Client Authentication",
        "X509v3 Authority Key Identifier:",
        (ca.certificate.subjectKeyId?.toString("hex").match(/../g) ?? []).join(":").toUpperCase(),
      ],
    );
  });

  const req = parsed(
    createCertificateRequest({ subject: subjectOf("v"), key: generatePrivateKey() }).pem,
  );

  it("backdates five minutes, and the end too unless the TTL is under eight hours", () => {
    const short = sign(req, ["client auth"], HOUR);
    expect(Date.parse(short.validFrom)).toBe(NOW - SIGNER_BACKDATE_MS);
    expect(Date.parse(short.validTo)).toBe(NOW + HOUR);
    const long = sign(req, ["client auth"], 8 * HOUR);
    expect(Date.parse(long.validTo)).toBe(NOW + 8 * HOUR - SIGNER_BACKDATE_MS);
  });

  it("never issues past the CA's own expiry", () => {
    const cert = sign(req, ["client auth"], 2 * YEAR);
    expect(Date.parse(cert.validTo)).toBe(Date.parse(caCert.validTo));
  });

  it("refuses as kube does when the CA has expired or a usage is unknown", () => {
    const caEnd = Date.parse(caCert.validTo);
    const refusal = (now: number, usages = ["client auth"]) => {
      const r = signCertificateRequest(req, ca, { usages, ttlMs: HOUR, now });
      return "error" in r ? r.error : undefined;
    };
    expect(refusal(caEnd + 10 * 60_000)).toBe(
      "the signer has expired: NotAfter=2031-06-01 11:00:00 +0000 UTC",
    );
    expect(refusal(caEnd + 60_000)).toBe(
      "refusing to sign a certificate that expired in the past: NotAfter=2031-06-01 11:00:00 +0000 UTC",
    );
    expect(refusal(NOW, ["client auth", "bogus", "also bogus"])).toBe(
      'unrecognized usage values: ["bogus" "also bogus"]',
    );
  });

  it.each([
    ["RSA", "rsa-2048", "sha256WithRSAEncryption"],
    ["ECDSA", "ecdsa-p256", "ecdsa-with-SHA256"],
  ] as const)("signs with an %s CA key, as Go picks the algorithm", (_n, alg, algorithm) => {
    const signer = newSelfSignedCA("other", { key: generatePrivateKey(alg), now: NOW });
    const cert = sign(req, ["client auth"], HOUR, signer);
    expect(cert.verify(new X509Certificate(signer.certPem).publicKey)).toBe(true);
    const text = execFileSync("openssl", ["x509", "-noout", "-text"], { input: cert.toString() });
    expect(text.toString()).toContain(`Signature Algorithm: ${algorithm}`);
    expect(pemBlocks(cert.toString())).toHaveLength(1);
  });
});
