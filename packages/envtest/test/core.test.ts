// biome-ignore-all lint/suspicious/noExplicitAny: custom objects are untyped JSON in client-node
import { join } from "node:path";
import {
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { fixtures, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
});
afterAll(async () => {
  await env?.stop();
});

describe("transport and discovery", () => {
  it("serves /version as 1.32 and health endpoints", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    expect(core).toBeDefined();
    const r = await kubectl(env, ["version", "-o", "json"]);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.serverVersion.minor).toBe("32");
    // The dispatcher picked the 1.32 binary because of the server's minor.
    expect(v.clientVersion.minor).toMatch(/^32/);
  });

  it("rejects anonymous requests with 401", async () => {
    const res = await fetchInsecure(`${env.url}/api/v1/namespaces`);
    expect(res.status).toBe(401);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
  });
});

describe("client-node", () => {
  it("creates, reads, replaces and deletes a ConfigMap", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { generateName: "cm-" }, data: { a: "1" } },
    });
    const name = created.metadata!.name!;
    expect(name).toMatch(/^cm-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.metadata!.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata!.creationTimestamp).toBeInstanceOf(Date);
    const read = await core.readNamespacedConfigMap({ name, namespace: "default" });
    expect(read.data).toEqual({ a: "1" });
    const stale: V1ConfigMap = { ...read, data: { a: "2" } };
    const replaced = await core.replaceNamespacedConfigMap({
      name,
      namespace: "default",
      body: stale,
    });
    expect(replaced.data).toEqual({ a: "2" });
    expect(Number(replaced.metadata!.resourceVersion)).toBeGreaterThan(
      Number(read.metadata!.resourceVersion),
    );
    // The first version is now stale: 409 with the real message.
    const err = await core
      .replaceNamespacedConfigMap({
        name,
        namespace: "default",
        body: { ...read, data: { a: "3" } },
      })
      .catch((e) => e);
    expect(err.code).toBe(409);
    expect(JSON.parse(err.body).message).toBe(
      `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
    await core.deleteNamespacedConfigMap({ name, namespace: "default" });
    const gone = await core.readNamespacedConfigMap({ name, namespace: "default" }).catch((e) => e);
    expect(gone.code).toBe(404);
    expect(JSON.parse(gone.body).message).toBe(`configmaps "${name}" not found`);
  });

  it("does CRUD on a custom resource with defaults, generation and status isolation", async () => {
    const api = env.kubeconfig.makeApiClient(CustomObjectsApi);
    const w = (await api.createNamespacedCustomObject({
      group: "example.com",
      version: "v1",
      namespace: "default",
      plural: "widgets",
      body: {
        apiVersion: "example.com/v1",
        kind: "Widget",
        metadata: { name: "w1" },
        spec: { mode: "fast" },
        status: { replicas: 5 },
      },
    })) as any;
    expect(w.spec).toEqual({ mode: "fast", replicas: 1, limits: { cpu: "100m" } });
    expect(w.status).toBeUndefined();
    expect(w.metadata.generation).toBe(1);
    const objApi = KubernetesObjectApi.makeApiClient(env.kubeconfig);
    const read = (await objApi.read({
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w1", namespace: "default" },
    })) as any;
    read.spec.replicas = 3;
    const replaced = (await objApi.replace(read)) as any;
    expect(replaced.metadata.generation).toBe(2);
    replaced.metadata.labels = { a: "b" };
    const relabeled = (await objApi.replace(replaced)) as any;
    expect(relabeled.metadata.generation).toBe(2);
    const withStatus = (await api.replaceNamespacedCustomObjectStatus({
      group: "example.com",
      version: "v1",
      namespace: "default",
      plural: "widgets",
      name: "w1",
      body: { ...relabeled, spec: { mode: "slow" }, status: { replicas: 3 } },
    })) as any;
    expect(withStatus.status).toEqual({ replicas: 3 });
    expect(withStatus.spec.mode).toBe("fast");
    expect(withStatus.metadata.generation).toBe(2);
  });

  it("patches through KubernetesObjectApi: merge, server-side apply, and SMP's 415 on CRs", async () => {
    const objApi = KubernetesObjectApi.makeApiClient(env.kubeconfig);
    const ref = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w2", namespace: "default" },
    };
    const applied = (await objApi.patch(
      { ...ref, spec: { mode: "fast", replicas: 2 } },
      undefined,
      undefined,
      "my-operator",
      true,
      PatchStrategy.ServerSideApply,
    )) as any;
    expect(applied.spec).toEqual({ mode: "fast", replicas: 2, limits: { cpu: "100m" } });
    expect(applied.metadata.managedFields[0]).toMatchObject({
      manager: "my-operator",
      operation: "Apply",
    });
    const merged = (await objApi.patch(
      { ...ref, spec: { replicas: 3 } },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    )) as any;
    expect(merged.spec.replicas).toBe(3);
    // client-node defaults to strategic merge patch, which custom resources refuse.
    const smp = await objApi.patch({ ...ref, spec: { replicas: 4 } }).catch((e) => e);
    expect(smp.code).toBe(415);
    await objApi.delete(ref);
    const gone = await objApi.read(ref).catch((e) => e);
    expect(gone.code).toBe(404);
  });

  it("runs an informer through list, watch and deletes", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "informer" } } });
    const informer = makeInformer(env.kubeconfig, "/api/v1/namespaces/informer/configmaps", () =>
      core.listNamespacedConfigMap({ namespace: "informer" }),
    );
    const events: string[] = [];
    informer.on("add", (o) => events.push(`add:${o.metadata?.name}`));
    informer.on("update", (o) => events.push(`update:${o.metadata?.name}:${o.data?.v}`));
    informer.on("delete", (o) => events.push(`delete:${o.metadata?.name}`));
    await core.createNamespacedConfigMap({
      namespace: "informer",
      body: { metadata: { name: "before" } },
    });
    await informer.start();
    await eventually(() => expect(events).toContain("add:before"));
    await core.createNamespacedConfigMap({
      namespace: "informer",
      body: { metadata: { name: "x" }, data: { v: "1" } },
    });
    await core.patchNamespacedConfigMap(
      { namespace: "informer", name: "x", body: { data: { v: "2" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ namespace: "informer", name: "x" });
    // The namespace's kube-root-ca.crt (the root CA publisher's) is listed too, as on a cluster.
    await eventually(() =>
      expect(events).toEqual([
        "add:before",
        "add:kube-root-ca.crt",
        "add:x",
        "update:x:2",
        "delete:x",
      ]),
    );
    await informer.stop();
  });
});

describe("kubectl", () => {
  it("applies, gets (table and yaml) and deletes a custom resource", async () => {
    const manifest = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: from-kubectl
  namespace: default
spec:
  mode: slow
  replicas: 4
`;
    const applied = await kubectl(env, ["apply", "-f", "-"], manifest);
    expect(applied.stderr).toBe("");
    expect(applied.stdout.trim()).toBe("widget.example.com/from-kubectl created");
    const again = await kubectl(
      env,
      ["apply", "-f", "-"],
      manifest.replace("replicas: 4", "replicas: 5"),
    );
    expect(again.stdout.trim()).toBe("widget.example.com/from-kubectl configured");
    const table = await kubectl(env, ["get", "widgets"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+REPLICAS\s+MODE\s+READY\s+AGE$/);
    expect(lines.find((l) => l.startsWith("from-kubectl"))).toMatch(
      /^from-kubectl\s+5\s+slow\s+\s*\S+$/,
    );
    const yaml = await kubectl(env, ["get", "widget", "from-kubectl", "-o", "yaml"]);
    expect(yaml.stdout).toContain("replicas: 5");
    expect(yaml.stdout).toContain("cpu: 100m");
    const del = await kubectl(env, ["delete", "widget", "from-kubectl"]);
    expect(del.stdout.trim()).toBe('widget.example.com "from-kubectl" deleted');
    const missing = await kubectl(env, ["get", "widget", "from-kubectl"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      'Error from server (NotFound): widgets.example.com "from-kubectl" not found',
    );
  });

  it("reports schema validation errors with the real messages", async () => {
    const r = await kubectl(
      env,
      ["apply", "-f", "-"],
      `apiVersion: example.com/v1
kind: Widget
metadata: {name: bad, namespace: default}
spec: {mode: medium, replicas: 0}
`,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'The Widget "bad" is invalid: \n* spec.mode: Unsupported value: "medium": supported values: "fast", "slow"\n* spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    );
  });
});

async function fetchInsecure(url: string): Promise<{ status: number; body: string }> {
  const https = await import("node:https");
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}
