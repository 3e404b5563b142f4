/**
 * Watch failures injected in the API server must not lose a reconcile: dropped watches resume
 * from the last resourceVersion, expired history (410) relists and replays only the differences,
 * and deletions that happened while disconnected are still seen.
 */
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ignoreNotFound } from "../../src/index.js";
import {
  type AppCluster,
  AppClusterKind,
  namespace,
  newManager,
  run,
  startEnv,
  testLogger,
} from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

const app = (ns: string, name: string, size: number): AppCluster => ({
  apiVersion: "demo.my.domain/v1",
  kind: "AppCluster",
  metadata: { name, namespace: ns },
  spec: { size },
});

describe("watch faults", () => {
  it.each([
    {
      label: "dropped watches",
      relists: false,
      before: () => env.faults.dropWatches(),
      after: () => {},
    },
    {
      // The re-watch fails once, and while the watcher backs off the history it would resume from
      // is compacted: the next watch gets 410 Expired and the watcher must relist.
      label: "expired history (410) while disconnected",
      relists: true,
      before: () => {
        env.faults.failNext({ verb: "watch", resource: "appclusters", code: 500, count: 1 });
        env.faults.dropWatches();
      },
      after: () => env.faults.expireHistory(),
    },
  ])("misses no change across $label", async ({ relists, before, after }) => {
    const lines: string[] = [];
    const mgr = newManager(env, {
      logger: testLogger(lines),
      cache: { initialBackoffMs: 300, maxBackoffMs: 600 },
    });
    const ns = await namespace(mgr);
    const observed = new Map<string, number | "deleted">();
    mgr.controller(AppClusterKind).complete({
      reconcile: async (req) => {
        if (req.namespace !== ns) return {};
        const got = await mgr.client.get(AppClusterKind, req).catch(ignoreNotFound);
        observed.set(req.name, got ? (got.spec.size ?? 0) : "deleted");
        return {};
      },
    });
    const m = run(mgr);
    // A second client writes, so the manager learns of changes only through its watch.
    const writer = newManager(env).apiReader;
    try {
      await mgr.elected; // caches synced
      for (let i = 0; i < 5; i++) await writer.create(app(ns, `a${i}`, 1));
      await eventually(() => expect(observed.size).toBe(5), { timeout: 5000 });

      for (let round = 0; round < 3; round++) {
        before();
        // Changes made while the watch is down or being re-established.
        const a0 = await writer.get(AppClusterKind, { namespace: ns, name: "a0" });
        a0.spec.size = 10 + round;
        await writer.update(a0);
        await writer.create(app(ns, `n${round}`, round));
        if (round === 1) await writer.delete(AppClusterKind, { namespace: ns, name: "a1" });
        after();
        await eventually(
          () => {
            expect(observed.get("a0")).toBe(10 + round);
            expect(observed.get(`n${round}`)).toBe(round);
            if (round >= 1) expect(observed.get("a1")).toBe("deleted");
          },
          { timeout: 10_000 },
        );
      }
      // The cache converged to the server's state.
      const cached = (await mgr.client.list(AppClusterKind, { namespace: ns }))
        .map((a) => a.metadata?.name)
        .sort();
      const live = (await writer.list(AppClusterKind, { namespace: ns }))
        .map((a) => a.metadata?.name)
        .sort();
      expect(cached).toEqual(live);
      const relisted = lines.filter(
        (l) => l.includes("watch expired, relisting") && l.includes("AppCluster"),
      );
      expect(relisted).toHaveLength(relists ? 3 : 0);
      const failed = lines.filter((l) => l.includes("watch failed") && l.includes("AppCluster"));
      // A server-closed watch is resumed at once, not treated as a failure.
      expect(failed).toHaveLength(relists ? 3 : 0);
    } finally {
      await m.stop();
    }
  });
});
