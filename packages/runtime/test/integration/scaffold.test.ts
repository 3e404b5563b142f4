/** The scaffolded controller and test from docs/dev/contracts.md, run as written. */
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type Client,
  ignoreNotFound,
  isStatusConditionTrue,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  setStatusCondition,
} from "../../src/index.js";
import { AppClusterKind, newManager, startEnv } from "./helpers.js";

class AppClusterReconciler implements Reconciler {
  writes = 0;
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const app = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!app) return {};
    ctx.log.info("reconciling", { generation: app.metadata?.generation });
    const conditions = [...(app.status?.conditions ?? [])];
    const changed = setStatusCondition(conditions, {
      type: "Available",
      status: "True",
      reason: "Reconciled",
      message: "AppCluster reconciled",
      observedGeneration: app.metadata?.generation,
    });
    if (changed) {
      app.status = { ...app.status, conditions };
      await this.client.status().update(app);
      this.writes++;
    }
    return {};
  }
}

function setupAppClusterController(mgr: Manager): AppClusterReconciler {
  const r = new AppClusterReconciler(mgr.client);
  mgr.controller(AppClusterKind).complete(r);
  return r;
}

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

it("marks a new AppCluster Available", async () => {
  const mgr = newManager(env);
  const r = setupAppClusterController(mgr);
  const stop = new AbortController();
  const running = mgr.start(stop.signal);
  try {
    await mgr.client.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "sample", namespace: "default" },
      spec: { size: 1 },
    });
    const got = await eventually(
      async () => {
        const got = await mgr.client.get(AppClusterKind, { namespace: "default", name: "sample" });
        expect(isStatusConditionTrue(got.status?.conditions, "Available")).toBe(true);
        return got;
      },
      { timeout: 10_000 },
    );
    expect(got.status?.conditions?.[0]?.observedGeneration).toBe(1);
    // The status write triggers another reconcile, which must not write again.
    await new Promise((res) => setTimeout(res, 300));
    expect(r.writes).toBe(1);
  } finally {
    stop.abort();
    await running;
  }
});
