/**
 * Impersonation as kube-apiserver does it: the requester needs the `impersonate` verb, the request
 * then runs as the impersonated user (and is authorized as that user), through kubectl's `--as` and
 * `--as-group` and through raw headers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attributes } from "../src/http/filters/authorization.js";
import type { RequestContext } from "../src/http/filters/context.js";
import { impersonation } from "../src/http/filters/impersonation.js";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const rbac = "/apis/rbac.authorization.k8s.io/v1";

describe("impersonation under RBAC", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
    await api(env, "POST", `${rbac}/namespaces/default/roles`, {
      metadata: { name: "pod-reader" },
      rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }],
    });
    await api(env, "POST", `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: "bob-reads-pods" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
      subjects: [{ kind: "User", name: "bob", apiGroup: "rbac.authorization.k8s.io" }],
    });
    await api(env, "POST", `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: "accounts-read-pods" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
      subjects: [
        {
          kind: "Group",
          name: "system:serviceaccounts:default",
          apiGroup: "rbac.authorization.k8s.io",
        },
      ],
    });
    await api(env, "POST", `${rbac}/clusterroles`, {
      metadata: { name: "impersonate-bob" },
      rules: [
        { apiGroups: [""], resources: ["users"], verbs: ["impersonate"], resourceNames: ["bob"] },
      ],
    });
    await api(env, "POST", `${rbac}/clusterrolebindings`, {
      metadata: { name: "alice-as-bob" },
      roleRef: {
        apiGroup: "rbac.authorization.k8s.io",
        kind: "ClusterRole",
        name: "impersonate-bob",
      },
      subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }],
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("evaluates kubectl --as as the impersonated user", async () => {
    const jane = await kubectl(env, [
      "--as=jane",
      "auth",
      "can-i",
      "list",
      "pods",
      "-n",
      "default",
    ]);
    expect(jane.stdout.trim()).toBe("no");
    expect(jane.code).toBe(1);
    const bob = await kubectl(env, ["--as=bob", "auth", "can-i", "list", "pods", "-n", "default"]);
    expect(bob.stdout.trim()).toBe("yes");
    const denied = await kubectl(env, ["--as=jane", "get", "pods", "-n", "default"]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    const allowed = await kubectl(env, ["--as=bob", "get", "pods", "-n", "default"]);
    expect(allowed.code).toBe(0);
  });

  it("gives an impersonated service account its groups", async () => {
    const sa = await kubectl(env, [
      "--as=system:serviceaccount:default:builder",
      "auth",
      "can-i",
      "get",
      "pods",
      "-n",
      "default",
    ]);
    expect(sa.stdout.trim()).toBe("yes");
    const otherGroup = await kubectl(env, [
      "--as=system:serviceaccount:default:builder",
      "--as-group=team",
      "auth",
      "can-i",
      "get",
      "pods",
      "-n",
      "default",
    ]);
    expect(otherGroup.stdout.trim()).toBe("no");
  });

  it("refuses a requester without the impersonate permission with kube's 403", async () => {
    const carol = env.tokenFor("carol");
    const r = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      token: carol,
      headers: { "Impersonate-User": "bob" },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'users "bob" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    const sa = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      token: carol,
      headers: { "Impersonate-User": "system:serviceaccount:kube-system:x" },
    });
    expect(sa.body.message).toBe(
      'serviceaccounts "x" is forbidden: User "carol" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    );
  });

  it("lets a requester impersonate exactly what its role names, then authorizes as the target", async () => {
    const alice = env.tokenFor("alice");
    const asBob = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      token: alice,
      headers: { "Impersonate-User": "bob" },
    });
    expect(asBob.status).toBe(200);
    const asJane = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      token: alice,
      headers: { "Impersonate-User": "jane" },
    });
    expect(asJane.status).toBe(403);
    expect(asJane.body.message).toContain('User "alice" cannot impersonate resource "users"');
    const withGroup = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      token: alice,
      headers: { "Impersonate-User": "bob", "Impersonate-Group": "admins" },
    });
    expect(withGroup.status).toBe(403);
    expect(withGroup.body.message).toBe(
      'groups "admins" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it("answers groups without a user as kube does", async () => {
    const r = await api(env, "GET", "/api/v1/namespaces/default/pods", undefined, {
      headers: { "Impersonate-Group": "admins" },
    });
    expect(r.status).toBe(500);
    expect(r.body.message).toContain("without impersonating a user");
  });
});

describe("impersonation without RBAC", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("switches identity and allows everything, as AlwaysAllow does", async () => {
    const r = await kubectl(env, ["--as=jane", "auth", "can-i", "delete", "nodes"]);
    expect(r.stdout.trim()).toBe("yes");
  });
});

describe("the impersonation filter alone", () => {
  const ctx = (headers: Record<string, string[]>): RequestContext =>
    ({
      // Both views Node's IncomingMessage offers: joined values, and one entry per header line.
      req: {
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.join(", ")])),
        headersDistinct: headers,
      } as unknown as RequestContext["req"],
      res: {} as RequestContext["res"],
      info: { method: "GET", path: "/api/v1/pods", query: new URLSearchParams() },
      user: { name: "admin", groups: ["system:masters", "system:authenticated"] },
      warnings: [],
    }) as RequestContext;

  it("passes requests without impersonation headers untouched", async () => {
    const c = ctx({});
    let ran = false;
    await impersonation(() => "no")(c, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(c.user!.name).toBe("admin");
  });

  it("checks user, groups, uid and extras, then replaces the user", async () => {
    const seen: Attributes[] = [];
    const c = ctx({
      "impersonate-user": ["jane"],
      "impersonate-group": ["dev", "ops"],
      "impersonate-uid": ["1234"],
      "impersonate-extra-scopes": ["view"],
    });
    await impersonation((a) => {
      seen.push(a);
      return undefined;
    })(c, async () => {});
    expect(
      seen.map(
        (a) => `${a.group}/${a.resource}${a.subresource ? `/${a.subresource}` : ""}:${a.name}`,
      ),
    ).toEqual([
      "/users:jane",
      "/groups:dev",
      "/groups:ops",
      "authentication.k8s.io/uids:1234",
      "authentication.k8s.io/userextras/scopes:view",
    ]);
    expect(seen.every((a) => a.verb === "impersonate" && a.user.name === "admin")).toBe(true);
    expect(c.user).toEqual({
      name: "jane",
      groups: ["dev", "ops", "system:authenticated"],
      uid: "1234",
      extra: { scopes: ["view"] },
    });
    expect(c.authenticatedUser!.name).toBe("admin");
  });
});
