/**
 * Read-your-writes end to end in one process: a reconcile writes through the manager's client,
 * the fake API holds the watch events, and the next reconcile of the same key (requeue,
 * requeueAfter, or an event) waits until the informer delivers them, or the timeout passes,
 * while other keys run on the same single worker. Fake timers drive every delay.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cache } from "../../src/cache/cache.js";
import { CachedClient } from "../../src/client/client.js";
import { RestMapper } from "../../src/client/mapper.js";
import {
  Controller,
  createLogger,
  type KubeObject,
  kinds,
  type Request,
  type Result,
  RuntimeMetrics,
} from "../../src/index.js";
import { FakeApi } from "./fake-api.js";

const cm = (name: string, data: Record<string, string> = {}, ns = "ns"): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns }, data }) as KubeObject;

type Step = (req: Request, pass: number) => Promise<Result> | Result;

async function setup(opts: { timeoutMs?: number; namespaces?: string[] } = {}) {
  const api = new FakeApi();
  const cache = new Cache(api.rest, { namespaces: opts.namespaces });
  cache.informerFor(kinds.ConfigMap);
  cache.informerFor(kinds.Pod);
  const stop = new AbortController();
  const cacheStop = new AbortController();
  cache.start(cacheStop.signal);
  await cache.waitForSync(1000);
  const client = new CachedClient(api.rest, new RestMapper(api.rest), cache);
  const metrics = new RuntimeMetrics({ processMetrics: false });
  const lines: string[] = [];
  const passes: Record<string, number> = {};
  let step: Step = () => ({});
  const c = new Controller(
    "things",
    {
      reconcile: async (req) => {
        passes[req.name] = (passes[req.name] ?? 0) + 1;
        return step(req, passes[req.name]);
      },
    },
    {
      maxConcurrentReconciles: 1,
      backoff: { baseDelayMs: 1, maxDelayMs: 1 },
      expectationTimeoutMs: opts.timeoutMs,
    },
    {
      log: createLogger({ write: (l) => lines.push(l), level: "debug" }),
      metrics: (name, max, q) => metrics.forController(name, max, () => q.stats()),
    },
  );
  const running = c.start(stop.signal);
  const timeouts = async () =>
    (await metrics.registry.getSingleMetric("controller_runtime_expectation_timeouts_total")?.get())
      ?.values[0]?.value;
  return {
    api,
    cache,
    client,
    c,
    lines,
    passes,
    timeouts,
    set step(s: Step) {
      step = s;
    },
    names: async (ns = "ns") =>
      (await client.list(kinds.ConfigMap, { namespace: ns })).map((o) => o.metadata?.name),
    stopCache: async () => {
      cacheStop.abort();
      await cache.stopped();
    },
    stop: async () => {
      stop.abort();
      await running;
      cacheStop.abort();
      await cache.stopped();
    },
  };
}

const tick = (ms = 10) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("read-your-writes", () => {
  it("holds a requeue until the informer delivers its create; other keys run meanwhile", async () => {
    const t = await setup();
    const seen: unknown[] = [];
    t.step = async (req, pass) => {
      if (req.name !== "a") return {};
      if (pass === 1) {
        await t.client.create(cm("made"));
        return { requeue: true };
      }
      seen.push(await t.names());
      return {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(100);
    expect(t.passes.a).toBe(1);
    // The parked key holds no worker: the single worker reconciles another key at once.
    t.c.enqueue({ namespace: "ns", name: "b" });
    await tick(1);
    expect(t.passes.b).toBe(1);
    t.api.deliverAll();
    await tick(1);
    expect(t.passes.a).toBe(2);
    expect(seen).toEqual([["made"]]);
    expect(await t.timeouts()).toBe(0);
    await t.stop();
  });

  it.each([
    ["the deleted object", false],
    ["a Status", true],
  ])("holds it until the informer delivers a deletion answered with %s", async (_, status) => {
    const t = await setup();
    t.api.put("configmaps", cm("old"));
    await tick(1);
    t.api.hold = true;
    t.api.statusDeletes = status;
    const seen: unknown[] = [];
    t.step = async (_req, pass) => {
      if (pass === 1) {
        await t.client.delete(kinds.ConfigMap, { namespace: "ns", name: "old" });
        return { requeueAfterMs: 50 };
      }
      seen.push(await t.names());
      return {};
    };
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(200);
    expect(t.passes.a).toBe(1);
    t.api.deliverAll();
    await tick(1);
    expect(seen).toEqual([[]]);
    await t.stop();
  });

  it.each([
    [
      "update",
      (t: Awaited<ReturnType<typeof setup>>, o: KubeObject) =>
        t.client.update({ ...o, data: { v: "ours" } } as KubeObject),
    ],
    [
      "merge patch",
      (t: Awaited<ReturnType<typeof setup>>, o: KubeObject) =>
        t.client.patch(o, { data: { v: "ours" } }),
    ],
    [
      "server-side apply",
      (t: Awaited<ReturnType<typeof setup>>, _o: KubeObject) =>
        t.client.apply({ ...cm("x"), data: { v: "ours" } } as KubeObject),
    ],
  ])("holds it past older events until the informer delivers its %s", async (_, write) => {
    const t = await setup();
    t.api.put("configmaps", cm("x", { v: "0" }));
    await tick(1);
    t.api.hold = true;
    t.api.put("configmaps", cm("x", { v: "theirs" })); // an earlier write by someone else
    const seen: unknown[] = [];
    t.step = async (_req, pass) => {
      const x = await t.client.get(kinds.ConfigMap, { namespace: "ns", name: "x" });
      if (pass === 1) {
        await write(t, x);
        return { requeue: true };
      }
      seen.push(x.data?.v);
      return {};
    };
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(100);
    t.api.deliverNext(); // their version: not ours yet
    await tick(100);
    expect(t.passes.a).toBe(1);
    t.api.deliverNext();
    await tick(1);
    expect(seen).toEqual(["ours"]);
    await t.stop();
  });

  it.each([
    ["the deleted object", false],
    ["a Status", true],
  ])("runs at once when the deletion (answered with %s) overtook the answer", async (_, status) => {
    const t = await setup();
    t.api.put("configmaps", cm("old"));
    await tick(1);
    t.api.statusDeletes = status; // events go out before the answer, as they may on a real server
    const seen: unknown[] = [];
    t.step = async (_req, pass) => {
      if (pass === 1) {
        await t.client.delete(kinds.ConfigMap, { namespace: "ns", name: "old" });
        return { requeue: true };
      }
      seen.push(await t.names());
      return {};
    };
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    expect(seen).toEqual([[]]);
    expect(await t.timeouts()).toBe(0);
    await t.stop();
  });

  it("holds an event-triggered reconcile too, and waits on status writes", async () => {
    const t = await setup();
    t.api.put("pods", { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns" } });
    await tick(1);
    t.api.hold = true;
    const seen: unknown[] = [];
    t.step = async (_req, pass) => {
      const p = await t.client.get(kinds.Pod, { namespace: "ns", name: "p" });
      if (pass === 1) {
        await t.client.status().patch(p, { status: { phase: "Running" } });
        return {};
      }
      seen.push(p.status?.phase);
      return {};
    };
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    t.c.enqueue({ namespace: "ns", name: "a" }); // as an event of another object would
    await tick(100);
    expect(t.passes.a).toBe(1);
    t.api.deliverAll();
    await tick(1);
    expect(seen).toEqual(["Running"]);
    await t.stop();
  });

  it("runs the key anyway once the timeout passes, logging at debug and counting it", async () => {
    const t = await setup({ timeoutMs: 2000 });
    t.step = async (_req, pass) => {
      if (pass === 1) {
        await t.client.create(cm("made"));
        return { requeue: true };
      }
      return {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(1990);
    expect(t.passes.a).toBe(1);
    expect(await t.timeouts()).toBe(0);
    await tick(20);
    expect(t.passes.a).toBe(2);
    expect(await t.timeouts()).toBe(1);
    const line = t.lines.find((l) => l.includes("Cache did not show a write"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      level: "debug",
      controller: "things",
      namespace: "ns",
      name: "a",
      kind: "ConfigMap",
      object: "ns/made",
      timeoutMs: 2000,
    });
    // The event arriving late changes nothing.
    t.api.deliverAll();
    await tick(10);
    expect(t.passes.a).toBe(2);
    await t.stop();
  });

  it("does not wait with expectationTimeoutMs: 0 (controller-runtime's behaviour)", async () => {
    const t = await setup({ timeoutMs: 0 });
    const seen: unknown[] = [];
    t.step = async (_req, pass) => {
      if (pass === 1) {
        await t.client.create(cm("made"));
        return { requeue: true };
      }
      seen.push(await t.names());
      return {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    expect(seen).toEqual([[]]); // the stale cache the wait exists to prevent
    await t.stop();
  });

  it.each([
    [
      "a dry run",
      (t: Awaited<ReturnType<typeof setup>>) => t.client.create(cm("dry"), { dryRun: true }),
    ],
    [
      "a kind the cache does not watch",
      (t: Awaited<ReturnType<typeof setup>>) =>
        t.client.create({
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: "s", namespace: "ns" },
        }),
    ],
    [
      "a namespace outside the cache",
      (t: Awaited<ReturnType<typeof setup>>) => t.client.create(cm("elsewhere", {}, "other")),
    ],
  ])("records nothing for %s", async (_, write) => {
    const t = await setup({ namespaces: ["ns"] });
    t.step = async (_req, pass) => {
      if (pass === 1) {
        await write(t);
        return { requeue: true };
      }
      return {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    expect(t.passes.a).toBe(2);
    await t.stop();
  });

  it("records nothing for writes outside a reconcile", async () => {
    const t = await setup();
    t.api.hold = true;
    await t.client.create(cm("made"));
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(1);
    expect(t.passes.a).toBe(1);
    await t.stop();
  });

  it("lets a parked key run when its informer stops, and stops with a key parked", async () => {
    const t = await setup();
    t.step = async (_req, pass) => {
      if (pass === 1) await t.client.create(cm("made"));
      return pass === 1 ? { requeue: true } : {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    expect(t.passes.a).toBe(1);
    await t.stopCache();
    await tick(1);
    expect(t.passes.a).toBe(2);
    expect(await t.timeouts()).toBe(0);

    // Writes while the informers are stopped have nothing to wait for: b's requeue runs at once.
    t.c.enqueue({ namespace: "ns", name: "b" });
    await tick(10);
    expect(t.passes.b).toBe(2);
    await t.stop();
  });

  it("stops with a key parked, without waiting for the timeout", async () => {
    const t = await setup();
    t.step = async (_req, pass) => {
      if (pass === 1) await t.client.create(cm("made"));
      return pass === 1 ? { requeue: true } : {};
    };
    t.api.hold = true;
    t.c.enqueue({ namespace: "ns", name: "a" });
    await tick(10);
    await t.stop();
    expect(t.passes.a).toBe(1);
    expect(await t.timeouts()).toBe(0);
  });
});
