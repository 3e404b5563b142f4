/**
 * A real optimistic-concurrency conflict from the API server (a stale update) inside a reconcile:
 * requeued and retried until it succeeds, logged as one info line per conflict, never as an error.
 */
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ignoreNotFound, isConflict } from "../../src/index.js";
import { AppClusterKind, namespace, newManager, run, startEnv, testLogger } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

it("logs a stale update's 409 as one info line and retries, no error line", async () => {
  const lines: string[] = [];
  const mgr = newManager(env, { logger: testLogger(lines) });
  const ns = await namespace(mgr);
  let attempts = 0;
  let conflicts = 0;
  mgr.controller(AppClusterKind).complete({
    reconcile: async (req) => {
      attempts++;
      const app = await mgr.client.get(AppClusterKind, req).catch(ignoreNotFound);
      if (!app || app.metadata?.labels?.done) return {};
      if (attempts === 1) {
        // Another writer gets there first: our copy is now stale.
        const fresh = await mgr.apiReader.get(AppClusterKind, req);
        fresh.metadata = { ...fresh.metadata, annotations: { other: "writer" } };
        await mgr.apiReader.update(fresh);
      }
      app.metadata = { ...app.metadata, labels: { done: "yes" } };
      try {
        await mgr.client.update(app);
      } catch (err) {
        if (isConflict(err)) conflicts++;
        throw err;
      }
      return {};
    },
  });
  const m = run(mgr);
  try {
    await mgr.client.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "c", namespace: ns },
      spec: { size: 1 },
    });
    await eventually(
      async () =>
        expect(
          (await mgr.apiReader.get(AppClusterKind, { namespace: ns, name: "c" })).metadata?.labels,
        ).toEqual({ done: "yes" }),
      { timeout: 5000 },
    );
  } finally {
    await m.stop();
  }
  expect(conflicts).toBeGreaterThanOrEqual(1);
  const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const conflictLines = records.filter((r) => r.msg === "Reconcile hit a conflict, requeuing");
  expect(conflictLines).toHaveLength(conflicts);
  for (const r of conflictLines) {
    expect(r).toMatchObject({ level: "info", controller: "appcluster", namespace: ns, name: "c" });
    expect(r.error).toMatch(/Operation cannot be fulfilled on appclusters.demo.my.domain "c"/);
    expect(r).not.toHaveProperty("stacktrace");
  }
  expect(records.filter((r) => r.level === "error")).toEqual([]);
});
