// Watch semantics of apiserver-spec.md §5 and §12 (2, 6), on the wire and through client-node.
import { CoreV1Api, makeInformer, type V1ConfigMap } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, watchStream } from "./helpers.js";

let env: TestEnv;
const cms = "/api/v1/namespaces/watch/configmaps";
beforeAll(async () => {
  env = await startTestEnv();
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "watch" } });
});
afterAll(async () => {
  await env?.stop();
});

const summary = (events: { type: string; object: { metadata?: { name?: string } } }[]) =>
  events.map((e) => `${e.type}:${e.object.metadata?.name ?? ""}`);

describe("watch", () => {
  it("starts with ADDED for existing objects when resourceVersion is 0 or unset", async () => {
    await api(env, "POST", cms, { metadata: { name: "w0" } });
    const w = await watchStream(env, `${cms}?watch=true&resourceVersion=0`);
    expect(w.status).toBe(200);
    // The namespace's kube-root-ca.crt exists too, as on a cluster.
    await eventually(() =>
      expect(summary(w.events)).toEqual(["ADDED:kube-root-ca.crt", "ADDED:w0"]),
    );
    await api(env, "POST", cms, { metadata: { name: "w1" } });
    await eventually(() =>
      expect(summary(w.events)).toEqual(["ADDED:kube-root-ca.crt", "ADDED:w0", "ADDED:w1"]),
    );
    w.close();
  });

  it("replays events after a resourceVersion and stamps deletions with their own RV", async () => {
    const list = (await api(env, "GET", cms)).body;
    const start = list.metadata.resourceVersion;
    const created = (await api(env, "POST", cms, { metadata: { name: "r1" } })).body;
    await api(env, "PUT", `${cms}/r1`, { ...created, data: { a: "1" } });
    const deleted = await api(env, "DELETE", `${cms}/r1`);
    expect(deleted.body).toMatchObject({
      kind: "Status",
      status: "Success",
      details: { name: "r1", kind: "configmaps" },
    });
    const w = await watchStream(env, `${cms}?watch=1&resourceVersion=${start}`);
    await eventually(() =>
      expect(summary(w.events)).toEqual(["ADDED:r1", "MODIFIED:r1", "DELETED:r1"]),
    );
    const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs[0]).toBeLessThan(rvs[1]!);
    expect(rvs[1]).toBeLessThan(rvs[2]!);
    w.close();
  });

  it("turns selector transitions into ADDED and DELETED", async () => {
    const w = await watchStream(env, `${cms}?watch=true&labelSelector=sel%3Dyes`);
    const c = (await api(env, "POST", cms, { metadata: { name: "t1", labels: { sel: "no" } } }))
      .body;
    const on = (
      await api(env, "PUT", `${cms}/t1`, {
        ...c,
        metadata: { ...c.metadata, labels: { sel: "yes" } },
      })
    ).body;
    const on2 = (await api(env, "PUT", `${cms}/t1`, { ...on, data: { x: "1" } })).body;
    const off = (
      await api(env, "PUT", `${cms}/t1`, {
        ...on2,
        metadata: { ...on2.metadata, labels: { sel: "no" } },
      })
    ).body;
    await eventually(() =>
      expect(summary(w.events)).toEqual(["ADDED:t1", "MODIFIED:t1", "DELETED:t1"]),
    );
    // The DELETED of a transition carries the previous state with the new resourceVersion.
    const last = w.events[2];
    expect(last.object.metadata.labels).toEqual({ sel: "yes" });
    expect(last.object.metadata.resourceVersion).toBe(off.metadata.resourceVersion);
    w.close();
  });

  it("sends ERROR 410 Expired and closes when history is gone", async () => {
    const rv = (await api(env, "GET", cms)).body.metadata.resourceVersion;
    await api(env, "POST", cms, { metadata: { name: "old" } });
    env.faults.expireHistory();
    const w = await watchStream(env, `${cms}?watch=true&resourceVersion=${rv}`);
    expect(w.status).toBe(200);
    await eventually(() => expect(w.ended).toBe(true));
    expect(w.events).toHaveLength(1);
    expect(w.events[0].type).toBe("ERROR");
    expect(w.events[0].object).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Expired",
      code: 410,
    });
    expect(w.events[0].object.message).toMatch(
      new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`),
    );
  });

  it("ends the stream after timeoutSeconds", async () => {
    const w = await watchStream(env, `${cms}?watch=true&timeoutSeconds=1`);
    await eventually(() => expect(w.ended).toBe(true), { timeout: 3000 });
  });

  it("supports sendInitialEvents with the initial-events-end bookmark", async () => {
    const bad = await api(env, "GET", `${cms}?watch=true&sendInitialEvents=true`);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    const w = await watchStream(
      env,
      `${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    await eventually(() => expect(w.events.at(-1)?.type).toBe("BOOKMARK"));
    expect(w.events.at(-1).object.metadata.annotations).toEqual({
      "k8s.io/initial-events-end": "true",
    });
    expect(w.events.slice(0, -1).every((e) => e.type === "ADDED")).toBe(true);
    w.close();
  });

  it("streams Table rows with column definitions only in the first event", async () => {
    const w = await watchStream(
      env,
      `${cms}?watch=true`,
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    );
    await eventually(() => expect(w.events.length).toBeGreaterThan(1));
    expect(w.events[0].object.kind).toBe("Table");
    expect(w.events[0].object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      "Name",
      "Data",
      "Age",
    ]);
    expect(w.events[1].object.columnDefinitions).toBeUndefined();
    expect(w.events[1].object.rows).toHaveLength(1);
    w.close();
  });
});

describe("metadata-only clients", () => {
  it("serves PartialObjectMetadata for gets, lists and watches", async () => {
    const accept =
      "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    const list = await api(env, "GET", cms, undefined, { accept });
    expect(list.body.kind).toBe("PartialObjectMetadataList");
    expect(list.body.apiVersion).toBe("meta.k8s.io/v1");
    expect(list.body.items[0]).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: expect.objectContaining({ name: expect.any(String), namespace: "watch" }),
    });
    const one = await api(env, "GET", `${cms}/w0`, undefined, {
      accept: "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    });
    expect(one.body).toMatchObject({ kind: "PartialObjectMetadata", metadata: { name: "w0" } });
    expect(one.body.data).toBeUndefined();
    const w = await watchStream(env, `${cms}?watch=true`, accept);
    await eventually(() => expect(w.events.length).toBeGreaterThan(0));
    expect(w.events[0].object.kind).toBe("PartialObjectMetadata");
    w.close();
  });
});

describe("client-node informer", () => {
  it("relists after 410 and re-watches after the server closes watches", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "inf" } } });
    const informer = makeInformer<V1ConfigMap>(
      env.kubeconfig,
      "/api/v1/namespaces/inf/configmaps",
      () => core.listNamespacedConfigMap({ namespace: "inf" }),
    );
    const seen = new Set<string>();
    const deleted = new Set<string>();
    informer.on("add", (o) => seen.add(o.metadata!.name!));
    informer.on("delete", (o) => deleted.add(o.metadata!.name!));
    await informer.start();
    await core.createNamespacedConfigMap({ namespace: "inf", body: { metadata: { name: "a" } } });
    await eventually(() => expect(seen.has("a")).toBe(true));

    // A dropped watch: client-node re-watches from its last resourceVersion.
    env.faults.dropWatches();
    await core.createNamespacedConfigMap({ namespace: "inf", body: { metadata: { name: "b" } } });
    await eventually(() => expect(seen.has("b")).toBe(true));

    // Expired history: the next watch gets ERROR 410, the informer relists and sees the delete.
    env.faults.expireHistory();
    env.faults.dropWatches();
    await core.deleteNamespacedConfigMap({ namespace: "inf", name: "a" });
    await core.createNamespacedConfigMap({ namespace: "inf", body: { metadata: { name: "c" } } });
    await eventually(() => {
      expect(seen.has("c")).toBe(true);
      expect(deleted.has("a")).toBe(true);
    });
    expect(
      informer
        .list()
        .map((o) => o.metadata!.name)
        .sort(),
    ).toEqual(["b", "c", "kube-root-ca.crt"]);
    await informer.stop();
  });
});
