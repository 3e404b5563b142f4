/**
 * The manager, builder, cache and client against the embedded API server: For/Owns/Watches
 * triggering, cache-served reads and index lookups, conflicts retried, zero writes on a resync of
 * unchanged objects, probes and metrics, graceful shutdown.
 */
import type { V1ConfigMap, V1Pod } from "@kubernetes/client-node";
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  byObject,
  createOrUpdate,
  generationChanged,
  ignoreNotFound,
  isConflict,
  kinds,
  type Manager,
  type Request,
  setControllerReference,
} from "../../src/index.js";
import {
  type AppCluster,
  AppClusterKind,
  namespace,
  newManager,
  run,
  startEnv,
} from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

function appCluster(ns: string, name: string, size = 1): AppCluster {
  return {
    apiVersion: "demo.my.domain/v1",
    kind: "AppCluster",
    metadata: { name, namespace: ns },
    spec: { size },
  };
}

/** Counts non-GET API requests through the manager's REST metrics. */
async function writes(mgr: Manager): Promise<number> {
  const m = await mgr.metrics.registry.getSingleMetric("rest_client_requests_total")?.get();
  return (m?.values ?? [])
    .filter((v) => v.labels.method !== "GET")
    .reduce((a, v) => a + v.value, 0);
}

async function metric(
  mgr: Manager,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const m = await mgr.metrics.registry.getSingleMetric(name)?.get();
  return m?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value;
}

describe("controller wiring", () => {
  it("For, Owns and Watches each trigger the right reconcile", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    const seen: Request[] = [];
    mgr
      .controller(AppClusterKind)
      .owns(kinds.ConfigMap)
      .watches(kinds.Secret, (s) => {
        const target = s.metadata?.annotations?.["demo/target"];
        return target ? [{ namespace: s.metadata?.namespace, name: target }] : [];
      })
      .complete({
        reconcile: async (req) => {
          seen.push(req);
          return {};
        },
      });
    const m = run(mgr);
    try {
      const app = await mgr.client.create(appCluster(ns, "a"));
      await eventually(() => expect(seen).toContainEqual({ namespace: ns, name: "a" }), {
        timeout: 5000,
      });

      // Owns: a change to an owned ConfigMap reconciles its controller owner.
      const cm: V1ConfigMap = {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "owned", namespace: ns },
      };
      setControllerReference(app, cm);
      await mgr.client.create(cm);
      await mgr.client.create(appCluster(ns, "other"));
      await eventually(() => expect(seen.filter((r) => r.name === "other")).toHaveLength(1), {
        timeout: 5000,
      });
      const before = seen.filter((r) => r.name === "a").length;
      cm.data = { k: "v" };
      await mgr.client.update(cm);
      await eventually(
        () => expect(seen.filter((r) => r.name === "a").length).toBeGreaterThan(before),
        { timeout: 5000 },
      );

      // An unowned ConfigMap triggers nothing.
      const settled = seen.length;
      await mgr.client.create({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "stray", namespace: ns },
      });
      // Watches: a Secret mapped by annotation.
      await mgr.client.create({
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "s", namespace: ns, annotations: { "demo/target": "other" } },
      });
      await eventually(() => expect(seen.filter((r) => r.name === "other")).toHaveLength(2), {
        timeout: 5000,
      });
      expect(seen.slice(settled)).toEqual([{ namespace: ns, name: "other" }]);
    } finally {
      await m.stop();
    }
  });

  it("applies predicates: generationChanged ignores status-only updates", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    let count = 0;
    mgr
      .controller(AppClusterKind)
      .withPredicates(generationChanged())
      .complete({
        reconcile: async (req) => {
          // The cache is cluster-wide: objects of earlier tests are reconciled too.
          if (req.namespace === ns) count++;
          return {};
        },
      });
    const m = run(mgr);
    try {
      const app = await mgr.client.create(appCluster(ns, "p"));
      await eventually(() => expect(count).toBe(1), { timeout: 5000 });
      app.status = { ready: 3 };
      await mgr.client.status().update(app);
      app.spec.size = 2;
      await mgr.client.update(app);
      await eventually(() => expect(count).toBe(2), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 200));
      expect(count).toBe(2);
    } finally {
      await m.stop();
    }
  });

  it("serves reads of watched kinds from the cache, with label selectors and field indexes", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    mgr.indexField(kinds.Pod, "spec.nodeName", (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    mgr
      .controller(AppClusterKind)
      .owns(kinds.Pod)
      .complete({ reconcile: async () => ({}) });
    const m = run(mgr);
    try {
      const pod = (name: string, node: string, app: string): V1Pod => ({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: ns, labels: { app } },
        spec: { nodeName: node, containers: [{ name: "c", image: "nginx" }] },
      });
      await mgr.client.create(pod("p1", "n1", "web"));
      await mgr.client.create(pod("p2", "n2", "web"));
      await mgr.client.create(pod("p3", "n1", "db"));
      await eventually(
        async () => expect(await mgr.client.list(kinds.Pod, { namespace: ns })).toHaveLength(3),
        {
          timeout: 5000,
        },
      );
      const gets = await metric(mgr, "rest_client_requests_total", { method: "GET", code: "200" });
      const web = await mgr.client.list(kinds.Pod, {
        namespace: ns,
        labelSelector: { app: "web" },
      });
      expect(web.map((p) => p.metadata?.name).sort()).toEqual(["p1", "p2"]);
      const onN1 = await mgr.client.list(kinds.Pod, {
        namespace: ns,
        matchingFields: { "spec.nodeName": "n1" },
      });
      expect(onN1.map((p) => p.metadata?.name).sort()).toEqual(["p1", "p3"]);
      const webOnN1 = await mgr.client.list(kinds.Pod, {
        namespace: ns,
        labelSelector: "app in (web)",
        matchingFields: { "spec.nodeName": "n1" },
      });
      expect(webOnN1.map((p) => p.metadata?.name)).toEqual(["p1"]);
      const byField = await mgr.client.list(kinds.Pod, {
        namespace: ns,
        fieldSelector: "spec.nodeName=n2,metadata.name!=p9",
      });
      expect(byField.map((p) => p.metadata?.name)).toEqual(["p2"]);
      const p1 = await mgr.client.get(kinds.Pod, { namespace: ns, name: "p1" });
      expect(p1.kind).toBe("Pod");
      expect(p1.metadata?.managedFields).toBeUndefined();
      // Mutating what the cache returned does not change the cache.
      p1.metadata!.labels!.app = "changed";
      expect(
        (await mgr.client.get(kinds.Pod, { namespace: ns, name: "p1" })).metadata?.labels?.app,
      ).toBe("web");
      // None of these reads reached the API server.
      expect(await metric(mgr, "rest_client_requests_total", { method: "GET", code: "200" })).toBe(
        gets,
      );
      // An uncached read does.
      const live = await mgr.client.get(
        kinds.Pod,
        { namespace: ns, name: "p1" },
        { uncached: true },
      );
      expect(live.metadata?.managedFields?.length).toBeGreaterThan(0);
      expect(await metric(mgr, "rest_client_requests_total", { method: "GET", code: "200" })).toBe(
        (gets ?? 0) + 1,
      );
      await expect(
        mgr.client.get(kinds.Pod, { namespace: ns, name: "nope" }),
      ).rejects.toMatchObject({
        code: 404,
        reason: "NotFound",
      });
    } finally {
      await m.stop();
    }
  });

  it("retries a reconcile that hit a conflict until it succeeds", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    let attempts = 0;
    let conflicts = 0;
    mgr.controller(AppClusterKind).complete({
      reconcile: async (req) => {
        attempts++;
        const app = await mgr.client.get(AppClusterKind, req).catch(ignoreNotFound);
        if (!app || app.status?.ready === app.spec.size) return {};
        app.status = { ready: app.spec.size };
        try {
          await mgr.client.status().update(app);
        } catch (err) {
          if (isConflict(err)) conflicts++;
          throw err;
        }
        return {};
      },
    });
    const m = run(mgr);
    try {
      env.faults.failNext({ verb: "update", resource: "appclusters/status", code: 409, count: 2 });
      await mgr.client.create(appCluster(ns, "c", 3));
      await eventually(
        async () =>
          expect(
            (await mgr.client.get(AppClusterKind, { namespace: ns, name: "c" })).status?.ready,
          ).toBe(3),
        { timeout: 5000 },
      );
      expect(conflicts).toBe(2);
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(
        await metric(mgr, "controller_runtime_reconcile_errors_total", {
          controller: "appcluster",
        }),
      ).toBe(2);
    } finally {
      env.faults.reset();
      await m.stop();
    }
  });

  it("makes zero writes on a full resync of unchanged objects", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    let reconciles = 0;
    mgr
      .controller(AppClusterKind)
      .owns(kinds.ConfigMap)
      .complete({
        reconcile: async (req) => {
          reconciles++;
          const app = await mgr.client.get(AppClusterKind, req).catch(ignoreNotFound);
          if (!app) return {};
          const cm: V1ConfigMap = {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: req.name, namespace: req.namespace },
          };
          await createOrUpdate(mgr.client, cm, (c) => {
            c.data = { size: String(app.spec.size) };
            setControllerReference(app, c);
          });
          if (app.status?.ready !== app.spec.size) {
            app.status = { ...app.status, ready: app.spec.size };
            await mgr.client.status().update(app);
          }
          return {};
        },
      });
    const m = run(mgr);
    try {
      for (let i = 0; i < 20; i++) await mgr.client.create(appCluster(ns, `r${i}`, i));
      await eventually(
        async () => {
          const all = await mgr.client.list(AppClusterKind, { namespace: ns });
          expect(all.filter((a) => a.status?.ready === a.spec.size)).toHaveLength(20);
          const owned = (await mgr.client.list(kinds.ConfigMap, { namespace: ns })).filter(
            (c) => c.metadata?.ownerReferences?.length,
          );
          expect(owned).toHaveLength(20);
        },
        { timeout: 10_000 },
      );
      // Let trailing reconciles (status writes come back as events) settle.
      await new Promise((r) => setTimeout(r, 300));
      const before = await writes(mgr);
      const reconcilesBefore = reconciles;
      mgr.cache.informerFor(AppClusterKind).resync();
      mgr.cache.informerFor(kinds.ConfigMap).resync();
      await eventually(() => expect(reconciles).toBeGreaterThanOrEqual(reconcilesBefore + 20), {
        timeout: 5000,
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(await writes(mgr)).toBe(before);
    } finally {
      await m.stop();
    }
  });

  it("serves /healthz, /readyz (after sync) and /metrics with controller-runtime's names", async () => {
    const mgr = newManager(env, {
      metricsBindAddress: "127.0.0.1:0",
      healthProbeBindAddress: "127.0.0.1:0",
    });
    let failing = true;
    mgr.addReadyzCheck("custom", () => {
      if (failing) throw new Error("not yet");
    });
    mgr.controller(AppClusterKind).complete({ reconcile: async () => ({}) });
    const m = run(mgr);
    try {
      await mgr.elected;
      const probe = `http://127.0.0.1:${mgr.ports.healthProbe}`;
      expect((await fetch(`${probe}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${probe}/readyz`);
      expect(notReady.status).toBe(500);
      expect(await notReady.text()).toContain("[-]custom failed: not yet");
      failing = false;
      const ready = await fetch(`${probe}/readyz?verbose`);
      expect(ready.status).toBe(200);
      expect(await ready.text()).toContain("[+]informer-sync ok");
      expect((await fetch(`${probe}/readyz/custom`)).status).toBe(200);
      const text = await (await fetch(`http://127.0.0.1:${mgr.ports.metrics}/metrics`)).text();
      for (const name of [
        'controller_runtime_reconcile_total{controller="appcluster",result="success"}',
        'controller_runtime_reconcile_total{controller="appcluster",result="requeue_after"}',
        'controller_runtime_reconcile_errors_total{controller="appcluster"}',
        'controller_runtime_terminal_reconcile_errors_total{controller="appcluster"}',
        'controller_runtime_reconcile_panics_total{controller="appcluster"}',
        'controller_runtime_max_concurrent_reconciles{controller="appcluster"} 1',
        'controller_runtime_active_workers{controller="appcluster"}',
        "controller_runtime_reconcile_time_seconds_bucket",
        'workqueue_depth{name="appcluster",controller="appcluster",priority=""}',
        'workqueue_adds_total{name="appcluster",controller="appcluster"}',
        'workqueue_retries_total{name="appcluster",controller="appcluster"}',
        "workqueue_unfinished_work_seconds",
        "workqueue_longest_running_processor_seconds",
        "rest_client_requests_total{",
        "rest_client_request_duration_seconds_bucket",
        "process_cpu_seconds_total",
      ]) {
        expect(text).toContain(name);
      }
    } finally {
      await m.stop();
    }
  });

  it("drains in-flight reconciles on stop and fails start when caches do not sync in time", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    let finished = 0;
    let started = 0;
    mgr
      .controller(AppClusterKind)
      .options({ maxConcurrentReconciles: 2 })
      .complete({
        reconcile: async () => {
          started++;
          await new Promise((r) => setTimeout(r, 300));
          finished++;
          return {};
        },
      });
    const m = run(mgr);
    await mgr.client.create(appCluster(ns, "d1"));
    await mgr.client.create(appCluster(ns, "d2"));
    await eventually(() => expect(started).toBe(2), { timeout: 5000 });
    await m.stop();
    expect(finished).toBe(2);

    const slow = newManager(env, { cacheSyncTimeoutMs: 200 });
    slow.controller(AppClusterKind).complete({ reconcile: async () => ({}) });
    env.faults.delay(500);
    try {
      await expect(run(slow).done).rejects.toThrow(
        /timed out after 200 ms waiting for caches to sync: AppCluster/,
      );
    } finally {
      env.faults.reset();
    }
  });

  it("watches only the configured namespaces", async () => {
    const setup = newManager(env);
    const inside = await namespace(setup);
    const outside = await namespace(setup);
    const mgr = newManager(env, { namespaces: [inside] });
    const seen: string[] = [];
    mgr.controller(AppClusterKind).complete({
      reconcile: async (req) => {
        seen.push(`${req.namespace}/${req.name}`);
        return {};
      },
    });
    const m = run(mgr);
    try {
      await mgr.elected;
      await setup.apiReader.create(appCluster(outside, "out"));
      await setup.apiReader.create(appCluster(inside, "in"));
      await eventually(() => expect(seen).toContain(`${inside}/in`), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen.filter((s) => !s.startsWith(`${inside}/`))).toEqual([]);
      expect((await mgr.client.list(AppClusterKind)).map((a) => a.metadata?.namespace)).toEqual([
        inside,
      ]);
    } finally {
      await m.stop();
    }
  });

  it("scopes a kind's informer by label selector (byObject)", async () => {
    const mgr = newManager(env, {
      cache: { byObject: byObject(kinds.ConfigMap, { labelSelector: "managed-by=us" }) },
    });
    const ns = await namespace(mgr);
    const seen: string[] = [];
    mgr
      .controller(AppClusterKind)
      .watches(kinds.ConfigMap, (cm) => {
        seen.push(cm.metadata?.name ?? "");
        return [];
      })
      .complete({ reconcile: async () => ({}) });
    const m = run(mgr);
    try {
      await mgr.elected;
      await mgr.client.create({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "theirs", namespace: ns },
      });
      await mgr.client.create({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "ours", namespace: ns, labels: { "managed-by": "us" } },
      });
      await eventually(() => expect(seen).toContain("ours"), { timeout: 5000 });
      expect(seen).not.toContain("theirs");
      // The cache holds only what the selector matched.
      expect(
        (await mgr.client.list(kinds.ConfigMap, { namespace: ns })).map((c) => c.metadata?.name),
      ).toEqual(["ours"]);
    } finally {
      await m.stop();
    }
  });

  it("watches owned objects metadata-only: owner mapping works, the cache holds no data", async () => {
    const mgr = newManager(env);
    const ns = await namespace(mgr);
    const seen: string[] = [];
    mgr
      .controller(AppClusterKind)
      .owns(kinds.Secret, { metadataOnly: true })
      .complete({
        reconcile: async (req) => {
          if (req.namespace === ns) seen.push(req.name);
          return {};
        },
      });
    const m = run(mgr);
    try {
      await mgr.elected;
      const app = await mgr.client.create(appCluster(ns, "meta"));
      await eventually(() => expect(seen).toEqual(["meta"]), { timeout: 5000 });
      const secret = {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "s", namespace: ns, labels: { role: "creds" } },
        stringData: { password: "hunter2" },
      };
      setControllerReference(app, secret);
      await mgr.client.create(secret);
      await eventually(() => expect(seen).toEqual(["meta", "meta"]), { timeout: 5000 });

      // Reads of the metadata informer: from the cache, with apiVersion/kind of the real object.
      const gets = await metric(mgr, "rest_client_requests_total", { method: "GET", code: "200" });
      const listed = await mgr.client.list(kinds.Secret, {
        namespace: ns,
        metadataOnly: true,
        labelSelector: "role=creds",
      });
      expect(listed).toHaveLength(1);
      expect(listed[0]).toEqual({
        apiVersion: "v1",
        kind: "Secret",
        metadata: expect.objectContaining({ name: "s", namespace: ns, labels: { role: "creds" } }),
      });
      expect(Object.keys(listed[0] ?? {})).toEqual(["apiVersion", "kind", "metadata"]);
      const one = await mgr.client.get(
        kinds.Secret,
        { namespace: ns, name: "s" },
        { metadataOnly: true },
      );
      expect(one.metadata?.ownerReferences?.[0]?.name).toBe("meta");
      expect(await metric(mgr, "rest_client_requests_total", { method: "GET", code: "200" })).toBe(
        gets,
      );
      // The full kind is not cached: a full read goes to the API server and has the data.
      const full = await mgr.client.get(kinds.Secret, { namespace: ns, name: "s" });
      expect(full.data?.password).toBe(Buffer.from("hunter2").toString("base64"));
      // An uncached metadata read asks the server for PartialObjectMetadata.
      const live = await mgr.client.get(
        kinds.Secret,
        { namespace: ns, name: "s" },
        { metadataOnly: true, uncached: true },
      );
      expect(Object.keys(live)).toEqual(["apiVersion", "kind", "metadata"]);
      expect(live.kind).toBe("Secret");
    } finally {
      await m.stop();
    }
  });
});
