import { describe, expect, it } from "vitest";
import {
  Controller,
  createLogger,
  type ReconcileContext,
  type Request,
  type Result,
  RuntimeMetrics,
  TerminalError,
} from "../../src/index.js";

function setup(
  fn: (req: Request, ctx: ReconcileContext, n: number) => Promise<Result> | Result,
  opts: { max?: number; deferStart?: boolean } = {},
) {
  const metrics = new RuntimeMetrics({ processMetrics: false });
  const calls: string[] = [];
  const lines: string[] = [];
  const log = createLogger({ write: (l) => lines.push(l), level: "debug" });
  let n = 0;
  const c = new Controller(
    "thing",
    {
      reconcile: async (req, ctx) => {
        calls.push(`${req.namespace}/${req.name}`);
        return fn(req, ctx, ++n);
      },
    },
    { maxConcurrentReconciles: opts.max ?? 1, backoff: { baseDelayMs: 1, maxDelayMs: 8 } },
    { log, metrics: (name, max, q) => metrics.forController(name, max, () => q.stats()) },
  );
  const stop = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const start = () => {
    running = c.start(stop.signal);
  };
  if (!opts.deferStart) start();
  const value = async (name: string, labels: Record<string, string>) => {
    const m = await metrics.registry.getSingleMetric(name)?.get();
    return m?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
      ?.value;
  };
  return {
    c,
    calls,
    lines,
    stop,
    get running() {
      return running;
    },
    start,
    metrics,
    value,
  };
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("Controller", () => {
  it("reconciles an enqueued request once per burst of adds and counts success", async () => {
    const t = setup(() => ({}), { deferStart: true });
    const { c, calls, stop, value } = t;
    c.enqueue({ namespace: "ns", name: "a" });
    c.enqueue({ namespace: "ns", name: "a" });
    t.start();
    const running = t.running;
    await until(() => calls.length === 1, "reconcile");
    await until(
      async () => (await value("controller_runtime_reconcile_total", { result: "success" })) === 1,
      "metric",
    );
    expect(await value("controller_runtime_reconcile_total", { result: "error" })).toBe(0);
    expect(
      await value("controller_runtime_max_concurrent_reconciles", { controller: "thing" }),
    ).toBe(1);
    stop.abort();
    await running;
    expect(calls).toEqual(["ns/a"]);
  });

  it("retries thrown errors with backoff until success, then forgets", async () => {
    const { c, calls, stop, running, value } = setup((_r, _c, n) => {
      if (n < 4) throw new Error(`fail ${n}`);
      return {};
    });
    c.enqueue({ namespace: "ns", name: "a" });
    await until(() => calls.length === 4, "four attempts");
    await until(
      async () => (await value("controller_runtime_reconcile_total", { result: "success" })) === 1,
      "success",
    );
    expect(await value("controller_runtime_reconcile_errors_total", { controller: "thing" })).toBe(
      3,
    );
    expect(await value("workqueue_retries_total", { name: "thing" })).toBe(3);
    expect(c.queue.numRequeues("ns/a")).toBe(0);
    stop.abort();
    await running;
  });

  it("does not retry a TerminalError and counts it", async () => {
    const { c, calls, stop, running, value } = setup(() => {
      throw new TerminalError("spec.size must be positive");
    });
    c.enqueue({ namespace: "ns", name: "a" });
    await until(
      async () =>
        (await value("controller_runtime_terminal_reconcile_errors_total", {
          controller: "thing",
        })) === 1,
      "terminal",
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toHaveLength(1);
    expect(await value("controller_runtime_reconcile_errors_total", { controller: "thing" })).toBe(
      1,
    );
    stop.abort();
    await running;
  });

  it("counts thrown non-Errors as panics and retries them", async () => {
    const { c, calls, stop, running, value, lines } = setup((_r, _c, n) => {
      if (n === 1) throw "a string";
      return {};
    });
    c.enqueue({ namespace: "ns", name: "a" });
    await until(() => calls.length === 2, "retry after panic");
    expect(await value("controller_runtime_reconcile_panics_total", { controller: "thing" })).toBe(
      1,
    );
    expect(lines.some((l) => l.includes("Observed a panic"))).toBe(true);
    stop.abort();
    await running;
  });

  it("requeueAfterMs re-runs after the delay; requeue re-runs with backoff", async () => {
    const started = Date.now();
    const times: number[] = [];
    const per = new Map<string, number>();
    const { c, stop, running, value } = setup((req) => {
      times.push(Date.now() - started);
      const n = (per.get(req.name) ?? 0) + 1;
      per.set(req.name, n);
      if (req.name === "after" && n === 1) return { requeueAfterMs: 80 };
      if (req.name === "again" && n <= 2) return { requeue: true };
      return {};
    });
    c.enqueue({ namespace: "ns", name: "after" });
    await until(() => times.length === 2, "requeueAfterMs");
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(75);
    expect(await value("controller_runtime_reconcile_total", { result: "requeue_after" })).toBe(1);
    c.enqueue({ namespace: "ns", name: "again" });
    await until(() => times.length === 5, "requeue");
    expect(await value("controller_runtime_reconcile_total", { result: "requeue" })).toBe(2);
    stop.abort();
    await running;
  });

  it("runs distinct keys in parallel up to the limit, never the same key twice at once", async () => {
    let active = 0;
    let peak = 0;
    const activeKeys = new Set<string>();
    let overlap = false;
    const { c, calls, stop, running } = setup(
      async (req) => {
        if (activeKeys.has(req.name)) overlap = true;
        activeKeys.add(req.name);
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 10));
        active--;
        activeKeys.delete(req.name);
        return {};
      },
      { max: 3 },
    );
    for (let i = 0; i < 9; i++) c.enqueue({ namespace: "ns", name: `k${i % 5}` });
    // re-add keys while they are in flight
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 5; i++) c.enqueue({ namespace: "ns", name: `k${i}` });
    await until(() => calls.length >= 8, "all reconciles");
    await new Promise((r) => setTimeout(r, 40));
    expect(peak).toBe(3);
    expect(overlap).toBe(false);
    stop.abort();
    await running;
  });

  it("gives each reconcile a logger with controller, namespace, name and reconcileID", async () => {
    const ids: string[] = [];
    const { c, stop, running, lines } = setup((_r, ctx) => {
      ids.push(ctx.reconcileID);
      ctx.log.info("hello");
      return {};
    });
    c.enqueue({ namespace: "ns", name: "a" });
    c.enqueue({ namespace: "ns", name: "b" });
    await until(() => ids.length === 2, "two reconciles");
    expect(ids[0]).not.toBe(ids[1]);
    const hello = lines.filter((l) => l.includes('"hello"')).map((l) => JSON.parse(l));
    expect(hello[0]).toMatchObject({
      level: "info",
      msg: "hello",
      controller: "thing",
      namespace: "ns",
      name: "a",
      reconcileID: ids[0],
    });
    stop.abort();
    await running;
  });

  it("drains in-flight reconciles on stop and aborts their signal on hard stop", async () => {
    let finished = false;
    let aborted = false;
    const metrics = new RuntimeMetrics({ processMetrics: false });
    const c = new Controller(
      "slow",
      {
        reconcile: async (_req, ctx) => {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, 50);
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
              clearTimeout(t);
              resolve();
            });
          });
          finished = true;
          return {};
        },
      },
      {},
      { metrics: (n, m, q) => metrics.forController(n, m, () => q.stats()) },
    );
    const stop = new AbortController();
    const hard = new AbortController();
    const running = c.start(stop.signal, hard.signal);
    c.enqueue({ name: "cluster-scoped" });
    await until(() => c.queue.stats().processing === 1, "in flight");
    stop.abort();
    await running;
    expect(finished).toBe(true);
    expect(aborted).toBe(false);

    const c2 = new Controller("slow2", {
      reconcile: (_req, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve({});
          }),
        ),
    });
    const stop2 = new AbortController();
    const running2 = c2.start(stop2.signal, hard.signal);
    c2.enqueue({ name: "x" });
    await until(() => c2.queue.stats().processing === 1, "in flight");
    stop2.abort();
    hard.abort();
    await running2;
    expect(aborted).toBe(true);
  });

  it("aborts a reconcile's signal after reconcileTimeoutMs and counts the timeout", async () => {
    const metrics = new RuntimeMetrics({ processMetrics: false });
    let sawAbort = false;
    const c = new Controller(
      "timed",
      {
        reconcile: (_req, ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal.addEventListener("abort", () => {
              sawAbort = true;
              reject(new Error("aborted"));
            }),
          ),
      },
      { reconcileTimeoutMs: 20, backoff: { baseDelayMs: 1000 } },
      { metrics: (n, m, q) => metrics.forController(n, m, () => q.stats()) },
    );
    const stop = new AbortController();
    const running = c.start(stop.signal);
    c.enqueue({ name: "x" });
    const count = async () =>
      (await metrics.registry.getSingleMetric("controller_runtime_reconcile_timeouts_total")?.get())
        ?.values[0]?.value;
    await until(async () => (await count()) === 1, "timeout metric");
    expect(sawAbort).toBe(true);
    stop.abort();
    await running;
  });
});
