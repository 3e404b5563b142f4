/**
 * The secure-metrics filter with a scripted API server: the reviews it sends (TokenReview of the
 * bearer token, SubjectAccessReview of `get /metrics`), controller-runtime's answers, the caches
 * (one review per token and per decision while fresh, shared by concurrent scrapes), the bound on
 * reviews in flight (429 instead of an endless queue), and no token in any log line; the
 * self-signed certificate and HTTP/2 on request.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import http from "node:http";
import http2 from "node:http2";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import type { RestRequest } from "../../src/internal/rest/http.js";
import { createLogger } from "../../src/log/logger.js";
import {
  type AuthFilterOptions,
  bearerToken,
  withAuthenticationAndAuthorization,
} from "../../src/metrics/authn-authz.js";
import { ExpiringCache } from "../../src/metrics/expiring-cache.js";
import { type MetricsServer, startMetricsServer } from "../../src/metrics/server.js";
import { selfSignedCertificate } from "../../src/tls/self-signed.js";

type Answer = unknown | Error;

/** An API server that answers reviews through `answer` and may hold them until released. */
class FakeApi {
  calls: RestRequest[] = [];
  private held: Array<() => void> = [];
  hold = false;
  constructor(private readonly answer: (req: RestRequest) => Answer) {}

  async request<T>(req: RestRequest): Promise<T> {
    this.calls.push(req);
    if (this.hold) await new Promise<void>((r) => this.held.push(r));
    const a = this.answer(req);
    if (a instanceof Error) throw a;
    return a as T;
  }

  release(): void {
    this.hold = false;
    for (const r of this.held.splice(0)) r();
  }

  count(path: string): number {
    return this.calls.filter((c) => c.path.endsWith(path)).length;
  }
}

const users: Record<string, { username: string; groups: string[]; uid?: string }> = {
  "reader-token": {
    username: "system:serviceaccount:monitoring:prometheus",
    uid: "u-1",
    groups: ["system:serviceaccounts", "system:authenticated"],
  },
  "nobody-token": { username: "jane", groups: ["system:authenticated"] },
};

/** TokenReview knows two tokens; the SubjectAccessReview allows only the reader. */
function kube(req: RestRequest): Answer {
  const body = req.body as { spec: Record<string, unknown> };
  if (req.path.endsWith("/tokenreviews")) {
    const user = users[body.spec.token as string];
    return { status: user ? { authenticated: true, user } : { authenticated: false } };
  }
  return {
    status:
      body.spec.user === users["reader-token"]?.username
        ? { allowed: true, reason: "RBAC: allowed" }
        : { allowed: false },
  };
}

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(api: FakeApi, opts: AuthFilterOptions = {}, lines: string[] = []) {
  const registry = new Registry();
  server = await startMetricsServer({
    bind: { host: "127.0.0.1", port: 0 },
    registry,
    log: createLogger({ level: "debug", write: (l) => lines.push(l) }),
    secure: false,
    filter: withAuthenticationAndAuthorization(api, opts),
  });
  return server.port;
}

function get(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/metrics", headers, agent: false }, (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("metrics authentication and authorization", () => {
  it("asks the API server as controller-runtime does and answers with its texts", async () => {
    const api = new FakeApi(kube);
    const port = await serve(api);
    expect(await get(port)).toEqual({ status: 401, body: "Unauthorized\n" });
    expect(await get(port, { Authorization: "Basic abc" })).toEqual({
      status: 401,
      body: "Unauthorized\n",
    });
    expect(api.calls).toEqual([]); // nothing to review without a bearer token
    expect((await get(port, bearer("bad-token"))).status).toBe(401);
    expect(await get(port, bearer("nobody-token"))).toEqual({
      status: 403,
      body: "Authorization denied for user jane\n",
    });
    expect((await get(port, bearer("reader-token"))).status).toBe(200);

    const review = api.calls.find((c) => c.path.endsWith("/tokenreviews"));
    expect(review).toMatchObject({
      method: "POST",
      path: "/apis/authentication.k8s.io/v1/tokenreviews",
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: "bad-token" },
      },
    });
    const sar = api.calls.filter((c) => c.path.endsWith("/subjectaccessreviews")).at(-1);
    expect(sar).toMatchObject({
      method: "POST",
      path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      body: {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: {
          user: "system:serviceaccount:monitoring:prometheus",
          uid: "u-1",
          groups: ["system:serviceaccounts", "system:authenticated"],
          nonResourceAttributes: { path: "/metrics", verb: "get" },
        },
      },
    });
  });

  it("reuses fresh decisions and shares a review among concurrent scrapes", async () => {
    const api = new FakeApi(kube);
    const port = await serve(api);
    // Fresh: ten scrapes, one TokenReview and one SubjectAccessReview.
    await Promise.all(Array.from({ length: 10 }, () => get(port, bearer("reader-token"))));
    expect(api.count("/tokenreviews")).toBe(1);
    expect(api.count("/subjectaccessreviews")).toBe(1);
    // Rejected tokens are remembered too.
    await get(port, bearer("bad-token"));
    await get(port, bearer("bad-token"));
    expect(api.count("/tokenreviews")).toBe(2);
  });

  it("asks again once a cached decision expires", async () => {
    const api = new FakeApi(kube);
    const port = await serve(api, { tokenCacheTtlMs: 1, allowCacheTtlMs: 1 });
    expect((await get(port, bearer("reader-token"))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await get(port, bearer("reader-token"))).status).toBe(200);
    expect(api.count("/tokenreviews")).toBe(2);
    expect(api.count("/subjectaccessreviews")).toBe(2);
  });

  it("refuses with 429 and Retry-After when reviews in flight and waiting are at their bound", async () => {
    const api = new FakeApi(kube);
    api.hold = true;
    const port = await serve(api, { maxConcurrentReviews: 1, maxPendingReviews: 1 });
    const first = get(port, bearer("t-0"));
    await until(() => api.calls.length === 1); // one review running, held
    const rest = [1, 2, 3].map((i) => get(port, bearer(`t-${i}`)));
    // One of them waits for the slot; the other two cannot queue and are refused at once.
    const settled: Array<{ status: number; body: string }> = [];
    for (const p of rest) void p.then((a) => settled.push(a));
    await until(() => settled.length === 2);
    expect(settled).toEqual([
      { status: 429, body: "Too many requests, please try again later.\n" },
      { status: 429, body: "Too many requests, please try again later.\n" },
    ]);
    api.release();
    expect((await first).status).toBe(401);
    const all = await Promise.all(rest);
    expect(all.filter((a) => a.status === 401)).toHaveLength(1);
  });

  it("answers 500 when the API server cannot be asked, and never logs the token", async () => {
    const lines: string[] = [];
    const down = new FakeApi(() => new Error("connect ECONNREFUSED 127.0.0.1:6443"));
    const port = await serve(down, {}, lines);
    expect(await get(port, bearer("secret-reader-token"))).toEqual({
      status: 500,
      body: "Authentication failed\n",
    });
    // Failures are not cached: the next scrape asks again.
    await get(port, bearer("secret-reader-token"));
    expect(down.count("/tokenreviews")).toBe(2);
    await server?.close();

    const noSar = new FakeApi((req) =>
      req.path.endsWith("/tokenreviews") ? kube(req) : new Error("subjectaccessreviews forbidden"),
    );
    const port2 = await serve(noSar, {}, lines);
    expect(await get(port2, bearer("reader-token"))).toEqual({
      status: 500,
      body: "Authorization for user system:serviceaccount:monitoring:prometheus failed\n",
    });
    expect(lines.join("\n")).toContain("Authentication failed");
    expect(lines.join("\n")).not.toMatch(/secret-reader-token|reader-token/);
  });
});

describe("bearerToken", () => {
  it("reads the header as k8s.io/apiserver's bearertoken does", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("  Bearer abc  ")).toBe("abc");
    expect(bearerToken("Bearer abc extra")).toBe("abc");
    expect(bearerToken("Bearer ")).toBeUndefined();
    expect(bearerToken("Bearer  abc")).toBeUndefined(); // the space-before-token case
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe("ExpiringCache", () => {
  it("expires entries after their TTL and drops the oldest past its size", () => {
    let now = 1_000;
    const cache = new ExpiringCache<string>(2, () => now);
    cache.set("a", "A", 100);
    cache.set("b", "B", 1_000);
    expect(cache.get("a")).toBe("A");
    now += 100;
    expect(cache.get("a")).toBeUndefined();
    cache.set("c", "C", 1_000);
    cache.set("d", "D", 1_000);
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined(); // the oldest went
    expect([cache.get("c"), cache.get("d")]).toEqual(["C", "D"]);
    cache.set("e", "E", 0); // a zero TTL caches nothing
    expect(cache.get("e")).toBeUndefined();
  });
});

describe("secure serving", () => {
  it("makes a self-signed pair for localhost and 127.0.0.1, signed by its own CA", () => {
    const pair = selfSignedCertificate();
    const [leafPem] = pair.cert.split(/(?<=-----END CERTIFICATE-----\n?)/);
    const leaf = new X509Certificate(leafPem as string);
    const ca = new X509Certificate(pair.ca);
    expect(leaf.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1");
    expect(leaf.ca).toBe(false);
    expect(ca.ca).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(pair.key))).toBe(true);
  });

  it("serves HTTP/2 through ALPN only with enableHttp2, behind the same filter", async () => {
    const api = new FakeApi(kube);
    server = await startMetricsServer({
      bind: { host: "127.0.0.1", port: 0 },
      registry: new Registry(),
      log: createLogger({ write: () => {} }),
      secure: true,
      enableHttp2: true,
      filter: withAuthenticationAndAuthorization(api),
    });
    const session = http2.connect(`https://127.0.0.1:${server.port}`, {
      rejectUnauthorized: false,
    });
    try {
      const get2 = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = session.request({ ":path": "/metrics", ...headers });
          req.on("response", (h) => resolve(Number(h[":status"])));
          req.on("error", reject);
          req.resume();
          req.end();
        });
      expect(await get2({})).toBe(401);
      expect(await get2(bearer("reader-token"))).toBe(200);
      expect(session.alpnProtocol).toBe("h2");
    } finally {
      session.close();
    }
  });
});
