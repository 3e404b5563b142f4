/**
 * A 409 Conflict out of a reconcile is routine (another writer updated the object first): it is
 * requeued with the key's backoff and counted as before, but logged as one info line without a
 * stack trace. Every other error keeps its error line.
 */
import { errors } from "@opgen/apimachinery/status";
import { describe, expect, it } from "vitest";
import { Controller, createLogger, RuntimeMetrics } from "../../src/index.js";

const gr = { group: "demo.my.domain", resource: "appclusters" };

function run(fail: (n: number) => unknown) {
  const metrics = new RuntimeMetrics({ processMetrics: false });
  const lines: string[] = [];
  let calls = 0;
  const c = new Controller(
    "thing",
    {
      reconcile: async () => {
        calls++;
        const err = fail(calls);
        if (err !== undefined) throw err;
        return {};
      },
    },
    { backoff: { baseDelayMs: 1, maxDelayMs: 4 } },
    {
      // Development mode is the one that prints stack traces, so it is the one to check.
      log: createLogger({ write: (l) => lines.push(l), level: "debug", development: true }),
      metrics: (name, max, q) => metrics.forController(name, max, () => q.stats()),
    },
  );
  const stop = new AbortController();
  const running = c.start(stop.signal);
  const value = async (name: string) =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
  return {
    c,
    lines,
    calls: () => calls,
    value,
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const byLevel = (lines: string[], level: string) =>
  lines.filter((l) => l.split("\t")[1] === level.toUpperCase());

describe("Controller on a 409 Conflict", () => {
  it("requeues with backoff and logs one info line per conflict, no error, no stack", async () => {
    const t = run((n) =>
      n <= 2 ? errors.conflict(gr, "a", "the object has been modified") : undefined,
    );
    t.c.enqueue({ namespace: "ns", name: "a" });
    await until(() => t.calls() === 3, "three attempts");
    await until(
      async () => (await t.value("controller_runtime_reconcile_errors_total")) === 2,
      "two errors counted",
    );
    await t.stop();
    expect(await t.value("workqueue_retries_total")).toBe(2);
    const conflicts = byLevel(t.lines, "info").filter((l) => l.includes("hit a conflict"));
    expect(conflicts).toHaveLength(2);
    for (const line of conflicts) {
      expect(line).toContain("Reconcile hit a conflict, requeuing");
      expect(line).toContain('error="Operation cannot be fulfilled on appclusters.demo.my.domain');
      expect(line).toContain('name="a"');
      expect(line).not.toContain("stacktrace");
      expect(line).not.toContain("\n");
    }
    expect(byLevel(t.lines, "error")).toEqual([]);
    expect(t.lines.join("\n")).not.toContain("    at ");
  });

  it("recognises a conflict wrapped as the cause of another error", async () => {
    const t = run((n) =>
      n === 1
        ? new Error("updating status", { cause: errors.conflict(gr, "a", "modified") })
        : undefined,
    );
    t.c.enqueue({ namespace: "ns", name: "a" });
    await until(() => t.calls() === 2, "retry");
    await t.stop();
    expect(byLevel(t.lines, "error")).toEqual([]);
    expect(byLevel(t.lines, "info").filter((l) => l.includes("hit a conflict"))).toEqual([
      expect.stringContaining('error="updating status"'),
    ]);
  });

  it("keeps the error line (with stack in development) for other errors, AlreadyExists included", async () => {
    const t = run((n) => {
      if (n === 1) return new Error("boom");
      if (n === 2) return errors.alreadyExists(gr, "a");
      return undefined;
    });
    t.c.enqueue({ namespace: "ns", name: "a" });
    await until(() => t.calls() === 3, "two retries");
    await t.stop();
    const errs = byLevel(t.lines, "error");
    expect(errs).toHaveLength(2);
    expect(errs[0]).toContain("Reconciler error");
    expect(errs[0]).toContain('error="boom"');
    expect(errs[0]).toContain("stacktrace=");
    expect(errs[1]).toContain("already exists");
    expect(t.lines.filter((l) => l.includes("hit a conflict"))).toEqual([]);
  });
});
