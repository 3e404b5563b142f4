/**
 * Log redaction, one shape at a time: Secrets, credential-named fields, header maps, kubeconfigs
 * (as YAML-shaped data and as client-node's KubeConfig), errors carrying tokens, text, env pairs,
 * plus what must be kept (references, ConfigMaps, certificates), cycles and the cost bounds.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { redact, scrubString } from "../../src/log/redact.js";

const R = "[redacted]";
const jwt =
  "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06YWRtaW4ifQ.c2lnbmF0dXJlLWJ5dGVz";

function lines() {
  const out: string[] = [];
  const log = createLogger({ write: (l) => out.push(l), now: () => new Date(0) });
  return { out, log, json: () => out.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("redact: Secrets", () => {
  it("replaces the values of data and stringData of a Secret at any depth, keeps its keys and metadata", () => {
    const secret = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "db", namespace: "ns", labels: { app: "db" } },
      type: "Opaque",
      data: { password: "c2VjcmV0", user: "YWRtaW4=" },
      stringData: { "config.yaml": "token: abc" },
    };
    const wrapped = { event: { items: [{ old: secret, new: secret }] } };
    expect(redact(wrapped)).toEqual({
      event: {
        items: [
          {
            old: {
              apiVersion: "v1",
              kind: "Secret",
              metadata: { name: "db", namespace: "ns", labels: { app: "db" } },
              type: "Opaque",
              data: { password: R, user: R },
              stringData: { "config.yaml": R },
            },
            new: expect.objectContaining({ data: { password: R, user: R } }),
          },
        ],
      },
    });
  });

  it("replaces kubectl's last-applied-configuration of a Secret (a copy of its data)", () => {
    const applied = JSON.stringify({ kind: "Secret", data: { password: "c2VjcmV0" } });
    const s = {
      kind: "Secret",
      metadata: {
        name: "db",
        annotations: { "kubectl.kubernetes.io/last-applied-configuration": applied, team: "a" },
      },
      data: { password: "c2VjcmV0" },
    };
    expect(redact(s)).toEqual({
      kind: "Secret",
      metadata: {
        name: "db",
        annotations: { "kubectl.kubernetes.io/last-applied-configuration": R, team: "a" },
      },
      data: { password: R },
    });
  });

  it("recognises a Secret built without a kind by its type", () => {
    const s = { metadata: { name: "tls" }, type: "kubernetes.io/tls", data: { "tls.key": "LS0t" } };
    expect(redact({ desired: s })).toEqual({
      desired: { metadata: { name: "tls" }, type: "kubernetes.io/tls", data: { "tls.key": R } },
    });
  });

  it("keeps a ConfigMap's data (and any other kind's), which is configuration", () => {
    const cm = { kind: "ConfigMap", metadata: { name: "c" }, data: { "app.conf": "port=80" } };
    const other = { kind: "AppCluster", spec: { data: { a: "b" } }, data: { x: "y" } };
    expect(redact([cm, other])).toEqual([cm, other]);
  });
});

describe("redact: credential-named fields", () => {
  it("replaces tokens, passwords, secrets, api keys at any depth, case and separators ignored", () => {
    const input = {
      spec: {
        backends: [
          { url: "https://a", auth: { TOKEN: "t1", Password: "p1", api_key: "k1" } },
          { nested: [[{ clientSecret: "s1", "X-Api-Key": "k2", PRIVATE_KEY: "pk" }]] },
        ],
        credentials: { user: "u", pass: "p" },
        refreshToken: "r",
        bearer: "b",
      },
    };
    expect(redact(input)).toEqual({
      spec: {
        backends: [
          { url: "https://a", auth: { TOKEN: R, Password: R, api_key: R } },
          { nested: [[{ clientSecret: R, "X-Api-Key": R, PRIVATE_KEY: R }]] },
        ],
        credentials: { user: R, pass: R },
        refreshToken: R,
        bearer: R,
      },
    });
  });

  it("replaces every string below a credential key but keeps references, numbers and flags", () => {
    const input = {
      token: { value: "v", nested: ["a", { raw: "r" }], issuedAt: 3, rotate: true },
      secret: { secretName: "web-tls", defaultMode: 256 },
      annotations: { "example.com/api-token": "t", "example.com/owner": "team-a" },
    };
    expect(redact(input)).toEqual({
      token: { value: R, nested: [R, { raw: R }], issuedAt: 3, rotate: true },
      secret: { secretName: "web-tls", defaultMode: 256 },
      annotations: { "example.com/api-token": R, "example.com/owner": "team-a" },
    });
  });

  it("replaces byte arrays too, and shows other byte arrays by their size only", () => {
    expect(redact({ token: Buffer.from("abc"), payload: new Uint8Array(4) })).toEqual({
      token: R,
      payload: "[4 bytes]",
    });
  });

  it("replaces the value of a { name, value } pair whose name is a credential (env vars)", () => {
    const env = [
      { name: "DB_PASSWORD", value: "hunter2" },
      { name: "GITHUB_TOKEN", value: "ghp_x" },
      { name: "LOG_LEVEL", value: "debug" },
      { name: "API_KEY", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
    ];
    expect(redact({ containers: [{ name: "app", env }] })).toEqual({
      containers: [
        {
          name: "app",
          env: [
            { name: "DB_PASSWORD", value: R },
            { name: "GITHUB_TOKEN", value: R },
            { name: "LOG_LEVEL", value: "debug" },
            { name: "API_KEY", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
          ],
        },
      ],
    });
  });
});

describe("redact: HTTP headers", () => {
  it("replaces Authorization, Proxy-Authorization and cookies in a header map, keeps the rest", () => {
    const req = {
      method: "GET",
      headers: {
        Authorization: `Bearer ${jwt}`,
        "proxy-authorization": "Basic dXNlcjpwYXNz",
        Cookie: "session=abc",
        "Set-Cookie": ["a=b", "c=d"],
        "Content-Type": "application/json",
        "User-Agent": "opgen-manager",
      },
    };
    expect(redact({ request: req })).toEqual({
      request: {
        method: "GET",
        headers: {
          Authorization: R,
          "proxy-authorization": R,
          Cookie: R,
          "Set-Cookie": [R, R],
          "Content-Type": "application/json",
          "User-Agent": "opgen-manager",
        },
      },
    });
  });

  it("handles fetch Headers and Maps as maps", () => {
    const h = new Headers({ authorization: "Bearer abcdefgh1234", accept: "application/json" });
    const m = new Map<string, unknown>([
      ["Cookie", "x=y"],
      ["Host", "example"],
    ]);
    expect(redact({ h, m })).toEqual({
      h: { authorization: R, accept: "application/json" },
      m: { Cookie: R, Host: "example" },
    });
  });
});

describe("redact: kubeconfig", () => {
  it("replaces tokens, passwords, client keys, auth-provider and exec secrets; keeps certificates", () => {
    const kubeconfig = {
      apiVersion: "v1",
      kind: "Config",
      "current-context": "dev",
      clusters: [
        {
          name: "dev",
          cluster: { server: "https://127.0.0.1:6443", "certificate-authority-data": "Q0E=" },
        },
      ],
      users: [
        { name: "token-user", user: { token: "abc123" } },
        {
          name: "cert-user",
          user: { "client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ" },
        },
        { name: "basic", user: { username: "admin", password: "pw" } },
        {
          name: "oidc",
          user: {
            "auth-provider": {
              name: "oidc",
              config: {
                "client-id": "kube",
                "client-secret": "cs",
                "id-token": jwt,
                "refresh-token": "rt",
                "access-token": "at",
                "idp-issuer-url": "https://issuer",
              },
            },
          },
        },
        {
          name: "exec",
          user: {
            exec: {
              command: "aws",
              args: ["eks", "get-token"],
              env: [
                { name: "AWS_SECRET_ACCESS_KEY", value: "sk" },
                { name: "AWS_SESSION_TOKEN", value: "st" },
                { name: "AWS_REGION", value: "eu-west-1" },
              ],
            },
          },
        },
      ],
    };
    expect(redact({ config: kubeconfig })).toEqual({
      config: {
        ...kubeconfig,
        users: [
          { name: "token-user", user: { token: R } },
          {
            name: "cert-user",
            user: { "client-certificate-data": "Q0VSVA==", "client-key-data": R },
          },
          { name: "basic", user: { username: "admin", password: R } },
          {
            name: "oidc",
            user: {
              "auth-provider": {
                name: "oidc",
                config: {
                  "client-id": "kube",
                  "client-secret": R,
                  "id-token": R,
                  "refresh-token": R,
                  "access-token": R,
                  "idp-issuer-url": "https://issuer",
                },
              },
            },
          },
          {
            name: "exec",
            user: {
              exec: {
                command: "aws",
                args: ["eks", "get-token"],
                env: [
                  { name: "AWS_SECRET_ACCESS_KEY", value: R },
                  { name: "AWS_SESSION_TOKEN", value: R },
                  { name: "AWS_REGION", value: "eu-west-1" },
                ],
              },
            },
          },
        ],
      },
    });
  });

  it("redacts client-node's KubeConfig object the same way", () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: "https://h:6443", caData: "Q0E=", skipTLSVerify: false }],
      users: [
        { name: "u", token: "tok-123456", keyData: "S0VZ", certData: "Q0VSVA==", password: "pw" },
      ],
      contexts: [{ name: "ctx", cluster: "c", user: "u" }],
      currentContext: "ctx",
    });
    const out = JSON.stringify(redact({ kc }));
    for (const secret of ["tok-123456", "S0VZ", '"pw"']) expect(out).not.toContain(secret);
    expect(out).toContain("Q0VSVA==");
    expect(out).toContain("https://h:6443");
  });
});

describe("redact: errors and text", () => {
  it("scrubs bearer tokens, Authorization values and JWTs out of text, leaving prose alone", () => {
    expect(scrubString("request failed: Authorization: Basic dXNlcjpwYXNz (401)")).toBe(
      `request failed: Authorization: Basic ${R} (401)`,
    );
    expect(scrubString("sent authorization=abcdef; retrying")).toBe(
      `sent authorization=${R}; retrying`,
    );
    expect(scrubString("curl -H 'Authorization: Bearer s3cr3t-t0ken'")).toBe(
      `curl -H 'Authorization: Bearer ${R}'`,
    );
    expect(scrubString(`token was bearer abc.def-ghi_123 then`)).toBe(`token was bearer ${R} then`);
    expect(scrubString(`id ${jwt} rejected`)).toBe(`id ${R} rejected`);
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKC\n-----END RSA PRIVATE KEY-----";
    expect(scrubString(`bad key ${key} in tls.key`)).toBe(`bad key ${R} in tls.key`);
    expect(redact({ tls: { key: "-----BEGIN PRIVATE KEY-----\nMIIE" } })).toEqual({
      tls: { key: R },
    });
    expect(scrubString("dial postgres://app:s3cret@db:5432/app failed")).toBe(
      `dial postgres://app:${R}@db:5432/app failed`,
    );
    expect(
      redact({ proxyUrl: "http://u:p@proxy:3128", home: "https://example.com/a:b@c" }),
    ).toEqual({
      proxyUrl: `http://u:${R}@proxy:3128`,
      home: "https://example.com/a:b@c",
    });
    const prose = "bearer authentication is configured; basic checks passed";
    expect(scrubString(prose)).toBe(prose);
  });

  it("writes an Error in fields as its message, name, own fields and cause, all redacted", () => {
    const inner = Object.assign(new Error(`401 for token ${jwt}`), { token: "t" });
    const err = new Error("GET /api failed: Bearer abcdefgh12345678", { cause: inner });
    expect(redact({ err })).toEqual({
      err: {
        message: `GET /api failed: Bearer ${R}`,
        cause: { message: `401 for token ${R}`, token: R },
      },
    });
  });

  it("log.error scrubs the error's message and, in development, its stack", () => {
    const out: string[] = [];
    const dev = createLogger({ write: (l) => out.push(l), development: true });
    dev.error("call failed", new Error("Authorization: Bearer zzzzzzzz99999999 rejected"));
    expect(out).toHaveLength(1);
    expect(out[0]).not.toContain("zzzzzzzz99999999");
    expect(out[0]).toContain(`Bearer ${R}`);
    expect(out[0]).toContain("stacktrace=");
  });
});

describe("redact: what is kept", () => {
  it("leaves references, flags and ordinary fields of a workload untouched", () => {
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "ns", annotations: { "example.com/owner": "team-a" } },
      spec: {
        replicas: 2,
        template: {
          spec: {
            automountServiceAccountToken: false,
            serviceAccountName: "web",
            imagePullSecrets: [{ name: "regcred" }],
            containers: [
              {
                name: "web",
                image: "nginx:1.27",
                envFrom: [{ secretRef: { name: "web-env" } }],
                env: [
                  { name: "MODE", value: "prod" },
                  { name: "DB_PASSWORD", valueFrom: { secretKeyRef: { name: "db", key: "pw" } } },
                ],
                volumeMounts: [{ name: "tls", mountPath: "/tls" }],
              },
            ],
            volumes: [{ name: "tls", secret: { secretName: "web-tls", defaultMode: 0o400 } }],
          },
        },
      },
      status: { readyReplicas: 2, conditions: [{ type: "Available", status: "True" }] },
    };
    const app = {
      spec: {
        tokenSecretRef: { name: "t", key: "token" },
        passwordFile: "/etc/pw",
        tokenExpirationSeconds: 3600,
        credentialsSecretName: "creds",
        bypass: true,
      },
    };
    expect(redact(deployment)).toEqual(deployment);
    expect(redact(app)).toEqual(app);
  });

  it("does not mutate its input", () => {
    const input = { kind: "Secret", data: { a: "b" }, token: "t", nested: { password: "p" } };
    const copy = structuredClone(input);
    redact(input);
    expect(input).toEqual(copy);
  });
});

describe("redact: cycles and bounds", () => {
  it("shows a cycle as [circular] but repeats a shared, acyclic object in full", () => {
    const a: Record<string, unknown> = { name: "a", token: "t" };
    a.self = a;
    const shared = { x: 1 };
    expect(redact({ a, one: shared, two: shared })).toEqual({
      a: { name: "a", token: R, self: "[circular]" },
      one: { x: 1 },
      two: { x: 1 },
    });
  });

  it("stops at the depth cap, the node cap and the string cap", () => {
    let deep: Record<string, unknown> = { token: "t" };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    const redactedDeep = JSON.stringify(redact(deep));
    expect(redactedDeep).toContain("[too deep]");
    expect(redactedDeep.length).toBeLessThan(1000);

    const wide = Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
    const redactedWide = redact(wide, {
      maxDepth: 32,
      maxNodes: 1000,
      maxString: 100,
    }) as unknown[];
    expect(redactedWide.length).toBeLessThanOrEqual(1001);
    expect(redactedWide.slice(0, 400)).toEqual(wide.slice(0, 400));
    expect(redactedWide.at(-1)).toMatch(/^\[truncated: \d+ more items\]$/);

    const long = redact({ s: "x".repeat(1000) }, { maxDepth: 32, maxNodes: 1000, maxString: 100 });
    expect(long).toEqual({ s: `${"x".repeat(100)}...[900 more characters]` });
  });
});

describe("logger", () => {
  it("redacts nested values, values set with withValues and the message itself", () => {
    const { log, json } = lines();
    log
      .withValues({ client: { headers: { Authorization: "Bearer abcdefgh12345678" } } })
      .info("applying Authorization: Bearer abcdefgh12345678", {
        object: { kind: "Secret", metadata: { name: "s" }, data: { k: "dg==" } },
        count: 3,
      });
    expect(json()).toEqual([
      {
        level: "info",
        ts: "1970-01-01T00:00:00.000Z",
        msg: `applying Authorization: Bearer ${R}`,
        client: { headers: { Authorization: R } },
        object: { kind: "Secret", metadata: { name: "s" }, data: { k: R } },
        count: 3,
      },
    ]);
  });
});
