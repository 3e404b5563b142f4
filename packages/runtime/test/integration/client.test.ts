/**
 * The client's write paths and the controllerutil helpers against the API server: create/update
 * write-back, merge/JSON/strategic patches, server-side apply with the field owner,
 * createOrUpdate/createOrPatch (no write when unchanged), deletes, kind discovery, events.
 */
import type { V1ConfigMap, V1Deployment } from "@kubernetes/client-node";
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrPatch,
  createOrUpdate,
  defineKind,
  ignoreNotFound,
  isAlreadyExists,
  isNotFound,
  type KubeObject,
  kinds,
  type Manager,
} from "../../src/index.js";
import { namespace, newManager, startEnv } from "./helpers.js";

let env: TestEnv;
let mgr: Manager;
let ns: string;
beforeAll(async () => {
  env = await startEnv();
  mgr = newManager(env, { fieldOwner: "test-operator" });
  ns = await namespace(mgr);
});
afterAll(async () => {
  await env?.stop();
});

async function writes(): Promise<number> {
  const m = await mgr.metrics.registry.getSingleMetric("rest_client_requests_total")?.get();
  return (m?.values ?? [])
    .filter((v) => v.labels.method !== "GET")
    .reduce((a, v) => a + v.value, 0);
}

const cm = (name: string, data?: Record<string, string>): V1ConfigMap => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: ns },
  ...(data ? { data } : {}),
});

describe("client", () => {
  it("writes the server's answer back into the object and maps errors", async () => {
    const obj = cm("wb", { a: "1" });
    const res = await mgr.client.create(obj);
    expect(res).toBe(obj);
    expect(obj.metadata?.uid).toBeTruthy();
    const rv = obj.metadata?.resourceVersion;
    obj.data = { a: "2" };
    await mgr.client.update(obj);
    expect(obj.metadata?.resourceVersion).not.toBe(rv);
    await expect(mgr.client.create(cm("wb"))).rejects.toSatisfy(isAlreadyExists);
    await expect(
      mgr.client.get(kinds.ConfigMap, { namespace: ns, name: "missing" }),
    ).rejects.toSatisfy(isNotFound);
    expect(
      await mgr.client
        .get(kinds.ConfigMap, { namespace: ns, name: "missing" })
        .catch(ignoreNotFound),
    ).toBeUndefined();
    await expect(
      mgr.client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } }),
    ).rejects.toThrow(/namespaced: metadata.namespace is required/);
  });

  it("patches with merge, JSON and strategic merge patches", async () => {
    const obj = await mgr.client.create(cm("p", { a: "1", b: "2" }));
    await mgr.client.patch(obj, { data: { b: null, c: "3" } });
    expect(obj.data).toEqual({ a: "1", c: "3" });
    await mgr.client.patch(obj, [{ op: "replace", path: "/data/a", value: "9" }], { type: "json" });
    expect(obj.data?.a).toBe("9");
    const dep: V1Deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "sp", namespace: ns },
      spec: {
        selector: { matchLabels: { app: "sp" } },
        template: {
          metadata: { labels: { app: "sp" } },
          spec: {
            containers: [
              { name: "a", image: "a:1" },
              { name: "b", image: "b:1" },
            ],
          },
        },
      },
    };
    await mgr.client.create(dep);
    // Strategic merge: containers merge by name instead of being replaced.
    await mgr.client.patch(
      dep,
      { spec: { template: { spec: { containers: [{ name: "b", image: "b:2" }] } } } },
      {
        type: "strategic",
      },
    );
    expect(dep.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual([
      "a=a:1",
      "b=b:2",
    ]);
  });

  it("applies server-side with the manager's field owner", async () => {
    const applied = await mgr.client.apply(cm("ssa", { k: "v" }));
    expect(applied.data).toEqual({ k: "v" });
    const live = await mgr.client.get(
      kinds.ConfigMap,
      { namespace: ns, name: "ssa" },
      { uncached: true },
    );
    expect(live.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toContainEqual([
      "test-operator",
      "Apply",
    ]);
    // Another manager owning the same field conflicts unless forced.
    await expect(
      mgr.client.apply(cm("ssa", { k: "other" }), { fieldManager: "someone-else" }),
    ).rejects.toMatchObject({
      code: 409,
    });
    await mgr.client.apply(cm("ssa", { k: "other" }), {
      fieldManager: "someone-else",
      force: true,
    });
    expect((await mgr.client.get(kinds.ConfigMap, { namespace: ns, name: "ssa" })).data?.k).toBe(
      "other",
    );
  });

  it("resolves undeclared kinds through discovery", async () => {
    // Not declared with defineKind: the REST mapper asks the server.
    const obj: KubeObject & { spec: object } = {
      apiVersion: "apps.example.com/v1",
      kind: "MyApp",
      metadata: { name: "disc", namespace: ns },
      spec: { image: "x" },
    };
    await mgr.client.create(obj);
    expect(obj.metadata?.uid).toBeTruthy();
    const kind = await mgr.client.kindFor(obj);
    expect(kind).toMatchObject({
      plural: "myapps",
      namespaced: true,
      apiVersion: "apps.example.com/v1",
    });
    await expect(
      mgr.client.create({
        apiVersion: "nope.example.com/v1",
        kind: "Nope",
        metadata: { name: "n", namespace: ns },
      }),
    ).rejects.toThrow();
  });

  it("deletes by object or by kind and key", async () => {
    const a = await mgr.client.create(cm("del-a"));
    await mgr.client.create(cm("del-b"));
    await mgr.client.delete(a, { propagationPolicy: "Background" });
    await mgr.client.delete(kinds.ConfigMap, { namespace: ns, name: "del-b" });
    await expect(
      mgr.client.get(kinds.ConfigMap, { namespace: ns, name: "del-a" }),
    ).rejects.toSatisfy(isNotFound);
    await expect(
      mgr.client.delete(kinds.ConfigMap, { namespace: ns, name: "del-b" }),
    ).rejects.toSatisfy(isNotFound);
    // Preconditions guard against deleting a re-created object of the same name.
    const c = await mgr.client.create(cm("del-c"));
    await expect(
      mgr.client.delete(c, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } }),
    ).rejects.toMatchObject({ code: 409 });
  });
});

describe("createOrUpdate / createOrPatch", () => {
  it("creates, updates, and makes no write when nothing changed", async () => {
    const target = () => cm("cou");
    expect(
      await createOrUpdate(mgr.client, target(), (c) => {
        c.data = { n: "1" };
      }),
    ).toBe("created");
    const w0 = await writes();
    expect(
      await createOrUpdate(mgr.client, target(), (c) => {
        c.data = { n: "1" };
      }),
    ).toBe("unchanged");
    expect(await writes()).toBe(w0);
    const obj = target();
    expect(
      await createOrUpdate(mgr.client, obj, (c) => {
        c.data = { n: "2" };
      }),
    ).toBe("updated");
    expect(obj.data).toEqual({ n: "2" });
    expect(obj.metadata?.uid).toBeTruthy();
    await expect(
      createOrUpdate(mgr.client, target(), (c) => {
        c.metadata!.name = "renamed";
      }),
    ).rejects.toThrow(/cannot mutate object name/);
  });

  it("patches only what changed, status through the status subresource", async () => {
    const Thing = defineKind<
      KubeObject & { spec?: { image?: string }; status?: { ready?: number } }
    >({
      group: "apps.example.com",
      version: "v1",
      kind: "MyApp",
      plural: "myapps",
      namespaced: true,
    });
    const base = () =>
      ({
        apiVersion: Thing.apiVersion,
        kind: Thing.kind,
        metadata: { name: "cop", namespace: ns },
      }) as KubeObject & {
        spec?: { image?: string };
        status?: { availableReplicas?: number };
      };
    expect(
      await createOrPatch(mgr.client, base(), (o) => {
        o.spec = { image: "a" };
      }),
    ).toBe("created");
    const w0 = await writes();
    expect(
      await createOrPatch(mgr.client, base(), (o) => {
        o.spec = { ...o.spec, image: "a" };
      }),
    ).toBe("unchanged");
    expect(await writes()).toBe(w0);
    expect(
      await createOrPatch(mgr.client, base(), (o) => {
        o.status = { availableReplicas: 2 };
      }),
    ).toBe("updatedStatusOnly");
    expect(
      await createOrPatch(mgr.client, base(), (o) => {
        o.spec = { ...o.spec, image: "b" };
        o.status = { availableReplicas: 3 };
      }),
    ).toBe("updatedStatus");
    const live = (await mgr.client.get(Thing, { namespace: ns, name: "cop" })) as ReturnType<
      typeof base
    >;
    expect(live.spec?.image).toBe("b");
    expect(live.status?.availableReplicas).toBe(3);
    expect(
      await createOrPatch(mgr.client, base(), (o) => {
        o.metadata!.labels = { x: "y" };
      }),
    ).toBe("updated");
  });
});

describe("event recorder", () => {
  it("records events.k8s.io/v1 Events and counts repeats in a series", async () => {
    const obj = await mgr.client.create(cm("evt"));
    const rec = mgr.getEventRecorder("test-controller");
    rec.event(obj, "Normal", "Created", "Create", "created the thing");
    await rec.flush();
    rec.event(obj, "Normal", "Created", "Create", "created the thing");
    await rec.flush();
    rec.event(obj, "Warning", "Failed", "Sync", "could not sync");
    await rec.flush();
    const events = await eventually(
      async () => {
        const list = (await mgr.client.list(kinds.EventsV1Event, { namespace: ns })).filter(
          (e) => e.regarding?.name === "evt",
        );
        expect(list).toHaveLength(2);
        return list;
      },
      { timeout: 5000 },
    );
    const created = events.find((e) => e.reason === "Created");
    expect(created).toMatchObject({
      type: "Normal",
      action: "Create",
      note: "created the thing",
      reportingController: "test-controller",
      regarding: { kind: "ConfigMap", name: "evt", namespace: ns, uid: obj.metadata?.uid },
    });
    expect(created?.series?.count).toBe(2);
    expect(created?.reportingInstance).toMatch(/^test-controller-/);
    expect(events.find((e) => e.reason === "Failed")?.type).toBe("Warning");
  });
});
