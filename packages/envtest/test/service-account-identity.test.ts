import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthenticationV1Api, CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { readRoleFiles, serviceAccountObjects } from "../src/service-account.js";

const dir = mkdtempSync(join(tmpdir(), "envtest-sa-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// What `opgen manifests` writes for a controller with a cluster-wide and a namespaced marker.
const roleYaml = `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  verbs:
  - get
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: manager-role
  namespace: system
rules:
- apiGroups:
  - ""
  resources:
  - secrets
  verbs:
  - get
`;

describe("readRoleFiles", () => {
  it("reads the Roles and ClusterRoles of each file", () => {
    const roles = readRoleFiles([file("role.yaml", roleYaml)]);
    expect(roles.map((r) => `${r.kind}/${r.metadata?.name}`)).toEqual([
      "ClusterRole/manager-role",
      "Role/manager-role",
    ]);
  });

  it("refuses a missing file, another kind and an unnamed role, naming the file", () => {
    expect(() => readRoleFiles([join(dir, "absent.yaml")])).toThrow(
      `cannot read role file ${join(dir, "absent.yaml")}: no such file (opgen manifests writes role.yaml)`,
    );
    const sa = file("sa.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: x\n");
    expect(() => readRoleFiles([sa])).toThrow(
      `${sa}: ServiceAccount x is not a rbac.authorization.k8s.io/v1 Role or ClusterRole`,
    );
    const unnamed = file(
      "unnamed.yaml",
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nrules: []\n",
    );
    expect(() => readRoleFiles([unnamed])).toThrow(
      `${unnamed}: a ClusterRole without metadata.name`,
    );
  });
});

describe("serviceAccountObjects", () => {
  it("binds ClusterRoles cluster-wide and moves Roles into the account's namespace", () => {
    const roles = readRoleFiles([file("role2.yaml", roleYaml)]);
    const objects = serviceAccountObjects({ namespace: "demo-system", name: "manager" }, roles);
    expect(
      objects.map((o) => [o.kind, o.metadata?.namespace ?? "", o.metadata?.name, o.roleRef]),
    ).toEqual([
      ["Namespace", "", "demo-system", undefined],
      ["ServiceAccount", "demo-system", "manager", undefined],
      ["ClusterRole", "", "manager-role", undefined],
      [
        "ClusterRoleBinding",
        "",
        "manager-role:demo-system:manager",
        { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "manager-role" },
      ],
      ["Role", "demo-system", "manager-role", undefined],
      [
        "RoleBinding",
        "demo-system",
        "manager-role:manager",
        { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "manager-role" },
      ],
    ]);
    expect(objects[3]?.subjects).toEqual([
      { kind: "ServiceAccount", name: "manager", namespace: "demo-system" },
    ]);
  });
});

describe("env.serviceAccount (auth: rbac)", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("authenticates as the account with a TokenRequest token and exactly the roles' grants", async () => {
    const operator = await env.serviceAccount({
      namespace: "demo-system",
      name: "demo-controller-manager",
      roleFiles: [file("role3.yaml", roleYaml)],
    });
    expect(operator.user).toBe("system:serviceaccount:demo-system:demo-controller-manager");
    const review = await operator.kubeconfig
      .makeApiClient(AuthenticationV1Api)
      .createSelfSubjectReview({ body: {} });
    expect(review.status?.userInfo?.username).toBe(operator.user);
    expect(review.status?.userInfo?.groups).toEqual([
      "system:serviceaccounts",
      "system:serviceaccounts:demo-system",
      "system:authenticated",
    ]);
    // A JWT from TokenRequest, not a static token: it carries its credential id.
    expect(review.status?.userInfo?.extra).toHaveProperty(
      "authentication.kubernetes.io/credential-id",
    );

    const core = operator.kubeconfig.makeApiClient(CoreV1Api);
    await expect(core.listConfigMapForAllNamespaces()).resolves.toBeDefined();
    const admin = env.kubeconfig.makeApiClient(CoreV1Api);
    await admin.createNamespacedSecret({
      namespace: "demo-system",
      body: { metadata: { name: "s" } },
    });
    await expect(
      core.readNamespacedSecret({ namespace: "demo-system", name: "s" }),
    ).resolves.toBeDefined();
    expect(operator.forbidden.aborted).toBe(false);

    const denied = await core
      .createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "x" } } })
      .catch((e) => e);
    expect(denied.code).toBe(403);
    const message =
      'configmaps is forbidden: User "system:serviceaccount:demo-system:demo-controller-manager" cannot create resource "configmaps" in API group "" in the namespace "default"';
    expect(JSON.parse(denied.body).message).toBe(message);
    expect(operator.forbiddenRequests).toEqual([message]);
    expect(operator.forbidden.aborted).toBe(true);
    expect((operator.forbidden.reason as Error).message).toBe(
      `${message} (not granted by ${join(dir, "role3.yaml")}: add an @rbac marker that grants it)`,
    );

    // The same refusal again (a client retrying) is listed once.
    await core
      .createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "x" } } })
      .catch(() => undefined);
    expect(operator.forbiddenRequests).toEqual([message]);

    // A Role granted elsewhere is not the account's: secrets in another namespace stay closed.
    await core.readNamespacedSecret({ namespace: "default", name: "s" }).catch((e) => e);
    expect(operator.forbiddenRequests[1]).toBe(
      'secrets "s" is forbidden: User "system:serviceaccount:demo-system:demo-controller-manager" cannot get resource "secrets" in API group "" in the namespace "default"',
    );
  });

  it("records only its own account's denials", async () => {
    const a = await env.serviceAccount({ namespace: "team-a", name: "op" });
    const b = await env.serviceAccount({ namespace: "team-b", name: "op" });
    await a.kubeconfig
      .makeApiClient(CoreV1Api)
      .listNamespace()
      .catch(() => undefined);
    expect(a.forbiddenRequests).toEqual([
      'namespaces is forbidden: User "system:serviceaccount:team-a:op" cannot list resource "namespaces" in API group "" at the cluster scope',
    ]);
    expect((a.forbidden.reason as Error).message).toMatch(
      /\(no role is bound: add an @rbac marker/,
    );
    expect(b.forbiddenRequests).toEqual([]);
    expect(b.forbidden.aborted).toBe(false);
  });

  it("applies again idempotently: a second call for the same account works", async () => {
    const roleFiles = [file("role4.yaml", roleYaml)];
    await env.serviceAccount({ namespace: "again", name: "op", roleFiles });
    const again = await env.serviceAccount({ namespace: "again", name: "op", roleFiles });
    await expect(
      again.kubeconfig.makeApiClient(CoreV1Api).listConfigMapForAllNamespaces(),
    ).resolves.toBeDefined();
  });
});

describe("env.serviceAccount without RBAC", () => {
  it("refuses: without authorization the roles would prove nothing", async () => {
    const env = await startTestEnv();
    try {
      await expect(env.serviceAccount({ namespace: "x", name: "y" })).rejects.toThrow(
        'serviceAccount() needs startTestEnv({ auth: "rbac" }): without it every request is allowed',
      );
    } finally {
      await env.stop();
    }
  });
});

describe("eventually with a signal", () => {
  it("rejects with the signal's reason as soon as it aborts, mid-attempt or between", async () => {
    const stop = new AbortController();
    let attempts = 0;
    const waiting = eventually(
      async () => {
        attempts++;
        if (attempts === 3) stop.abort(new Error("denied"));
        throw new Error("not yet");
      },
      { timeout: 60_000, interval: 1, signal: stop.signal },
    );
    await expect(waiting).rejects.toThrow("denied");
    expect(attempts).toBe(3);

    const hanging = new AbortController();
    const pending = eventually(() => new Promise<never>(() => {}), {
      timeout: 60_000,
      signal: hanging.signal,
    });
    hanging.abort(new Error("gone"));
    await expect(pending).rejects.toThrow("gone");
  });

  it("does not try at all once aborted, and returns normally when never aborted", async () => {
    let called = false;
    await expect(
      eventually(
        () => {
          called = true;
        },
        { signal: AbortSignal.abort(new Error("early")) },
      ),
    ).rejects.toThrow("early");
    expect(called).toBe(false);
    await expect(eventually(() => 42, { signal: new AbortController().signal })).resolves.toBe(42);
  });
});

describe("env.serviceAccount with USE_EXISTING_CLUSTER=true", () => {
  it("binds the account in the cluster, whose RBAC decides; denials are not observed", async () => {
    const cluster = await startTestEnv({ auth: "rbac" });
    const saved = { use: process.env.USE_EXISTING_CLUSTER, kubeconfig: process.env.KUBECONFIG };
    process.env.USE_EXISTING_CLUSTER = "true";
    process.env.KUBECONFIG = cluster.kubeconfigPath;
    try {
      const env = await startTestEnv();
      const operator = await env.serviceAccount({
        namespace: "demo-system",
        name: "op",
        roleFiles: [file("role5.yaml", roleYaml)],
      });
      const core = operator.kubeconfig.makeApiClient(CoreV1Api);
      await expect(core.listConfigMapForAllNamespaces()).resolves.toBeDefined();
      const denied = await core.listNamespace().catch((e) => e);
      expect(denied.code).toBe(403);
      expect(operator.forbidden.aborted).toBe(false);
      expect(operator.forbiddenRequests).toEqual([]);
      await env.stop();
    } finally {
      if (saved.use === undefined) delete process.env.USE_EXISTING_CLUSTER;
      else process.env.USE_EXISTING_CLUSTER = saved.use;
      if (saved.kubeconfig === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved.kubeconfig;
      await cluster.stop();
    }
  });
});
