/**
 * Seed 003 (Operator SDK tutorial) ported to the runtime: AppCluster keeps `spec.size` nginx pods
 * labelled app=<name>, creating or deleting one pod per pass and requeueing, writes
 * `status.ready`, owns its pods (so deleting one heals), and its pods are garbage collected
 * with it.
 */
import type { V1Pod } from "@kubernetes/client-node";
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  ignoreNotFound,
  kinds,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  setControllerReference,
} from "../../src/index.js";
import {
  type AppCluster,
  AppClusterKind,
  namespace,
  newManager,
  run,
  startEnv,
} from "./helpers.js";

/** The seed's AppClusterReconciler, line for line. */
class AppClusterReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    // 1. Get
    const cluster = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!cluster) {
      ctx.log.info("AppCluster resource not found. Ignoring since object must be deleted");
      return {};
    }
    // 2. Observe: the pods this AppCluster manages, by label (served from the cache).
    const pods = await this.client.list(kinds.Pod, {
      namespace: req.namespace,
      labelSelector: { app: cluster.metadata!.name! },
    });
    const size = cluster.spec.size ?? 0;
    // 3. Diff & Act: one pod per pass, then requeue.
    if (pods.length < size) {
      ctx.log.info("Reconciling: Pod count is less than spec. Creating Pod.");
      const pod = newPodForAppCluster(cluster);
      setControllerReference(cluster, pod);
      await this.client.create(pod);
      return { requeue: true };
    }
    if (pods.length > size) {
      ctx.log.info("Reconciling: Pod count is more than spec. Deleting Pod.");
      await this.client.delete(pods[0]!);
      return { requeue: true };
    }
    // 4. Update Status
    if (cluster.status?.ready !== pods.length) {
      cluster.status = { ...cluster.status, ready: pods.length };
      ctx.log.info("Updating Status", { readyPods: pods.length });
      await this.client.status().update(cluster);
    }
    ctx.log.info("Reconciling: Pod count is equal to spec. No action needed.");
    return {};
  }
}

function newPodForAppCluster(cluster: AppCluster): V1Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${cluster.metadata!.name}-pod-`,
      namespace: cluster.metadata!.namespace,
      labels: { app: cluster.metadata!.name! },
    },
    spec: { containers: [{ name: "nginx", image: "nginx:latest" }] },
  };
}

function setupWithManager(mgr: Manager): void {
  mgr
    .controller(AppClusterKind)
    .owns(kinds.Pod)
    .named("appcluster")
    .complete(new AppClusterReconciler(mgr.client));
}

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

describe("seed 003: AppCluster", () => {
  it("converges to spec.size pods, heals, scales and reports status.ready", async () => {
    const mgr = newManager(env);
    setupWithManager(mgr);
    const m = run(mgr);
    const api = mgr.apiReader; // assertions read the server, not the cache
    try {
      const ns = await namespace(mgr);
      const key = { namespace: ns, name: "appcluster-sample" };
      await mgr.client.create({
        apiVersion: "demo.my.domain/v1",
        kind: "AppCluster",
        metadata: {
          name: key.name,
          namespace: ns,
          labels: { "app.kubernetes.io/name": "appcluster" },
        },
        spec: { size: 2 },
      });
      const podsOf = async () =>
        api.list(kinds.Pod, { namespace: ns, labelSelector: { app: key.name } });
      const converged = async (size: number) =>
        eventually(
          async () => {
            const pods = await podsOf();
            expect(pods).toHaveLength(size);
            expect((await api.get(AppClusterKind, key)).status?.ready).toBe(size);
            return pods;
          },
          { timeout: 10_000 },
        );

      const pods = await converged(2);
      const owner = await api.get(AppClusterKind, key);
      for (const p of pods) {
        expect(p.metadata?.name).toMatch(/^appcluster-sample-pod-/);
        expect(p.spec?.containers?.[0]?.image).toBe("nginx:latest");
        expect(p.metadata?.ownerReferences).toEqual([
          {
            apiVersion: "demo.my.domain/v1",
            kind: "AppCluster",
            name: key.name,
            uid: owner.metadata?.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
      }

      // Self-healing: a deleted pod is replaced (Owns(Pod) triggers the owner).
      await api.delete(pods[0]!);
      await eventually(
        async () => {
          const now = await podsOf();
          expect(now).toHaveLength(2);
          expect(now.map((p) => p.metadata?.name)).not.toContain(pods[0]!.metadata?.name);
        },
        { timeout: 10_000 },
      );

      // Scale up and down.
      const scale = async (size: number) => {
        const c = await api.get(AppClusterKind, key);
        c.spec.size = size;
        await api.update(c);
        await converged(size);
      };
      await scale(4);
      await scale(1);
      // Stable: nothing more happens once converged.
      await new Promise((r) => setTimeout(r, 300));
      expect(await podsOf()).toHaveLength(1);
    } finally {
      await m.stop();
    }
  });

  it("has its pods garbage collected when the AppCluster is deleted", async () => {
    const mgr = newManager(env);
    setupWithManager(mgr);
    const m = run(mgr);
    try {
      const ns = await namespace(mgr);
      const key = { namespace: ns, name: "gc" };
      await mgr.client.create({
        apiVersion: "demo.my.domain/v1",
        kind: "AppCluster",
        metadata: { ...key },
        spec: { size: 2 },
      });
      await eventually(
        async () =>
          expect(
            await mgr.apiReader.list(kinds.Pod, { namespace: ns, labelSelector: "app=gc" }),
          ).toHaveLength(2),
        { timeout: 10_000 },
      );
      await mgr.client.delete(AppClusterKind, key);
      await eventually(
        async () =>
          expect(
            await mgr.apiReader.list(kinds.Pod, { namespace: ns, labelSelector: "app=gc" }),
          ).toHaveLength(0),
        { timeout: 10_000 },
      );
    } finally {
      await m.stop();
    }
  });
});
