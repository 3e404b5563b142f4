/**
 * A CertificateSigningRequest's life as on a 1.32 cluster, driven by the real kubectl: kube's
 * validation of the request (422 texts), `kubectl certificate approve|deny` through the approval
 * subresource with the signers permission checked (403 texts), kube-controller-manager's signer
 * issuing from the cluster CA (or marking the request Failed), and the issued certificate
 * authenticating its holder through the client-certificate authenticator.
 */
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userOfCertificate } from "../src/auth/x509.js";
import { certificateTtl, DEFAULT_CERT_TTL_MS } from "../src/controllers/csr-signer.js";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { validateSignerName } from "../src/registry/certificates/csr-validation.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
let dir: string;
let ca: X509Certificate;
beforeAll(async () => {
  env = await startTestEnv({ auth: "rbac" });
  dir = mkdtempSync(join(tmpdir(), "csr-lifecycle-"));
  ca = new X509Certificate(Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64"));
});
afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openssl(args: string[]): Promise<string> {
  return String((await execa("openssl", args, { cwd: dir })).stdout);
}

/** A fresh key (RSA 2048, or EC P-256) and its PEM request for `subject`, made by openssl. */
async function keyAndRequest(
  name: string,
  subject: string,
  opts: { ec?: boolean; sans?: string } = {},
): Promise<{ keyPath: string; pem: string }> {
  const keyPath = join(dir, `${name}.key`);
  if (opts.ec)
    await openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyPath]);
  else await openssl(["genrsa", "-out", keyPath, "2048"]);
  const extra = opts.sans ? ["-addext", `subjectAltName=${opts.sans}`] : [];
  await openssl([
    "req",
    "-new",
    "-key",
    keyPath,
    "-subj",
    subject,
    ...extra,
    "-out",
    `${name}.csr`,
  ]);
  return { keyPath, pem: readFileSync(join(dir, `${name}.csr`), "utf8") };
}

function manifest(name: string, pem: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    metadata: { name },
    spec: {
      request: Buffer.from(pem).toString("base64"),
      signerName: "kubernetes.io/kube-apiserver-client",
      usages: ["client auth"],
      ...spec,
    },
  });
}

async function create(name: string, pem: string, spec: Record<string, unknown> = {}) {
  const r = await kubectl(env, ["create", "-f", "-"], manifest(name, pem, spec));
  expect(r.stderr).toBe("");
  expect(r.stdout.trim()).toBe(`certificatesigningrequest.certificates.k8s.io/${name} created`);
}

async function approve(name: string) {
  const r = await kubectl(env, ["certificate", "approve", name]);
  expect(r.stderr).toBe("");
  expect(r.stdout.trim()).toBe(`certificatesigningrequest.certificates.k8s.io/${name} approved`);
}

// biome-ignore lint/suspicious/noExplicitAny: a CSR as kubectl prints it
async function getCsr(name: string): Promise<any> {
  const r = await kubectl(env, ["get", "csr", name, "-o", "json", "--show-managed-fields"]);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

/** Waits for the signer's answer: a certificate or a Failed condition. */
function signed(name: string) {
  return eventually(async () => {
    const csr = await getCsr(name);
    const failed = (csr.status?.conditions ?? []).some(
      (c: { type: string }) => c.type === "Failed",
    );
    if (!csr.status?.certificate && !failed)
      throw new Error(`${name} has no answer from its signer`);
    return csr;
  });
}

async function conditionColumn(name: string): Promise<string> {
  const r = await kubectl(env, ["get", "csr", name, "--no-headers"]);
  return r.stdout.trim().split(/\s+/).at(-1)!;
}

/** A kubeconfig that authenticates with a client certificate and key only (no token). */
function certificateKubeconfig(name: string, certPem: string, keyPath: string): string {
  const cluster = env.kubeconfig.getCurrentCluster()!;
  const path = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "envtest",
          cluster: { server: env.url, "certificate-authority-data": cluster.caData },
        },
      ],
      users: [
        {
          name,
          user: {
            "client-certificate-data": Buffer.from(certPem).toString("base64"),
            "client-key-data": readFileSync(keyPath).toString("base64"),
          },
        },
      ],
      contexts: [{ name: "envtest", context: { cluster: "envtest", user: name } }],
      "current-context": "envtest",
    }),
  );
  return path;
}

async function whoami(kubeconfig: string, extra: string[] = []) {
  const r = await execa(
    "kubectl",
    ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...extra, "auth", "whoami"],
    { reject: false, env: { KUBECTL_VERSION_CHECK: "false" } },
  );
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe("CertificateSigningRequest validation", () => {
  it("refuses what kube refuses, with its field paths and texts", async () => {
    const r = await kubectl(
      env,
      ["create", "-f", "-"],
      manifest("garbage", "not a csr", {
        signerName: "example",
        usages: ["client auth", "bogus", "client auth"],
        expirationSeconds: 599,
      }),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([
      'The CertificateSigningRequest "garbage" is invalid: ',
      "* spec.request: Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x73, 0x72}: PEM block type must be CERTIFICATE REQUEST",
      '* spec.usages[1]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      '* spec.usages[2]: Duplicate value: "client auth"',
      "* spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      "* spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)",
    ]);
    const legacy = await kubectl(
      env,
      ["create", "-f", "-"],
      manifest("legacy", "x", { signerName: "kubernetes.io/legacy-unknown", usages: ["any"] }),
    );
    expect(legacy.stderr).toContain(
      '* spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    );
  });

  it("accepts any name and shows a missing request as Go's nil slice", async () => {
    const { pem } = await keyAndRequest("odd-name", "/CN=odd");
    await create("system:node:N1_odd", pem, { signerName: "example.com/signer" });
    const body = JSON.parse(manifest("no-request", "", { signerName: "example.com/signer" }));
    delete body.spec.request;
    const r = await kubectl(env, ["create", "-f", "-"], JSON.stringify(body));
    expect(r.stderr.trim()).toBe(
      'The CertificateSigningRequest "no-request" is invalid: spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST',
    );
  });

  it("verifies the request's signature", async () => {
    const { pem } = await keyAndRequest("tampered", "/CN=tampered");
    const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
    // The signature is the DER's last bytes.
    der[der.length - 1]! ^= 0xff;
    const lines = der
      .toString("base64")
      .match(/.{1,64}/g)!
      .join("\n");
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${lines}\n-----END CERTIFICATE REQUEST-----\n`;
    const r = await kubectl(env, ["create", "-f", "-"], manifest("tampered", tampered));
    expect(r.stderr.trim()).toMatch(
      /^The CertificateSigningRequest "tampered" is invalid: spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, [0-9a-fx, ]+\}: crypto\/rsa: verification error$/,
    );
    const good = await kubectl(env, ["create", "-f", "-"], manifest("untampered", pem));
    expect(good.stderr).toBe("");
  });

  it("refuses a kube-apiserver-client request for system:masters (CertificateSubjectRestriction)", async () => {
    const { pem } = await keyAndRequest("masters", "/CN=root/O=system:masters");
    const r = await kubectl(env, ["create", "-f", "-"], manifest("masters", pem));
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": certificatesigningrequests.certificates.k8s.io "masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    );
  });

  it("lets the status subresource set a valid certificate once and never the approval", async () => {
    const { pem } = await keyAndRequest("status-rules", "/CN=status-rules");
    await create("status-rules", pem, { signerName: "example.com/signer" });
    const patch = (status: unknown) =>
      kubectl(env, [
        "patch",
        "csr",
        "status-rules",
        "--subresource=status",
        "--type=merge",
        "-p",
        JSON.stringify({ status }),
      ]);
    const junk = await patch({ certificate: Buffer.from("junk").toString("base64") });
    expect(junk.stderr.trim()).toBe(
      'The CertificateSigningRequest "status-rules" is invalid: status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    );
    const approval = await patch({ conditions: [{ type: "Approved", status: "True" }] });
    expect(approval.stderr.trim()).toBe(
      'The CertificateSigningRequest "status-rules" is invalid: status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    );
    const caPem = Buffer.from(ca.toString()).toString("base64");
    expect((await patch({ certificate: caPem })).stderr).toBe("");
    const again = await patch({
      certificate: Buffer.from(`${ca.toString()}${ca.toString()}`).toString("base64"),
    });
    expect(again.stderr.trim()).toBe(
      'The CertificateSigningRequest "status-rules" is invalid: status.certificate: Forbidden: updates may not modify existing certificate content',
    );
    // The refused patches changed nothing.
    const csr = await getCsr("status-rules");
    expect(csr.status.certificate).toBe(caPem);
    expect(csr.status.conditions).toBeUndefined();
  });

  it("keeps Approved and Denied exclusive on the approval subresource", async () => {
    const { pem } = await keyAndRequest("exclusive", "/CN=exclusive");
    await create("exclusive", pem, { signerName: "example.com/signer" });
    const denied = await kubectl(env, ["certificate", "deny", "exclusive"]);
    expect(denied.stdout.trim()).toBe(
      "certificatesigningrequest.certificates.k8s.io/exclusive denied",
    );
    expect(await conditionColumn("exclusive")).toBe("Denied");
    const csr = await getCsr("exclusive");
    csr.status.conditions.push({ type: "Approved", status: "True", reason: "Both" });
    const r = await api(
      env,
      "PUT",
      "/apis/certificates.k8s.io/v1/certificatesigningrequests/exclusive/approval",
      csr,
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CertificateSigningRequest.certificates.k8s.io "exclusive" is invalid: status.conditions[1].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive',
    );
    // kubectl refuses client-side, as against a cluster.
    const again = await kubectl(env, ["certificate", "approve", "exclusive"]);
    expect(again.stderr.trim()).toBe(
      'error: certificate signing request "exclusive" is already Denied',
    );
  });
});

describe("listing", () => {
  it("selects requests by spec.signerName, as kube's field selector does", async () => {
    const { pem } = await keyAndRequest("selected", "/CN=selected");
    await create("selected", pem, { signerName: "selector.example.com/only" });
    const r = await kubectl(env, [
      "get",
      "csr",
      "--field-selector",
      "spec.signerName=selector.example.com/only",
      "-o",
      "name",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("certificatesigningrequest.certificates.k8s.io/selected");
  });
});

describe("the approval subresource", () => {
  it("is listed by discovery with get, patch and update", async () => {
    const r = await api(env, "GET", "/apis/certificates.k8s.io/v1");
    const subs = r.body.resources
      .filter((x: { name: string }) => x.name.startsWith("certificatesigningrequests/"))
      .map((x: { name: string; verbs: string[] }) => [x.name, x.verbs]);
    expect(subs).toEqual([
      ["certificatesigningrequests/approval", ["get", "patch", "update"]],
      ["certificatesigningrequests/status", ["get", "patch", "update"]],
    ]);
  });

  it("needs approve on the signer for a non-admin user, and sign to set a certificate", async () => {
    const { pem } = await keyAndRequest("bob-approves", "/CN=carol");
    await create("bob-approves", pem, { signerName: "example.com/signer" });
    const rbac = (objects: unknown[]) =>
      kubectl(
        env,
        ["apply", "-f", "-"],
        JSON.stringify({ apiVersion: "v1", kind: "List", items: objects }),
      );
    const role = (name: string, rules: unknown[]) => ({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name },
      rules,
    });
    const bind = (name: string) => ({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "bob" }],
    });
    const csrRules = [
      {
        apiGroups: ["certificates.k8s.io"],
        resources: ["certificatesigningrequests"],
        verbs: ["get", "list"],
      },
      {
        apiGroups: ["certificates.k8s.io"],
        resources: ["certificatesigningrequests/approval", "certificatesigningrequests/status"],
        verbs: ["get", "update", "patch"],
      },
    ];
    expect((await rbac([role("bob-csrs", csrRules), bind("bob-csrs")])).stderr).toBe("");

    const denied = await kubectl(env, ["certificate", "approve", "bob-approves", "--as=bob"]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe(
      'Error from server (Forbidden): certificatesigningrequests.certificates.k8s.io "bob-approves" is forbidden: user not permitted to approve requests with signerName "example.com/signer"',
    );
    const sign = await kubectl(env, [
      "patch",
      "csr",
      "bob-approves",
      "--subresource=status",
      "--type=merge",
      "--as=bob",
      "-p",
      JSON.stringify({ status: { certificate: Buffer.from(ca.toString()).toString("base64") } }),
    ]);
    expect(sign.stderr.trim()).toBe(
      'Error from server (Forbidden): certificatesigningrequests.certificates.k8s.io "bob-approves" is forbidden: user not permitted to sign requests with signerName "example.com/signer"',
    );

    // `<domain>/*` grants every signer of the domain.
    const signerRules = [
      {
        apiGroups: ["certificates.k8s.io"],
        resources: ["signers"],
        resourceNames: ["example.com/*"],
        verbs: ["approve"],
      },
    ];
    expect((await rbac([role("bob-signers", signerRules), bind("bob-signers")])).stderr).toBe("");
    const approved = await kubectl(env, ["certificate", "approve", "bob-approves", "--as=bob"]);
    expect(approved.stderr).toBe("");
    expect(approved.stdout.trim()).toBe(
      "certificatesigningrequest.certificates.k8s.io/bob-approves approved",
    );
    const csr = await getCsr("bob-approves");
    expect(csr.status.conditions).toEqual([
      {
        type: "Approved",
        status: "True",
        reason: "KubectlApprove",
        message: "This CSR was approved by kubectl certificate approve.",
        lastUpdateTime: expect.stringMatching(/Z$/),
        lastTransitionTime: expect.stringMatching(/Z$/),
      },
    ]);
    // No built-in signer serves example.com: approved, never issued.
    expect(csr.status.certificate).toBeUndefined();
  });
});

describe("kube-controller-manager's signer", () => {
  it("issues an approved kube-apiserver-client request from the cluster CA, usable as a client certificate", async () => {
    const { keyPath, pem } = await keyAndRequest("alice", "/CN=alice/O=devs/O=qa");
    await create("alice", pem, { expirationSeconds: 3600 });
    expect(await conditionColumn("alice")).toBe("Pending");
    await approve("alice");
    const csr = await signed("alice");
    expect(await conditionColumn("alice")).toBe("Approved,Issued");

    const certPem = Buffer.from(csr.status.certificate, "base64").toString();
    const cert = new X509Certificate(certPem);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    // Go writes the request's subject back in pkix.Name's order, both organizations in one RDN
    // (a DER SET, so ordered by encoding: the shorter one first).
    expect(cert.subject).toBe("O=qa + O=devs\nCN=alice");
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(cert.ca).toBe(false);
    // Backdated five minutes; a TTL under eight hours is not shortened at the end.
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(lifetime).toBe(65 * 60_000);

    const managers = csr.metadata.managedFields.map(
      (e: { manager: string; subresource?: string; fieldsV1: Record<string, unknown> }) => [
        e.manager,
        e.subresource ?? "",
        Object.keys((e.fieldsV1["f:status"] as Record<string, unknown>) ?? {}),
      ],
    );
    expect(managers).toContainEqual(["kubectl", "approval", ["f:conditions"]]);
    expect(managers).toContainEqual(["kube-controller-manager", "status", ["f:certificate"]]);

    const kubeconfig = certificateKubeconfig("alice", certPem, keyPath);
    const me = await whoami(kubeconfig);
    expect(me.stderr).toBe("");
    const rows = me.stdout.split("\n").map((l) => l.trim().split(/\s{2,}/));
    expect(rows[1]).toEqual(["Username", "alice"]);
    // The organizations in the certificate's order.
    expect(rows[2]).toEqual(["Groups", "[qa devs system:authenticated]"]);
    // A certificate and a token: kube-apiserver tries the certificate first.
    const both = await whoami(kubeconfig, ["--token", env.adminToken]);
    expect(both.stdout.split("\n")[1]).toMatch(/^Username\s+alice$/);
  });

  it("issues kubelet-serving certificates for EC keys with their SANs, for the signing duration", async () => {
    const { pem } = await keyAndRequest("node-serving", "/O=system:nodes/CN=system:node:n1", {
      ec: true,
      sans: "DNS:n1.example.com,IP:10.0.0.1",
    });
    await create("node-serving", pem, {
      signerName: "kubernetes.io/kubelet-serving",
      usages: ["digital signature", "server auth"],
    });
    await approve("node-serving");
    const csr = await signed("node-serving");
    const cert = new X509Certificate(Buffer.from(csr.status.certificate, "base64"));
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe("DNS:n1.example.com, IP Address:10.0.0.1");
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
    expect(cert.publicKey.asymmetricKeyType).toBe("ec");
    writeFileSync(join(dir, "node-serving.crt"), cert.toString());
    const keyUsage = await openssl([
      "x509",
      "-noout",
      "-ext",
      "keyUsage",
      "-in",
      "node-serving.crt",
    ]);
    expect(keyUsage.split("\n").map((l) => l.trim())).toEqual([
      "X509v3 Key Usage: critical",
      "Digital Signature",
    ]);
    // The default --cluster-signing-duration (a year), never past the CA's own expiry.
    expect(Date.parse(cert.validTo)).toBeLessThanOrEqual(Date.parse(ca.validTo));
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now() + 364 * 24 * 3600_000);
  });

  it("marks a request its signer refuses Failed, as kube writes it", async () => {
    const node = await keyAndRequest("node-client", "/O=system:nodes/CN=system:node:n2", {
      sans: "DNS:n2.example.com",
    });
    await create("node-client", node.pem, {
      signerName: "kubernetes.io/kube-apiserver-client-kubelet",
      usages: ["digital signature", "client auth"],
    });
    const server = await keyAndRequest("server-usage", "/CN=dave");
    await create("server-usage", server.pem, { usages: ["server auth"] });
    for (const [name, message] of [
      ["node-client", "DNS subjectAltNames are not allowed"],
      ["server-usage", "invalid usage for client certificate: server auth"],
    ] as const) {
      await approve(name);
      const csr = await signed(name);
      expect(csr.status.certificate).toBeUndefined();
      expect(csr.status.conditions[1]).toEqual({
        type: "Failed",
        status: "True",
        reason: "SignerValidationFailure",
        message,
        lastUpdateTime: expect.stringMatching(/Z$/),
        lastTransitionTime: expect.stringMatching(/Z$/),
      });
      expect(await conditionColumn(name)).toBe("Approved,Failed");
    }
  });
});

describe("client-certificate authentication", () => {
  it("authenticates no one with a certificate the cluster CA did not issue", async () => {
    const keyPath = join(dir, "mallory.key");
    await openssl([
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyPath,
      "-subj",
      "/CN=mallory/O=system:masters",
      "-days",
      "1",
      "-out",
      "mallory.crt",
    ]);
    const kubeconfig = certificateKubeconfig(
      "mallory",
      readFileSync(join(dir, "mallory.crt"), "utf8"),
      keyPath,
    );
    const r = await whoami(kubeconfig);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe("error: You must be logged in to the server (Unauthorized)");
    // Tokens keep working, with or without a certificate.
    expect((await whoami(kubeconfig, ["--token", env.adminToken])).stdout.split("\n")[1]).toMatch(
      /^Username\s+admin$/,
    );
    expect((await whoami(env.kubeconfigPath)).stdout.split("\n")[1]).toMatch(/^Username\s+admin$/);
  });
});

describe("the rules behind them", () => {
  it("validates signer names as ValidateSignerName", () => {
    const detail = (name: string) =>
      validateSignerName("spec.signerName", name).map((e) => [e.type, e.value, e.detail]);
    expect(detail("example.com/signer")).toEqual([]);
    expect(detail("")).toEqual([["FieldValueRequired", undefined, ""]]);
    expect(detail("example.com/a/b")).toEqual([
      [
        "FieldValueInvalid",
        "example.com/a/b",
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ],
    ]);
    expect(detail("example/signer")).toEqual([
      [
        "FieldValueInvalid",
        "example",
        "should be a domain with at least two segments separated by dots",
      ],
    ]);
    const [label] = detail("Example.com/signer");
    expect(label?.[1]).toBe("Example.com");
    expect(label?.[2]).toMatch(
      /^validating label "Example": a lowercase RFC 1123 label must consist of/,
    );
    const [path] = detail("example.com/Signer");
    expect(path?.[1]).toBe("Signer");
    expect(path?.[2]).toMatch(
      /^validating label "Signer": a lowercase RFC 1123 subdomain must consist of/,
    );
  });

  it("clamps the requested duration to [10m, --cluster-signing-duration]", () => {
    expect(DEFAULT_CERT_TTL_MS).toBe(8760 * 3600_000);
    expect(certificateTtl(undefined, DEFAULT_CERT_TTL_MS)).toBe(DEFAULT_CERT_TTL_MS);
    expect(certificateTtl(3600, DEFAULT_CERT_TTL_MS)).toBe(3600_000);
    expect(certificateTtl(600, DEFAULT_CERT_TTL_MS)).toBe(600_000);
    expect(certificateTtl(2 * 8760 * 3600, DEFAULT_CERT_TTL_MS)).toBe(DEFAULT_CERT_TTL_MS);
    expect(certificateTtl(60, DEFAULT_CERT_TTL_MS)).toBe(600_000);
  });

  it("reads the user, groups, uid and credential id of a client certificate", async () => {
    const make = async (name: string, subject: string, eku = "clientAuth") => {
      // openssl learns kube's uid attribute type from a config's oid_section.
      const config = join(dir, "uid.cnf");
      writeFileSync(
        config,
        "oid_section = oids\n[oids]\nk8sUID = 1.3.6.1.4.1.57683.2\n[req]\ndistinguished_name = dn\n[dn]\n",
      );
      await openssl([
        "req",
        "-config",
        config,
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        `${name}.key`,
        "-subj",
        subject,
        "-addext",
        `extendedKeyUsage=${eku}`,
        "-days",
        "1",
        "-out",
        `${name}.crt`,
      ]);
      return new X509Certificate(readFileSync(join(dir, `${name}.crt`)));
    };
    const erin = await make("erin", "/CN=erin/O=g1/O=g2/k8sUID=erin-uid");
    expect(userOfCertificate(erin)).toEqual({
      name: "erin",
      uid: "erin-uid",
      groups: ["g1", "g2", "system:authenticated"],
      extra: {
        "authentication.kubernetes.io/credential-id": [
          `X509SHA256=${erin.fingerprint256.replaceAll(":", "").toLowerCase()}`,
        ],
      },
    });
    // Not for client auth, no common name, two uids: no one.
    expect(userOfCertificate(await make("server", "/CN=server", "serverAuth"))).toBeUndefined();
    expect(userOfCertificate(await make("nameless", "/O=g1"))).toBeUndefined();
    expect(userOfCertificate(await make("twice", "/CN=twice/k8sUID=a/k8sUID=b"))).toBeUndefined();
  });
});
