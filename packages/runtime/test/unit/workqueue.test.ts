import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  WorkQueue,
} from "../../src/workqueue/index.js";

describe("WorkQueue", () => {
  it("collapses duplicate adds into one item", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    q.add("b");
    q.add("a");
    q.add("a");
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe("a");
    expect(await q.get()).toBe("b");
    expect(q.len()).toBe(0);
  });

  it("never hands a key to two workers at once and re-runs it after done if re-added", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    const first = await q.get();
    expect(first).toBe("a");
    q.add("a"); // changed while processing
    expect(q.len()).toBe(0); // held back: not given to a second worker
    let second: string | undefined;
    void q.get().then((v) => {
      second = v;
    });
    await Promise.resolve();
    expect(second).toBeUndefined();
    q.done("a");
    await Promise.resolve();
    expect(second).toBe("a");
  });

  it("does not re-queue a key that was not re-added while processing", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    await q.get();
    q.done("a");
    expect(q.len()).toBe(0);
  });

  it("hands keys to waiting workers in FIFO order", async () => {
    const q = new WorkQueue<number>();
    const got: Array<number | undefined> = [];
    const w1 = q.get().then((v) => got.push(v));
    const w2 = q.get().then((v) => got.push(v));
    q.add(1);
    q.add(2);
    await Promise.all([w1, w2]);
    expect(got).toEqual([1, 2]);
  });

  it("keeps order over many items (compaction)", async () => {
    const q = new WorkQueue<number>();
    for (let i = 0; i < 5000; i++) q.add(i);
    for (let i = 0; i < 5000; i++) {
      const v = await q.get();
      expect(v).toBe(i);
      q.done(i);
      if (i % 3 === 0) q.add(10_000 + i);
    }
    expect(q.len()).toBe(1667);
  });

  it("shutdown wakes waiting workers, ignores adds and drains in-flight keys", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    q.add("b");
    const a = await q.get();
    expect(a).toBe("a");
    const idle = new WorkQueue<string>();
    const waiting = idle.get();
    idle.shutDown();
    expect(await waiting).toBeUndefined();

    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    q.add("c");
    expect(await q.get()).toBeUndefined(); // queued "b" is not handed out after shutdown
    await Promise.resolve();
    expect(drained).toBe(false); // "a" is still in flight
    q.done("a");
    await drain;
    expect(drained).toBe(true);
  });

  it("reports stats for the unfinished-work gauges", async () => {
    let now = 0;
    const q = new WorkQueue<string>({ now: () => now });
    q.add("a");
    q.add("b");
    await q.get();
    now = 1000;
    await q.get();
    now = 4000;
    const s = q.stats();
    expect(s.processing).toBe(2);
    expect(s.longestRunningProcessorSeconds).toBe(4);
    expect(s.unfinishedWorkSeconds).toBe(7);
  });

  it("calls metrics hooks", async () => {
    let now = 0;
    const events: string[] = [];
    const q = new WorkQueue<string>({
      now: () => now,
      metrics: {
        onAdd: () => events.push("add"),
        onGet: (s) => events.push(`get:${s}`),
        onDone: (s) => events.push(`done:${s}`),
        onRetry: () => events.push("retry"),
      },
    });
    q.add("a");
    q.add("a");
    now = 2000;
    await q.get();
    now = 2500;
    q.done("a");
    q.addAfter("a", 10);
    q.shutDown();
    expect(events).toEqual(["add", "get:2", "done:0.5", "retry"]);
  });

  describe("with fake timers", () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("addAfter delays the add and keeps the earliest deadline per key", async () => {
      const q = new WorkQueue<string>({ now: () => Date.now() });
      q.addAfter("a", 1000);
      q.addAfter("a", 200); // earlier wins
      q.addAfter("a", 5000); // later is ignored
      expect(q.stats().delayed).toBe(1);
      await vi.advanceTimersByTimeAsync(199);
      expect(q.len()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(q.len()).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(q.len()).toBe(1); // no second add from the superseded timers
    });

    it("addRateLimited backs off exponentially per item and forget resets it", async () => {
      const q = new WorkQueue<string>({ now: () => Date.now() });
      for (const expected of [5, 10, 20, 40, 80]) {
        q.addRateLimited("a");
        await vi.advanceTimersByTimeAsync(expected - 1);
        expect(q.len()).toBe(0);
        await vi.advanceTimersByTimeAsync(1);
        expect(q.len()).toBe(1);
        expect(await q.get()).toBe("a");
        q.done("a");
      }
      expect(q.numRequeues("a")).toBe(5);
      expect(q.numRequeues("b")).toBe(0);
      q.forget("a");
      expect(q.numRequeues("a")).toBe(0);
      q.addRateLimited("a");
      await vi.advanceTimersByTimeAsync(5);
      expect(q.len()).toBe(1);
    });

    it("drops delayed adds on shutdown", async () => {
      const q = new WorkQueue<string>({ now: () => Date.now() });
      q.addAfter("a", 100);
      q.shutDown();
      await vi.advanceTimersByTimeAsync(200);
      expect(q.len()).toBe(0);
    });
  });
});

describe("rate limiters", () => {
  it("item exponential: 5 ms doubling to the 1000 s cap", () => {
    const rl = new ItemExponentialFailureRateLimiter<string>();
    const seq = Array.from({ length: 20 }, () => rl.when("a"));
    expect(seq.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    // 5 ms * 2^17 = 655.36 s, 2^18 would be 1310 s: capped.
    expect(seq[17]).toBe(655_360);
    expect(seq[18]).toBe(1_000_000);
    expect(seq[19]).toBe(1_000_000);
    for (let i = 0; i < 2000; i++) rl.when("a");
    expect(rl.when("a")).toBe(1_000_000);
    expect(rl.when("b")).toBe(5);
    rl.forget("a");
    expect(rl.when("a")).toBe(5);
  });

  it("item exponential honours a configured max", () => {
    const rl = new ItemExponentialFailureRateLimiter<string>(5, 30);
    expect([rl.when("a"), rl.when("a"), rl.when("a"), rl.when("a")]).toEqual([5, 10, 20, 30]);
    expect(() => new ItemExponentialFailureRateLimiter(0, 10)).toThrow();
  });

  it("token bucket: burst is free, then 1/qps apart, refilling over time", () => {
    let now = 0;
    const rl = new BucketRateLimiter<string>(10, 100, () => now);
    for (let i = 0; i < 100; i++) expect(rl.when(`k${i}`)).toBe(0);
    expect(rl.when("x")).toBeCloseTo(100);
    expect(rl.when("y")).toBeCloseTo(200);
    now = 10_000; // 100 tokens refilled, minus the 2 reserved
    expect(rl.when("z")).toBe(0);
  });

  it("max-of takes the longest delay and records in every limiter", () => {
    const now = 0;
    const exp = new ItemExponentialFailureRateLimiter<string>();
    const rl = new MaxOfRateLimiter<string>(exp, new BucketRateLimiter<string>(1, 1, () => now));
    expect(rl.when("a")).toBe(5); // bucket has one token
    expect(rl.when("a")).toBe(1000); // bucket empty: 1 s
    expect(exp.numRequeues("a")).toBe(2);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
  });

  it("default controller limiter is per-item only unless the bucket is asked for", () => {
    const plain = defaultControllerRateLimiter<string>();
    expect(plain).toBeInstanceOf(ItemExponentialFailureRateLimiter);
    const classic = defaultControllerRateLimiter<string>({ bucket: true });
    expect(classic).toBeInstanceOf(MaxOfRateLimiter);
    for (let i = 0; i < 100; i++) classic.when(`k${i}`);
    expect(classic.when("new")).toBeGreaterThan(5); // token bucket now dominates
  });
});
