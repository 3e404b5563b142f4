// Beyond envtest: garbage collection, namespace cleanup, RBAC, simulation, faults, restart.
import { join } from "node:path";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures, kubectl } from "./helpers.js";

const cms = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

async function owner(env: TestEnv, ns: string, name: string) {
  return (await api(env, "POST", cms(ns), { metadata: { name } })).body;
}

function ref(o: { metadata: { name: string; uid: string } }, extra: object = {}) {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: o.metadata.name,
    uid: o.metadata.uid,
    ...extra,
  };
}

describe("garbage collection (default on)", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "gc" } });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("deletes dependents in the background once the owner is gone", async () => {
    const o = await owner(env, "gc", "bg-owner");
    await api(env, "POST", cms("gc"), { metadata: { name: "bg-dep", ownerReferences: [ref(o)] } });
    await api(env, "DELETE", `${cms("gc")}/bg-owner`);
    await eventually(async () =>
      expect((await api(env, "GET", `${cms("gc")}/bg-dep`)).status).toBe(404),
    );
  });

  it("keeps a dependent that still has a live owner, stripping the dangling reference", async () => {
    const a = await owner(env, "gc", "a");
    const b = await owner(env, "gc", "b");
    await api(env, "POST", cms("gc"), {
      metadata: { name: "shared", ownerReferences: [ref(a), ref(b)] },
    });
    await api(env, "DELETE", `${cms("gc")}/a`);
    await eventually(async () => {
      const dep = (await api(env, "GET", `${cms("gc")}/shared`)).body;
      expect(dep.metadata.ownerReferences.map((r: { name: string }) => r.name)).toEqual(["b"]);
    });
  });

  it("foreground deletion waits for blocking dependents, which it deletes", async () => {
    const o = await owner(env, "gc", "fg-owner");
    await api(env, "POST", cms("gc"), {
      metadata: {
        name: "fg-dep",
        finalizers: ["example.com/slow"],
        ownerReferences: [ref(o, { blockOwnerDeletion: true })],
      },
    });
    const del = await api(env, "DELETE", `${cms("gc")}/fg-owner`, {
      propagationPolicy: "Foreground",
    });
    expect(del.body.metadata.finalizers).toEqual(["foregroundDeletion"]);
    await eventually(async () => {
      const dep = (await api(env, "GET", `${cms("gc")}/fg-dep`)).body;
      expect(dep.metadata.deletionTimestamp).toBeDefined();
    });
    // The owner waits while its blocking dependent is still finalizing.
    expect((await api(env, "GET", `${cms("gc")}/fg-owner`)).status).toBe(200);
    await api(
      env,
      "PATCH",
      `${cms("gc")}/fg-dep`,
      { metadata: { finalizers: null } },
      { contentType: "application/merge-patch+json" },
    );
    await eventually(async () =>
      expect((await api(env, "GET", `${cms("gc")}/fg-owner`)).status).toBe(404),
    );
  });

  it("orphans dependents with propagationPolicy=Orphan", async () => {
    const o = await owner(env, "gc", "or-owner");
    await api(env, "POST", cms("gc"), { metadata: { name: "or-dep", ownerReferences: [ref(o)] } });
    await api(env, "DELETE", `${cms("gc")}/or-owner?propagationPolicy=Orphan`);
    await eventually(async () =>
      expect((await api(env, "GET", `${cms("gc")}/or-owner`)).status).toBe(404),
    );
    const dep = (await api(env, "GET", `${cms("gc")}/or-dep`)).body;
    expect(dep.metadata.ownerReferences).toBeUndefined();
  });

  it("empties and removes a deleted namespace", async () => {
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "gone" } });
    await api(env, "POST", cms("gone"), { metadata: { name: "x" } });
    await api(env, "DELETE", "/api/v1/namespaces/gone");
    await eventually(async () =>
      expect((await api(env, "GET", "/api/v1/namespaces/gone")).status).toBe(404),
    );
  });
});

describe("envtest parity (gc: false)", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ gc: false });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("leaves dependents and terminating namespaces alone", async () => {
    const o = await owner(env, "default", "o");
    await api(env, "POST", cms("default"), { metadata: { name: "d", ownerReferences: [ref(o)] } });
    await api(env, "DELETE", `${cms("default")}/o`);
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "stuck" } });
    await api(env, "DELETE", "/api/v1/namespaces/stuck");
    await new Promise((r) => setTimeout(r, 100));
    expect((await api(env, "GET", `${cms("default")}/d`)).status).toBe(200);
    expect((await api(env, "GET", "/api/v1/namespaces/stuck")).body.status.phase).toBe(
      "Terminating",
    );
  });
});

describe("RBAC (auth: rbac)", () => {
  let env: TestEnv;
  const sa = "system:serviceaccount:default:operator";
  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
    await api(env, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", {
      metadata: { name: "cm-reader" },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch"] }],
    });
    await api(env, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", {
      metadata: { name: "operator-reads" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "cm-reader" },
      subjects: [{ kind: "ServiceAccount", name: "operator", namespace: "default" }],
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("allows what a bound Role grants and forbids the rest with the real message", async () => {
    const core = env.kubeconfigFor(sa).makeApiClient(CoreV1Api);
    await expect(core.listNamespacedConfigMap({ namespace: "default" })).resolves.toBeDefined();
    const err = await core
      .createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "x" } } })
      .catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe(
      'configmaps is forbidden: User "system:serviceaccount:default:operator" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
    const other = await core.listNamespacedConfigMap({ namespace: "kube-system" }).catch((e) => e);
    expect(other.code).toBe(403);
    const cluster = await core.listNamespace().catch((e) => e);
    expect(JSON.parse(cluster.body).message).toBe(
      'namespaces is forbidden: User "system:serviceaccount:default:operator" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it("honours ClusterRoleBindings, resourceNames and subresources; the admin bypasses", async () => {
    await api(env, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {
      metadata: { name: "status-writer" },
      rules: [
        {
          apiGroups: [""],
          resources: ["namespaces/status"],
          verbs: ["get"],
          resourceNames: ["default"],
        },
      ],
    });
    await api(env, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
      metadata: { name: "status-writer" },
      roleRef: {
        apiGroup: "rbac.authorization.k8s.io",
        kind: "ClusterRole",
        name: "status-writer",
      },
      subjects: [{ kind: "Group", name: "writers", apiGroup: "rbac.authorization.k8s.io" }],
    });
    const token = env.tokenFor("jane", ["writers"]);
    expect(
      (await api(env, "GET", "/api/v1/namespaces/default/status", undefined, { token })).status,
    ).toBe(200);
    expect(
      (await api(env, "GET", "/api/v1/namespaces/kube-system/status", undefined, { token })).status,
    ).toBe(403);
    expect((await api(env, "GET", "/api/v1/namespaces/default", undefined, { token })).status).toBe(
      403,
    );
    expect((await api(env, "GET", "/apis", undefined, { token })).status).toBe(200);
    expect((await api(env, "GET", "/api/v1/namespaces")).status).toBe(200);
  });

  it("answers kubectl auth can-i for a service account", async () => {
    const kc = env.kubeconfigFor(sa);
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "sa-"));
    writeFileSync(join(dir, "kubeconfig"), kc.exportConfig());
    const saEnv = { ...env, kubeconfigPath: join(dir, "kubeconfig") };
    expect((await kubectl(saEnv, ["auth", "can-i", "list", "configmaps"])).stdout.trim()).toBe(
      "yes",
    );
    expect((await kubectl(saEnv, ["auth", "can-i", "delete", "configmaps"])).stdout.trim()).toBe(
      "no",
    );
    const list = await kubectl(saEnv, ["auth", "can-i", "--list", "-n", "default"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  });
});

describe("simulation (simulate: true)", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ simulate: true });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("runs pods", async () => {
    await api(env, "POST", "/api/v1/namespaces/default/pods", {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    });
    await eventually(async () => {
      const pod = (await api(env, "GET", "/api/v1/namespaces/default/pods/p")).body;
      expect(pod.status.phase).toBe("Running");
      expect(pod.spec.nodeName).toBe("envtest-node");
      expect(pod.status.podIP).toMatch(/^10\.244\.0\.\d+$/);
      expect(pod.status.conditions.find((c: { type: string }) => c.type === "Ready").status).toBe(
        "True",
      );
    });
    const nodes = await kubectl(env, ["get", "nodes"]);
    expect(nodes.stdout).toMatch(/^envtest-node\s+Ready\s+<none>\s+\S+\s+v1\.32\.0$/m);
    // A bound pod terminates gracefully; the simulated kubelet removes it.
    await api(env, "DELETE", "/api/v1/namespaces/default/pods/p");
    await eventually(async () =>
      expect((await api(env, "GET", "/api/v1/namespaces/default/pods/p")).status).toBe(404),
    );
  });

  it("runs deployments through ReplicaSets and pods, and rolls them", async () => {
    await api(env, "POST", "/apis/apps/v1/namespaces/default/deployments", {
      metadata: { name: "web" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    await eventually(async () => {
      const d = (await api(env, "GET", "/apis/apps/v1/namespaces/default/deployments/web")).body;
      expect(d.status).toMatchObject({
        observedGeneration: 1,
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      });
    });
    const wait = await kubectl(env, [
      "wait",
      "deployment/web",
      "--for=condition=Available",
      "--timeout=10s",
    ]);
    expect(wait.stdout.trim()).toBe("deployment.apps/web condition met");
    const rollout = await kubectl(env, ["rollout", "status", "deployment/web", "--timeout=10s"]);
    expect(rollout.stdout.trim()).toBe('deployment "web" successfully rolled out');
    // The deployment controller made one ReplicaSet, which made three running pods.
    const rs = (await api(env, "GET", "/apis/apps/v1/namespaces/default/replicasets")).body.items;
    expect(rs).toHaveLength(1);
    expect(rs[0].metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    expect(rs[0].metadata.ownerReferences[0]).toMatchObject({
      kind: "Deployment",
      name: "web",
      controller: true,
    });
    const pods = (await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb"))
      .body.items;
    expect(pods).toHaveLength(3);
    expect(pods.every((p: { status: { phase: string } }) => p.status.phase === "Running")).toBe(
      true,
    );
    // Scaling down with a new template rolls to a new ReplicaSet.
    await api(
      env,
      "PATCH",
      "/apis/apps/v1/namespaces/default/deployments/web",
      { spec: { replicas: 1, template: { metadata: { labels: { app: "web", v: "2" } } } } },
      { contentType: "application/strategic-merge-patch+json" },
    );
    await eventually(async () => {
      const list = (
        await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb")
      ).body.items;
      expect(
        list.map((p: { metadata: { labels: Record<string, string> } }) => p.metadata.labels.v),
      ).toEqual(["2"]);
      const d = (await api(env, "GET", "/apis/apps/v1/namespaces/default/deployments/web")).body;
      expect(d.status).toMatchObject({
        observedGeneration: 2,
        readyReplicas: 1,
        updatedReplicas: 1,
      });
    });
    // Deleting the Deployment removes its ReplicaSets and pods through the garbage collector.
    await api(env, "DELETE", "/apis/apps/v1/namespaces/default/deployments/web");
    await eventually(async () => {
      expect(
        (await api(env, "GET", "/apis/apps/v1/namespaces/default/replicasets")).body.items,
      ).toHaveLength(0);
      expect(
        (await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb")).body
          .items,
      ).toHaveLength(0);
    });
  });

  it("runs jobs to completion", async () => {
    const bad = await api(env, "POST", "/apis/batch/v1/namespaces/default/jobs", {
      metadata: { name: "nope" },
      spec: { template: { spec: { containers: [{ name: "c", image: "busybox" }] } } },
    });
    expect(bad.body.message).toBe(
      'Job.batch "nope" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    );
    await api(env, "POST", "/apis/batch/v1/namespaces/default/jobs", {
      metadata: { name: "once" },
      spec: {
        completions: 2,
        template: {
          spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] },
        },
      },
    });
    const wait = await kubectl(env, [
      "wait",
      "job/once",
      "--for=condition=complete",
      "--timeout=10s",
    ]);
    expect(wait.stdout.trim()).toBe("job.batch/once condition met");
    const job = (await api(env, "GET", "/apis/batch/v1/namespaces/default/jobs/once")).body;
    expect(job.status).toMatchObject({ succeeded: 2, ready: 0 });
    expect(job.status.completionTime).toBeDefined();
    const pods = (
      await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=job-name%3Donce")
    ).body.items;
    expect(pods.map((p: { status: { phase: string } }) => p.status.phase)).toEqual([
      "Succeeded",
      "Succeeded",
    ]);
  });

  it("runs statefulsets with ordinal pods", async () => {
    await api(env, "POST", "/apis/apps/v1/namespaces/default/statefulsets", {
      metadata: { name: "db" },
      spec: {
        replicas: 2,
        serviceName: "db",
        selector: { matchLabels: { app: "db" } },
        template: {
          metadata: { labels: { app: "db" } },
          spec: { containers: [{ name: "c", image: "postgres" }] },
        },
      },
    });
    await eventually(async () => {
      const names = (
        await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Ddb")
      ).body.items.map((p: { metadata: { name: string } }) => p.metadata.name);
      expect(names).toEqual(["db-0", "db-1"]);
      const sts = (await api(env, "GET", "/apis/apps/v1/namespaces/default/statefulsets/db")).body;
      expect(sts.status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    });
  });
});

describe("faults and restart", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("fails the next matching requests with the chosen code", async () => {
    env.faults.failNext({
      verb: "create",
      resource: "configmaps",
      code: 429,
      retryAfter: 2,
      count: 2,
    });
    const first = await api(env, "POST", cms("default"), { metadata: { name: "f1" } });
    expect(first.status).toBe(429);
    expect(first.headers["retry-after"]).toBe("2");
    expect(first.body.details.retryAfterSeconds).toBe(2);
    expect((await api(env, "GET", cms("default"))).status).toBe(200);
    expect((await api(env, "POST", cms("default"), { metadata: { name: "f1" } })).status).toBe(429);
    expect((await api(env, "POST", cms("default"), { metadata: { name: "f1" } })).status).toBe(201);
    env.faults.failNext({ code: 409, verb: "update" });
    const cm = (await api(env, "GET", `${cms("default")}/f1`)).body;
    const conflict = await api(env, "PUT", `${cms("default")}/f1`, cm);
    expect(conflict.status).toBe(409);
    expect(conflict.body.reason).toBe("Conflict");
  });

  it("delays requests", async () => {
    env.faults.delay(150);
    const t = Date.now();
    await api(env, "GET", cms("default"));
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    env.faults.delay(0);
  });

  it("restarts on the same port keeping state", async () => {
    const url = env.url;
    await api(env, "POST", cms("default"), { metadata: { name: "kept" } });
    await env.restart();
    expect(env.url).toBe(url);
    // Pooled keep-alive connections died with the old listener; a client retries once.
    await eventually(async () =>
      expect((await api(env, "GET", `${cms("default")}/kept`)).status).toBe(200),
    );
  });
});

describe("USE_EXISTING_CLUSTER", () => {
  it("installs the CRDs into the cluster of KUBECONFIG and starts nothing", async () => {
    const host = await startTestEnv();
    const saved = { use: process.env.USE_EXISTING_CLUSTER, kubeconfig: process.env.KUBECONFIG };
    process.env.USE_EXISTING_CLUSTER = "true";
    process.env.KUBECONFIG = host.kubeconfigPath;
    try {
      const env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
      expect(env.url).toBe(host.url);
      const crd = await api(
        host,
        "GET",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
      );
      expect(crd.status).toBe(200);
      expect(() => env.tokenFor("someone")).toThrow(
        "tokenFor is not available with USE_EXISTING_CLUSTER=true",
      );
      // A second start finds the CRD installed and updates it in place.
      const again = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
      await again.stop();
      await env.stop();
    } finally {
      if (saved.use === undefined) delete process.env.USE_EXISTING_CLUSTER;
      else process.env.USE_EXISTING_CLUSTER = saved.use;
      if (saved.kubeconfig === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved.kubeconfig;
      await host.stop();
    }
  });
});
