/**
 * The cache side of read-your-writes: an informer meets an expectation from its event stream
 * (the written version or a later one, the object's deletion, a relist past the write), never
 * from another object's events or an older version, and releases every waiter when it stops.
 */
import { describe, expect, it } from "vitest";
import { Cache } from "../../src/cache/cache.js";
import {
  type Expectation,
  ExpectationIndex,
  resourceVersionAtLeast,
  type WrittenObject,
} from "../../src/cache/expectation.js";
import { SharedInformer } from "../../src/cache/informer.js";
import { restListerWatcher } from "../../src/cache/listwatch.js";
import { byObject, type KubeObject, kinds } from "../../src/index.js";
import { FakeApi } from "./fake-api.js";

const cm = (name: string, data: Record<string, string> = {}, ns = "ns"): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns }, data }) as KubeObject;

/** What the client would record for the server's answer `obj`. */
const written = (obj: KubeObject): Omit<WrittenObject, "kind"> => ({
  namespace: obj.metadata?.namespace,
  name: obj.metadata?.name ?? "",
  uid: obj.metadata?.uid ?? "",
  resourceVersion: obj.metadata?.resourceVersion,
});

/** Lets promise chains (the informer's watcher) run. */
const flush = () => new Promise((r) => setImmediate(r));

async function informer(api = new FakeApi()) {
  const inf = new SharedInformer(
    kinds.ConfigMap,
    [{ lw: restListerWatcher(api.rest, kinds.ConfigMap, {}) }],
    { initialBackoffMs: 1, maxBackoffMs: 1 },
  );
  const stop = new AbortController();
  const running = inf.run(stop.signal);
  await inf.waitForSync();
  await flush();
  return { api, inf, stop, running };
}

describe("resourceVersionAtLeast", () => {
  it("is certain of equality and orders only integers", () => {
    expect(resourceVersionAtLeast("12", "12")).toBe(true);
    expect(resourceVersionAtLeast("13", "12")).toBe(true);
    expect(resourceVersionAtLeast("100", "99")).toBe(true);
    expect(resourceVersionAtLeast("99", "100")).toBe(false);
    expect(resourceVersionAtLeast("abc", "abc")).toBe(true);
    expect(resourceVersionAtLeast("abd", "abc")).toBe(false);
    expect(resourceVersionAtLeast(undefined, "1")).toBe(false);
  });
});

describe("SharedInformer.expect", () => {
  it("is met by the event carrying the write, not by other objects or older versions", async () => {
    const { api, inf, stop, running } = await informer();
    api.put("configmaps", cm("x", { v: "0" }));
    await flush();
    api.hold = true;
    api.put("configmaps", cm("x", { v: "1" })); // another writer, earlier than ours
    api.put("configmaps", cm("y"));
    const ours = api.put("configmaps", cm("x", { v: "2" }));
    const e = inf.expect(written(ours));
    api.deliverNext();
    api.deliverNext();
    expect(e.outcome).toBeUndefined();
    expect(inf.store.get("ns/x")?.metadata?.resourceVersion).not.toBe(
      ours.metadata?.resourceVersion,
    );
    api.deliverNext();
    expect(e.outcome).toBe("observed");
    expect(e.write.kind).toBe("ConfigMap");
    stop.abort();
    await running;
  });

  it("is met at once when the store already shows the write or a later version", async () => {
    const { api, inf, stop, running } = await informer();
    const first = api.put("configmaps", cm("x", { v: "1" }));
    api.put("configmaps", cm("x", { v: "2" }));
    expect(inf.expect(written(first)).outcome).toBe("observed");
    stop.abort();
    await running;
  });

  it("is met by the deletion of the object, not of an earlier one of the same name", async () => {
    const { api, inf, stop, running } = await informer();
    api.put("configmaps", cm("x"));
    api.hold = true;
    api.remove("configmaps", "ns", "x");
    const recreated = api.put("configmaps", cm("x"));
    const e = inf.expect(written(recreated));
    api.deliverNext(); // the old x's DELETED: another uid
    expect(e.outcome).toBeUndefined();
    api.deliverNext();
    expect(e.outcome).toBe("observed");

    const goneOnly = inf.expect({ ...written(recreated), resourceVersion: undefined });
    api.put("configmaps", cm("x", { v: "3" }));
    api.deliverNext(); // a newer version does not show a deletion
    expect(goneOnly.outcome).toBeUndefined();
    api.remove("configmaps", "ns", "x");
    api.deliverNext();
    expect(goneOnly.outcome).toBe("observed");
    stop.abort();
    await running;
  });

  it("is met by a relist that shows the write, or that is past it after the object went", async () => {
    const { api, inf, stop, running } = await informer();
    api.hold = true;
    const shown = inf.expect(written(api.put("configmaps", cm("x"))));
    const deleted = inf.expect(written(api.put("configmaps", cm("y"))));
    api.remove("configmaps", "ns", "y"); // by someone else, before the informer saw y at all
    api.hold = false;
    api.expireWatches(); // the held events are lost: only the relist can tell
    while (shown.outcome === undefined || deleted.outcome === undefined) await flush();
    expect([shown.outcome, deleted.outcome]).toEqual(["observed", "observed"]);
    expect(inf.store.get("ns/x")).toBeDefined();
    stop.abort();
    await running;
  });

  it("releases every waiter with 'stopped' when the informer stops", async () => {
    const { api, inf, stop, running } = await informer();
    api.hold = true;
    const e = inf.expect(written(api.put("configmaps", cm("x"))));
    stop.abort();
    await running;
    expect(e.outcome).toBe("stopped");
    expect(inf.expect(written(api.put("configmaps", cm("z")))).outcome).toBe("stopped");
  });
});

describe("ExpectationIndex.relisted", () => {
  const w = (rv: string | undefined, ns = "a"): WrittenObject => ({
    kind: "ConfigMap",
    namespace: ns,
    name: "x",
    uid: "u1",
    resourceVersion: rv,
  });
  const obj = (rv: string, uid = "u1", ns = "a"): KubeObject => ({
    metadata: { name: "x", namespace: ns, uid, resourceVersion: rv },
  });

  it("keeps waiting for a write newer than the list, which the watch then delivers", () => {
    const idx = new ExpectationIndex();
    const e = idx.add(w("7"), undefined);
    idx.relisted("a", "5", () => undefined);
    expect(e.outcome).toBeUndefined();
    idx.applied(obj("6"));
    expect(e.outcome).toBeUndefined();
    idx.applied(obj("7"));
    expect(e.outcome).toBe("observed");
    expect(idx.size).toBe(0);
  });

  it("touches only the relisted source's namespace", () => {
    const idx = new ExpectationIndex();
    const e = idx.add(w("7", "a"), undefined);
    idx.relisted("b", "9", () => undefined);
    expect(e.outcome).toBeUndefined();
    idx.relisted(undefined, "9", () => undefined);
    expect(e.outcome).toBe("observed");
  });

  it("does not wait on versions it cannot order, nor on a deletion it cannot place", () => {
    const idx = new ExpectationIndex();
    const opaque = idx.add(w("b7"), undefined);
    const gone = idx.add({ ...w(undefined), name: "y" }, undefined);
    idx.relisted("a", "b9", () => undefined);
    expect([opaque.outcome, gone.outcome]).toEqual(["observed", "observed"]);
  });

  it("forgets an expectation that expired", () => {
    const idx = new ExpectationIndex();
    const e: Expectation = idx.add(w("7"), undefined);
    e.expire();
    expect(e.outcome).toBe("expired");
    expect(idx.size).toBe(0);
    idx.applied(obj("7"));
    expect(e.outcome).toBe("expired");
  });
});

describe("Cache.beginWrite / expectWrite", () => {
  it("expects a write on each synced informer of the kind whose scope holds the object", async () => {
    const api = new FakeApi();
    const cache = new Cache(api.rest, {
      byObject: byObject(kinds.ConfigMap, { namespaces: ["ns"], labelSelector: "team=a" }),
    });
    cache.informerFor(kinds.ConfigMap);
    cache.informerFor(kinds.ConfigMap, { metadataOnly: true });
    expect(cache.beginWrite(kinds.ConfigMap)).toBeUndefined(); // not synced: reads go to the API
    const stop = new AbortController();
    cache.start(stop.signal);
    await cache.waitForSync(1000);
    expect(cache.beginWrite(kinds.Secret)).toBeUndefined();
    /** The client's sequence: begin, send, expect from the answer, end. */
    const write = (obj: KubeObject) => {
      const flight = cache.beginWrite(kinds.ConfigMap)!;
      try {
        return cache.expectWrite(kinds.ConfigMap, api.put("configmaps", obj), flight);
      } finally {
        flight.end();
      }
    };
    const labelled = (name: string, team: string, ns = "ns") => {
      const o = cm(name, {}, ns);
      o.metadata!.labels = { team };
      return o;
    };
    api.hold = true;
    const inScope = write(labelled("a", "a"));
    expect(inScope.map((e) => e.outcome)).toEqual([undefined, undefined]);
    // Outside the selector or the namespaces: never shown, so nothing to wait for.
    expect(write(labelled("b", "b"))).toEqual([]);
    expect(write(labelled("c", "a", "other"))).toEqual([]);
    api.deliverAll();
    expect(inScope.map((e) => e.outcome)).toEqual(["observed", "observed"]);
    // An object the cache holds that a write moves out of the selector: the watch says DELETED.
    const moved = write(labelled("a", "b"));
    expect(moved).toHaveLength(2);
    stop.abort();
    await cache.stopped();
    expect(moved.map((e) => e.outcome)).toEqual(["stopped", "stopped"]);
  });

  it("meets a deletion whose watch event overtook the write's answer", async () => {
    const api = new FakeApi();
    const cache = new Cache(api.rest);
    const inf = cache.informerFor(kinds.ConfigMap);
    const stop = new AbortController();
    cache.start(stop.signal);
    await cache.waitForSync(1000);
    await flush();
    const x = api.put("configmaps", cm("x"));
    const y = api.put("configmaps", cm("y"));
    const flight = cache.beginWrite(kinds.ConfigMap)!;
    const other = cache.beginWrite(kinds.ConfigMap)!; // a concurrent write keeps the log open
    api.remove("configmaps", "ns", "x"); // delivered at once: before the answer is processed
    expect(inf.store.get("ns/x")).toBeUndefined();
    const answer = { metadata: { name: "x", namespace: "ns", uid: x.metadata?.uid } };
    expect(cache.expectWrite(kinds.ConfigMap, answer, flight).map((e) => e.outcome)).toEqual([
      "observed",
    ]);
    flight.end();
    flight.end(); // idempotent: the other write is still in flight
    api.remove("configmaps", "ns", "y");
    const late = { metadata: { name: "y", namespace: "ns", uid: y.metadata?.uid } };
    expect(cache.expectWrite(kinds.ConfigMap, late, other).map((e) => e.outcome)).toEqual([
      "observed",
    ]);
    other.end();
    // A deletion before the write began is not this write's: an earlier object of that name.
    const z = api.put("configmaps", cm("z"));
    api.remove("configmaps", "ns", "z");
    const after = cache.beginWrite(kinds.ConfigMap)!;
    const stale = { metadata: { name: "z", namespace: "ns", uid: z.metadata?.uid } };
    expect(cache.expectWrite(kinds.ConfigMap, stale, after).map((e) => e.outcome)).toEqual([
      undefined,
    ]);
    after.end();
    stop.abort();
    await cache.stopped();
  });
});
