/**
 * The certificates opgen makes for itself (`@opgen/apimachinery/certs`), checked by parsers that
 * are not ours: Node's X509Certificate and TLS stack (OpenSSL inside) for names, validity,
 * chains and handshakes, and the openssl CLI for how the extensions read.
 */
import { execFileSync } from "node:child_process";
import { createPublicKey, X509Certificate } from "node:crypto";
import type { AddressInfo } from "node:net";
import { checkServerIdentity, connect, createServer } from "node:tls";
import { describe, expect, it } from "vitest";
import {
  generatePrivateKey,
  issueCertificate,
  newSelfSignedCA,
  parseCertificate,
  pemBlocks,
  SELF_SIGNED_BACKDATE_MS,
  SELF_SIGNED_TTL_MS,
  selfSignedCertKey,
} from "../src/certs/index.js";

/** The named extensions as `openssl x509 -ext` prints them, one trimmed line each. */
function extensions(pem: string, names: string): string[] {
  const out = execFileSync("openssl", ["x509", "-noout", "-ext", names], { input: pem });
  return out
    .toString()
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

const NOW = Date.parse("2030-06-01T12:00:00Z");

describe("a self-signed CA", () => {
  it("is a CA for cert signing with a key id, backdated an hour and valid a year", () => {
    const ca = newSelfSignedCA("test-ca", { now: NOW, organizations: ["opgen"] });
    const x = new X509Certificate(ca.certPem);
    expect(x.ca).toBe(true);
    expect(x.subject).toBe("O=opgen\nCN=test-ca");
    expect(x.issuer).toBe(x.subject);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(Date.parse(x.validFrom)).toBe(NOW - SELF_SIGNED_BACKDATE_MS);
    expect(Date.parse(x.validTo)).toBe(NOW - SELF_SIGNED_BACKDATE_MS + SELF_SIGNED_TTL_MS);
    const ext = extensions(ca.certPem, "keyUsage,basicConstraints,subjectKeyIdentifier");
    expect(ext.slice(0, 4)).toEqual([
      "X509v3 Key Usage: critical",
      "Digital Signature, Certificate Sign",
      "X509v3 Basic Constraints: critical",
      "CA:TRUE",
    ]);
    expect(ext[5]).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(ca.certificate.subjectKeyId?.toString("hex").toUpperCase()).toBe(
      ext[5]?.replaceAll(":", ""),
    );
  });

  it("adds key encipherment for an RSA key only, as certutil does", () => {
    const ca = newSelfSignedCA("rsa-ca", { key: generatePrivateKey("rsa-2048") });
    expect(extensions(ca.certPem, "keyUsage")[1]).toBe(
      "Digital Signature, Key Encipherment, Certificate Sign",
    );
    expect(new X509Certificate(ca.certPem).publicKey.asymmetricKeyType).toBe("rsa");
  });
});

describe("certificates a CA issues", () => {
  const ca = newSelfSignedCA("issuer", { now: NOW });

  it("serve the hosts given, IP literals as IP SANs and names as DNS SANs", () => {
    const leaf = issueCertificate(ca, "serving", {
      commonName: "kube-apiserver",
      hosts: ["localhost", "127.0.0.1", "::1", "svc.example", "localhost", ""],
      now: NOW,
    });
    const x = new X509Certificate(leaf.certPem);
    expect(x.subjectAltName).toBe(
      "DNS:localhost, DNS:svc.example, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1",
    );
    expect(x.checkHost("svc.example")).toBe("svc.example");
    expect(x.checkIP("::1")).toBe("::1");
    expect(x.checkIP("10.0.0.1")).toBeUndefined();
    expect(x.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
    expect(x.ca).toBe(false);
    expect(x.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(x.verify(createPublicKey(ca.key))).toBe(true);
    expect(Date.parse(x.validFrom)).toBe(NOW - SELF_SIGNED_BACKDATE_MS);
    expect(extensions(leaf.certPem, "keyUsage,basicConstraints,authorityKeyIdentifier")).toEqual([
      "X509v3 Key Usage: critical",
      "Digital Signature",
      "X509v3 Basic Constraints: critical",
      "CA:FALSE",
      "X509v3 Authority Key Identifier:",
      (ca.certificate.subjectKeyId?.toString("hex").match(/../g) ?? []).join(":").toUpperCase(),
    ]);
  });

  it("name a client by its common name and organizations", () => {
    const leaf = issueCertificate(ca, "client", {
      commonName: "alice",
      organizations: ["devs", "qa"],
    });
    const x = new X509Certificate(leaf.certPem);
    // One RDN for the organizations, a DER SET ordered by encoding (the shorter one first).
    expect(x.subject).toBe("O=qa + O=devs\nCN=alice");
    expect(x.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(x.subjectAltName).toBeUndefined();
    expect(parseCertificate(x.raw).subject).toEqual([
      { oid: "2.5.4.10", value: "qa" },
      { oid: "2.5.4.10", value: "devs" },
      { oid: "2.5.4.3", value: "alice" },
    ]);
  });

  it("write a name that is not PrintableString as UTF8String", () => {
    const leaf = issueCertificate(ca, "client", { commonName: "zoë & co" });
    expect(new X509Certificate(leaf.certPem).subject).toBe("CN=zoë & co");
    expect(parseCertificate(new X509Certificate(leaf.certPem).raw).subject).toEqual([
      { oid: "2.5.4.3", value: "zoë & co" },
    ]);
  });

  it("carry random positive serials of at most 128 bits", () => {
    const serials = Array.from({ length: 20 }, () =>
      BigInt(
        `0x${new X509Certificate(issueCertificate(ca, "client", { commonName: "s" }).certPem).serialNumber}`,
      ),
    );
    expect(new Set(serials).size).toBe(20);
    for (const s of serials) {
      expect(s > 0n).toBe(true);
      expect(s < 2n ** 128n).toBe(true);
    }
  });

  it("encode validity past 2049 as GeneralizedTime, which Node and OpenSSL read back", () => {
    const late = Date.parse("2049-12-31T23:30:00Z");
    const leaf = issueCertificate(ca, "client", { commonName: "late", now: late });
    const x = new X509Certificate(leaf.certPem);
    expect(Date.parse(x.validFrom)).toBe(late - SELF_SIGNED_BACKDATE_MS);
    expect(Date.parse(x.validTo)).toBe(late - SELF_SIGNED_BACKDATE_MS + SELF_SIGNED_TTL_MS);
  });
});

describe("certutil.GenerateSelfSignedCertKey", () => {
  it("returns the serving certificate and its CA, named after the host and the time", () => {
    const pair = selfSignedCertKey("localhost", ["127.0.0.1"], ["metrics.local"], { now: NOW });
    const blocks = pemBlocks(pair.certPem);
    expect(blocks.map((b) => b.type)).toEqual(["CERTIFICATE", "CERTIFICATE"]);
    const [leaf, ca] = blocks.map((b) => new X509Certificate(b.bytes));
    const stamp = NOW / 1000;
    expect(leaf?.subject).toBe(`CN=localhost@${stamp}`);
    expect(ca?.subject).toBe(`CN=localhost-ca@${stamp}`);
    expect(ca?.toString()).toBe(new X509Certificate(pair.caPem).toString());
    expect(leaf?.subjectAltName).toBe("DNS:localhost, DNS:metrics.local, IP Address:127.0.0.1");
    expect(pair.keyPem).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
  });

  it("puts an IP host in the IP SANs", () => {
    const pair = selfSignedCertKey("10.1.2.3");
    expect(new X509Certificate(pair.certPem).subjectAltName).toBe("IP Address:10.1.2.3");
  });
});

/** Resolves with whether a TLS client trusting `ca` accepted the server, and what it presented. */
async function handshake(
  server: { cert: string; key: string; ca?: string; requestCert?: boolean },
  client: { ca: string; host: string; servername?: string; cert?: string; key?: string },
): Promise<{ authorized: boolean; error?: string; peer?: string }> {
  let peer: string | undefined;
  const srv = createServer({ ...server, rejectUnauthorized: false }, (socket) => {
    const c = socket.getPeerX509Certificate();
    peer = socket.authorized && c ? c.subject : undefined;
    socket.end();
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as AddressInfo).port;
  try {
    return await new Promise((resolve) => {
      const socket = connect({
        host: "127.0.0.1",
        port,
        ca: client.ca,
        ...(client.servername ? { servername: client.servername } : {}),
        ...(client.cert ? { cert: client.cert, key: client.key } : {}),
        // Node's own identity check, for the host the test names rather than the address dialled.
        checkServerIdentity: (_host, cert) => checkServerIdentity(client.host, cert),
      });
      socket.once("secureConnect", () => {
        socket.once("close", () => resolve({ authorized: socket.authorized, peer }));
        socket.resume();
      });
      socket.once("error", (e) => resolve({ authorized: false, error: e.message }));
    });
  } finally {
    srv.close();
  }
}

describe("over TLS", () => {
  const ca = newSelfSignedCA("tls-ca");
  const serving = issueCertificate(ca, "serving", {
    commonName: "server",
    hosts: ["localhost", "127.0.0.1"],
  });

  it("a client trusting the CA accepts the serving certificate for its names and addresses", async () => {
    for (const host of ["localhost", "127.0.0.1"]) {
      const r = await handshake(
        { cert: serving.certPem, key: serving.keyPem },
        { ca: ca.certPem, host },
      );
      expect(r).toEqual({ authorized: true, peer: undefined });
    }
    const wrongName = await handshake(
      { cert: serving.certPem, key: serving.keyPem },
      { ca: ca.certPem, host: "elsewhere.example" },
    );
    expect(wrongName.error).toMatch(/^Hostname\/IP does not match certificate's altnames/);
  });

  it("a client trusting another CA refuses it", async () => {
    const other = newSelfSignedCA("other-ca");
    const r = await handshake(
      { cert: serving.certPem, key: serving.keyPem },
      { ca: other.certPem, host: "localhost" },
    );
    expect(r.authorized).toBe(false);
    expect(r.error).toMatch(/unable to verify the first certificate|self[- ]signed/);
  });

  it("a server requesting client certificates verifies one the CA issued (mutual TLS)", async () => {
    const client = issueCertificate(ca, "client", { commonName: "alice", organizations: ["devs"] });
    const r = await handshake(
      { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true },
      { ca: ca.certPem, host: "localhost", cert: client.certPem, key: client.keyPem },
    );
    expect(r).toEqual({ authorized: true, peer: "O=devs\nCN=alice" });
  });
});
