/**
 * Read-your-writes on envtest: the Operator SDK tutorial's reconciler (list pods from the cache,
 * create ONE pod with generateName, requeue at once) must reach exactly spec.size pods without a
 * single extra create or delete. Without the runtime's expectations, the immediate requeue can
 * reconcile before the pod informer delivered the pod just created, create one too many, then
 * delete it. Creates and deletes are counted on an independent watch of pods (what the API
 * server did, not what the reconciler believes it did).
 */
import { type V1Pod, Watch } from "@kubernetes/client-node";
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

/** The tutorial's reconcile loop, as examples/appcluster-operator has it. */
class TutorialReconciler implements Reconciler {
  creates = 0;
  deletes = 0;
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, _ctx: ReconcileContext): Promise<Result> {
    const cluster = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!cluster) return {};
    const name = cluster.metadata!.name!;
    const size = cluster.spec.size ?? 0;
    const pods = await this.client.list(kinds.Pod, {
      namespace: req.namespace,
      labelSelector: { app: name },
    });
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
    if (live.length < size) {
      const pod: V1Pod = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { generateName: `${name}-pod-`, namespace: req.namespace, labels: { app: name } },
        spec: { containers: [{ name: "nginx", image: "nginx:latest" }] },
      };
      setControllerReference(cluster, pod);
      this.creates++;
      await this.client.create(pod);
      return { requeue: true };
    }
    if (live.length > size) {
      this.deletes++;
      await this.client.delete(live[0]!).catch(ignoreNotFound);
      return { requeue: true };
    }
    if (cluster.status?.ready !== live.length) {
      cluster.status = { ...cluster.status, ready: live.length };
      await this.client.status().update(cluster);
    }
    return {};
  }
}

/** Counts ADDED and DELETED pod events per `app` label on a watch of its own. */
async function podEvents(env: TestEnv, ns: string) {
  const added = new Map<string, number>();
  const deleted = new Map<string, number>();
  const bump = (m: Map<string, number>, app: string) => m.set(app, (m.get(app) ?? 0) + 1);
  const req = await new Watch(env.kubeconfig).watch(
    `/api/v1/namespaces/${ns}/pods`,
    {},
    (type: string, obj: V1Pod) => {
      const app = obj.metadata?.labels?.app ?? "";
      if (type === "ADDED") bump(added, app);
      if (type === "DELETED") bump(deleted, app);
    },
    () => {},
  );
  return {
    added: (app: string) => added.get(app) ?? 0,
    deleted: (app: string) => deleted.get(app) ?? 0,
    stop: () => req.abort(),
  };
}

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

function setup(mgr: Manager, opts: { expectationTimeoutMs?: number } = {}): TutorialReconciler {
  const r = new TutorialReconciler(mgr.client);
  mgr.controller(AppClusterKind).owns(kinds.Pod).named("appcluster").options(opts).complete(r);
  return r;
}

/** Scales `rounds` fresh AppClusters to `size` one after the other; returns what the server saw. */
async function scaleUp(mgr: Manager, r: TutorialReconciler, rounds: number, size: number) {
  const ns = await namespace(mgr, "ryw");
  const events = await podEvents(env, ns);
  const api = mgr.apiReader;
  const seen: Array<{ added: number; deleted: number; creates: number; deletes: number }> = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const name = `app-${round}`;
      const before = { creates: r.creates, deletes: r.deletes };
      await api.create<AppCluster>({
        apiVersion: "demo.my.domain/v1",
        kind: "AppCluster",
        metadata: { name, namespace: ns },
        spec: { size },
      });
      // Converged: status.ready is written only by a pass that saw `size` live pods and acted on
      // none, and the independent watch has caught up with every create and delete.
      await eventually(
        async () => {
          expect((await api.get(AppClusterKind, { namespace: ns, name })).status?.ready).toBe(size);
          expect(events.added(name) - events.deleted(name)).toBe(size);
        },
        { timeout: 15_000 },
      );
      seen.push({
        added: events.added(name),
        deleted: events.deleted(name),
        creates: r.creates - before.creates,
        deletes: r.deletes - before.deletes,
      });
    }
  } finally {
    events.stop();
  }
  return seen;
}

describe("read-your-writes: the tutorial's one-pod-per-pass reconciler", () => {
  it("reaches exactly N pods with zero extra creates or deletes, round after round", async () => {
    const mgr = newManager(env);
    const r = setup(mgr);
    const m = run(mgr);
    try {
      const rounds = 6;
      const size = 5;
      const seen = await scaleUp(mgr, r, rounds, size);
      expect(seen).toEqual(
        Array.from({ length: rounds }, () => ({
          added: size,
          deleted: 0,
          creates: size,
          deletes: 0,
        })),
      );
    } finally {
      await m.stop();
    }
  });
});
