/**
 * Who a request is: SelfSubjectReview (`kubectl auth whoami`), TokenRequest (`kubectl create
 * token`) issuing tokens the server then accepts as the service account, and TokenReview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const sas = "/api/v1/namespaces/default/serviceaccounts";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ auth: "rbac" });
  await api(env, "POST", sas, { metadata: { name: "bot" } });
});
afterAll(async () => {
  await env?.stop();
});

async function token(sa: string, extra: string[] = []): Promise<string> {
  const r = await kubectl(env, ["create", "token", sa, ...extra]);
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}

describe("kubectl auth whoami", () => {
  it("names the caller, and the impersonated user under --as", async () => {
    const me = await kubectl(env, ["auth", "whoami", "-o", "json"]);
    expect(JSON.parse(me.stdout)).toMatchObject({
      apiVersion: "authentication.k8s.io/v1",
      kind: "SelfSubjectReview",
      status: {
        userInfo: { username: "admin", groups: ["system:masters", "system:authenticated"] },
      },
    });
    const jane = await kubectl(env, ["auth", "whoami", "--as=jane", "--as-group=dev"]);
    expect(jane.stdout).toMatch(/^Username\s+jane$/m);
    expect(jane.stdout).toMatch(/^Groups\s+\[dev system:authenticated\]$/m);
  });
});

describe("TokenRequest", () => {
  it("issues a token the server accepts as the service account, under its RBAC", async () => {
    const t = await token("bot");
    expect(t.split(".")).toHaveLength(3);
    const who = await kubectl(env, ["--token", t, "auth", "whoami"]);
    expect(who.stdout).toMatch(/^Username\s+system:serviceaccount:default:bot$/m);
    expect(who.stdout).toMatch(
      /^Groups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]$/m,
    );
    expect(who.stdout).toMatch(
      /^Extra: authentication\.kubernetes\.io\/credential-id\s+\[JTI=[0-9a-f-]{36}\]$/m,
    );
    const denied = await kubectl(env, ["--token", t, "get", "pods"]);
    expect(denied.stderr.trim()).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:bot" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    await kubectl(env, ["create", "role", "pods", "--verb=list", "--resource=pods"]);
    await kubectl(env, [
      "create",
      "rolebinding",
      "bot-pods",
      "--role=pods",
      "--serviceaccount=default:bot",
    ]);
    expect((await kubectl(env, ["--token", t, "get", "pods"])).code).toBe(0);
  });

  it("validates the request as kube-apiserver does", async () => {
    const short = await kubectl(env, ["create", "token", "bot", "--duration=1m"]);
    expect(short.stderr.trim()).toBe(
      'error: failed to create token: TokenRequest.authentication.k8s.io "bot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    const missing = await kubectl(env, ["create", "token", "nobody"]);
    expect(missing.stderr.trim()).toBe(
      'error: failed to create token: serviceaccounts "nobody" not found',
    );
    const r = await api(env, "POST", `${sas}/bot/token`, {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: { expirationSeconds: 7200 },
    });
    expect(r.status).toBe(201);
    expect(r.body.spec).toMatchObject({
      audiences: ["https://kubernetes.default.svc.cluster.local"],
      expirationSeconds: 7200,
    });
    const expires = Date.parse(r.body.status.expirationTimestamp) - Date.now();
    expect(expires).toBeGreaterThan(7100_000);
    expect(expires).toBeLessThanOrEqual(7200_000);
    expect((await api(env, "GET", `${sas}/bot/token`)).status).toBe(405);
  });

  it("refuses tokens for other audiences, of deleted accounts and of deleted bound pods", async () => {
    const foreign = await token("bot", ["--audience=https://vault.example.com"]);
    expect(
      (await api(env, "GET", "/api/v1/namespaces", undefined, { token: foreign })).status,
    ).toBe(401);

    await api(env, "POST", "/api/v1/namespaces/default/pods", {
      metadata: { name: "holder" },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    const bound = await token("bot", ["--bound-object-kind=Pod", "--bound-object-name=holder"]);
    const who = await kubectl(env, ["--token", bound, "auth", "whoami"]);
    expect(who.stdout).toMatch(/^Extra: authentication\.kubernetes\.io\/pod-name\s+\[holder\]$/m);
    await api(env, "DELETE", "/api/v1/namespaces/default/pods/holder?gracePeriodSeconds=0");
    expect((await api(env, "GET", "/api/v1/namespaces", undefined, { token: bound })).status).toBe(
      401,
    );

    await api(env, "POST", sas, { metadata: { name: "ephemeral" } });
    const gone = await token("ephemeral");
    expect(
      (await api(env, "GET", "/api/v1/namespaces", undefined, { token: gone })).status,
    ).not.toBe(401);
    await api(env, "DELETE", `${sas}/ephemeral`);
    expect((await api(env, "GET", "/api/v1/namespaces", undefined, { token: gone })).status).toBe(
      401,
    );
  });
});

describe("TokenReview", () => {
  const review = (spec: object, asToken?: string) =>
    api(
      env,
      "POST",
      "/apis/authentication.k8s.io/v1/tokenreviews",
      { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec },
      asToken ? { token: asToken } : {},
    );

  it("says whose a token is, for the audiences asked about", async () => {
    const t = await token("bot");
    const ok = await review({ token: t });
    expect(ok.status).toBe(201);
    expect(ok.body.status).toMatchObject({
      authenticated: true,
      audiences: ["https://kubernetes.default.svc.cluster.local"],
      user: {
        username: "system:serviceaccount:default:bot",
        groups: [
          "system:serviceaccounts",
          "system:serviceaccounts:default",
          "system:authenticated",
        ],
      },
    });
    const vault = await token("bot", ["--audience=vault"]);
    expect((await review({ token: vault })).body.status).toEqual({ user: {} });
    expect((await review({ token: vault, audiences: ["vault"] })).body.status).toMatchObject({
      authenticated: true,
      audiences: ["vault"],
    });
    expect((await review({ token: "not-a-token" })).body.status).toEqual({ user: {} });
    const empty = await review({});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("token is required for TokenReview in authentication");
  });

  it("is authorized like any create", async () => {
    const t = await token("bot");
    const r = await review({ token: t }, t);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'tokenreviews.authentication.k8s.io is forbidden: User "system:serviceaccount:default:bot" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
  });
});

describe("/metrics under RBAC", () => {
  it("needs get on the /metrics path, as on a cluster", async () => {
    const t = await token("bot");
    const r = await api(env, "GET", "/metrics", undefined, { token: t });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'forbidden: User "system:serviceaccount:default:bot" cannot get path "/metrics"',
    );
    expect((await api(env, "GET", "/metrics")).status).toBe(200);
  });
});

describe("discovery", () => {
  it("lists the token subresource and the authentication reviews", async () => {
    const core = (await api(env, "GET", "/api/v1")).body.resources;
    expect(core).toContainEqual({
      name: "serviceaccounts/token",
      singularName: "",
      namespaced: true,
      group: "authentication.k8s.io",
      version: "v1",
      kind: "TokenRequest",
      verbs: ["create"],
    });
    const authn = (await api(env, "GET", "/apis/authentication.k8s.io/v1")).body.resources;
    expect(authn.map((r: { name: string }) => r.name).sort()).toEqual([
      "selfsubjectreviews",
      "tokenreviews",
    ]);
  });
});
