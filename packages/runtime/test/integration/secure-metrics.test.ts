/**
 * Secure metrics against envtest with RBAC, as the generated operator runs them (its flags parsed
 * by managerOptionsFromArgs): HTTPS with a self-signed certificate; no token or a bad one → 401; a
 * service account token bound to no role → 403; one bound to a metrics-reader ClusterRole → 200
 * with Prometheus text, and repeated scrapes reuse the cached reviews. `--metrics-secure=false`
 * serves plain HTTP; a certificate folder is reloaded when its files change.
 */
import { X509Certificate } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { CoreV1Api, RbacAuthorizationV1Api } from "@kubernetes/client-node";
import { eventually, startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Manager, managerOptionsFromArgs } from "../../src/index.js";
import { selfSignedCertificate } from "../../src/tls/self-signed.js";
import { newManager, run } from "./helpers.js";

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function scrape(
  port: number,
  opts: { token?: string; path?: string; method?: string; body?: string; plain?: boolean } = {},
): Promise<Answer> {
  const request = opts.plain ? http.request : https.request;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: opts.path ?? "/metrics",
        method: opts.method ?? "GET",
        headers: {
          ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.body ? { "Content-Length": String(Buffer.byteLength(opts.body)) } : {}),
        },
        rejectUnauthorized: false, // self-signed, as Prometheus' insecureSkipVerify
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** One TLS handshake: the certificate presented, whether it verifies against `ca`, the ALPN pick. */
function handshake(
  port: number,
  opts: { ca?: string; alpn?: string[] } = {},
): Promise<{ fingerprint: string; authorized: boolean; alpn: string | false }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host: "127.0.0.1",
        port,
        servername: "localhost",
        ca: opts.ca,
        rejectUnauthorized: false,
        ALPNProtocols: opts.alpn,
      },
      () => {
        const cert = socket.getPeerCertificate();
        resolve({
          fingerprint: cert.fingerprint256,
          authorized: socket.authorized,
          alpn: socket.alpnProtocol ?? false,
        });
        socket.end();
      },
    );
    socket.on("error", reject);
  });
}

const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;

async function postCount(mgr: Manager): Promise<number> {
  const m = await mgr.metrics.registry.getSingleMetric("rest_client_requests_total")?.get();
  return (m?.values ?? [])
    .filter((v) => v.labels.method === "POST")
    .reduce((sum, v) => sum + v.value, 0);
}

describe("secure metrics against envtest", () => {
  let env: TestEnv;
  const ns = "metrics-test";

  /** A TokenRequest token of a new service account (`kubectl create token`). */
  async function serviceAccountToken(name: string): Promise<string> {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name } } });
    const tr = await core.createNamespacedServiceAccountToken({
      namespace: ns,
      name,
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { audiences: [] },
      },
    });
    return tr.status?.token ?? "";
  }

  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
    await env.kubeconfig
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name: ns } } });
    const rbac = env.kubeconfig.makeApiClient(RbacAuthorizationV1Api);
    // config/rbac/metrics_reader_role.yaml, bound to the "reader" service account.
    await rbac.createClusterRole({
      body: {
        metadata: { name: "metrics-reader" },
        rules: [{ nonResourceURLs: ["/metrics"], verbs: ["get"] }],
      },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: "reader-metrics" },
        roleRef: {
          apiGroup: "rbac.authorization.k8s.io",
          kind: "ClusterRole",
          name: "metrics-reader",
        },
        subjects: [{ kind: "ServiceAccount", name: "reader", namespace: ns }],
      },
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("refuses an unauthenticated scrape of the generated operator's metrics and serves an authorized one", async () => {
    // The generated main.ts: flags as config/default's manager_metrics_patch.yaml sets them.
    const flags = managerOptionsFromArgs(
      ["--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0"],
      { exitOnError: false },
    );
    expect(flags.metricsSecure).toBe(true);
    const mgr = newManager(env, flags);
    const m = run(mgr);
    try {
      await mgr.elected;
      const port = mgr.ports.metrics as number;

      const anonymous = await scrape(port);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toBe("Unauthorized\n");
      expect(anonymous.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect((await scrape(port, { token: "not-a-token" })).status).toBe(401);

      const nobody = await scrape(port, { token: await serviceAccountToken("nobody") });
      expect(nobody.status).toBe(403);
      expect(nobody.body).toBe(
        `Authorization denied for user system:serviceaccount:${ns}:nobody\n`,
      );

      const reader = await serviceAccountToken("reader");
      const ok = await scrape(port, { token: reader });
      expect(ok.status).toBe(200);
      expect(ok.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(ok.body).toContain("# TYPE rest_client_requests_total counter");
      expect(ok.body).toContain("process_cpu_user_seconds_total");

      // The admin token of envtest (what `opgen dev` prints how to use) is authorized too.
      expect((await scrape(port, { token: env.adminToken })).status).toBe(200);

      // Decisions are cached: more scrapes with a known token send no review.
      const before = await postCount(mgr);
      for (let i = 0; i < 3; i++) expect((await scrape(port, { token: reader })).status).toBe(200);
      expect((await scrape(port, { token: "not-a-token" })).status).toBe(401);
      expect(await postCount(mgr)).toBe(before);

      // Only GET/HEAD /metrics is served, and no body is read.
      expect((await scrape(port, { path: "/debug/pprof", token: reader })).status).toBe(404);
      expect((await scrape(port, { method: "POST", token: reader })).status).toBe(405);
      expect((await scrape(port, { token: reader, body: "x".repeat(1024) })).status).toBe(413);

      // Probes stay plain HTTP on their own port.
      const probe = await scrape(mgr.ports.healthProbe as number, {
        path: "/healthz",
        plain: true,
      });
      expect(probe.status).toBe(200);

      // TLS: HTTP/1.1 only by default, even when the client offers h2.
      expect((await handshake(port, { alpn: ["h2", "http/1.1"] })).alpn).toBe("http/1.1");
    } finally {
      await m.stop();
    }
  });

  it("serves plain HTTP without authentication with --metrics-secure=false", async () => {
    const mgr = newManager(
      env,
      managerOptionsFromArgs(["--metrics-bind-address=127.0.0.1:0", "--metrics-secure=false"], {
        exitOnError: false,
      }),
    );
    const m = run(mgr);
    try {
      await mgr.elected;
      const res = await scrape(mgr.ports.metrics as number, { plain: true });
      expect(res.status).toBe(200);
      expect(res.body).toContain("# TYPE rest_client_requests_total counter");
    } finally {
      await m.stop();
    }
  });

  it("serves the certificate of --metrics-cert-path and the new one after the files change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "metrics-certs-"));
    const put = (name: string, text: string) => {
      // Written aside and renamed, as a Secret volume swaps its files.
      writeFileSync(join(dir, `.${name}.tmp`), text);
      renameSync(join(dir, `.${name}.tmp`), join(dir, name));
    };
    const first = selfSignedCertificate();
    put("cert.pem", first.cert);
    put("key.pem", first.key);
    const mgr = newManager(
      env,
      managerOptionsFromArgs(
        [
          "--metrics-bind-address=127.0.0.1:0",
          `--metrics-cert-path=${dir}`,
          "--metrics-cert-name=cert.pem",
          "--metrics-cert-key=key.pem",
        ],
        { exitOnError: false },
      ),
    );
    const m = run(mgr);
    try {
      await mgr.elected;
      const port = mgr.ports.metrics as number;
      const before = await handshake(port, { ca: first.ca });
      expect(before.fingerprint).toBe(fingerprintOf(first.cert));
      expect(before.authorized).toBe(true); // valid for localhost, signed by its CA

      const second = selfSignedCertificate();
      put("key.pem", second.key);
      put("cert.pem", second.cert);
      await eventually(
        async () => expect((await handshake(port)).fingerprint).toBe(fingerprintOf(second.cert)),
        { timeout: 25_000 },
      );
      expect((await handshake(port, { ca: second.ca })).authorized).toBe(true);
      // Serving goes on with the new certificate.
      expect((await scrape(port, { token: env.adminToken })).status).toBe(200);
    } finally {
      await m.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails start with one line when the certificate folder holds no certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "metrics-certs-"));
    try {
      const mgr = newManager(env, {
        metricsBindAddress: "127.0.0.1:0",
        metricsSecure: true,
        metricsCertPath: dir,
      });
      await expect(run(mgr).done).rejects.toThrow(
        /^cannot read the metrics certificate: ENOENT.*tls\.crt.*; check --metrics-cert-path/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
