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
  createClient,
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

type PodEvents = Awaited<ReturnType<typeof podEvents>>;

/** Scales `rounds` fresh AppClusters in `ns` to `size` one after the other; what the server saw. */
async function scaleUp(
  mgr: Manager,
  r: TutorialReconciler,
  ns: string,
  events: PodEvents,
  rounds: number,
  size: number,
) {
  const api = mgr.apiReader;
  const seen: Array<{ added: number; deleted: number; creates: number; deletes: number }> = [];
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
  return seen;
}

/** `controller_runtime_expectation_timeouts_total` of the "appcluster" controller. */
async function expectationTimeouts(mgr: Manager): Promise<number | undefined> {
  const m = mgr.metrics.registry.getSingleMetric("controller_runtime_expectation_timeouts_total");
  return (await m?.get())?.values.find((v) => v.labels.controller === "appcluster")?.value;
}

describe("read-your-writes: the tutorial's one-pod-per-pass reconciler", () => {
  it("reaches exactly N pods with zero extra creates or deletes, round after round", async () => {
    const mgr = newManager(env);
    const r = setup(mgr);
    const m = run(mgr);
    const ns = await namespace(mgr, "ryw");
    const events = await podEvents(env, ns);
    try {
      const rounds = 6;
      const size = 5;
      const seen = await scaleUp(mgr, r, ns, events, rounds, size);
      expect(seen).toEqual(
        Array.from({ length: rounds }, () => ({
          added: size,
          deleted: 0,
          creates: size,
          deletes: 0,
        })),
      );
      // Every wait ended on the informer's events, none on the timeout.
      expect(await expectationTimeouts(mgr)).toBe(0);
    } finally {
      events.stop();
      await m.stop();
    }
  });

  it("scales down by exactly the surplus: one delete per pod, none repeated", async () => {
    const mgr = newManager(env);
    const r = setup(mgr);
    const m = run(mgr);
    const api = mgr.apiReader;
    const ns = await namespace(mgr, "ryw");
    const events = await podEvents(env, ns);
    try {
      const [up] = await scaleUp(mgr, r, ns, events, 1, 5);
      expect(up).toMatchObject({ added: 5, deleted: 0 });
      const deletesBefore = r.deletes;
      const cluster = await api.get(AppClusterKind, { namespace: ns, name: "app-0" });
      cluster.spec.size = 2;
      await api.update(cluster);
      await eventually(
        async () => {
          const now = await api.get(AppClusterKind, { namespace: ns, name: "app-0" });
          expect(now.status?.ready).toBe(2);
          expect(events.deleted("app-0")).toBe(3);
        },
        { timeout: 15_000 },
      );
      // Without read-your-writes the cache still lists a pod just deleted, and the next pass
      // deletes it again (a NotFound the tutorial ignores) or one pod too many.
      expect(r.deletes - deletesBefore).toBe(3);
      expect(events.added("app-0")).toBe(5);
      expect(await api.list(kinds.Pod, { namespace: ns, labelSelector: "app=app-0" })).toHaveLength(
        2,
      );
      expect(await expectationTimeouts(mgr)).toBe(0);
    } finally {
      events.stop();
      await m.stop();
    }
  });
});

/**
 * Every kind of write, one per pass, each pass checking from the cache that it sees the write
 * of the pass before: create, update, merge patch, server-side apply, status update, status
 * patch, delete. Three objects run side by side on two workers.
 */
class WriteChainReconciler implements Reconciler {
  /** What a pass read from the cache that was not the previous pass's write. */
  readonly stale: string[] = [];
  readonly done = new Set<string>();
  constructor(private readonly client: Client) {}

  async reconcile(req: Request): Promise<Result> {
    const cluster = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!cluster) return {};
    const step = cluster.status?.ready ?? 0;
    const key = { namespace: req.namespace, name: `${req.name}-cm` };
    const cm = await this.client.get(kinds.ConfigMap, key).catch(ignoreNotFound);
    const want = (v: string | undefined) => {
      if (cm?.data?.v !== v) this.stale.push(`${req.name} step ${step}: ${cm?.data?.v} != ${v}`);
    };
    const owned = { apiVersion: "v1", kind: "ConfigMap", metadata: { ...key } };
    if (step > 4) {
      want(undefined);
      this.done.add(`${req.namespace}/${req.name}`);
      return {};
    }
    // The step counter lives in the status: alternate update and patch of the subresource. It
    // is written first, so the ConfigMap write is the last before the immediate requeue.
    cluster.status = { ...cluster.status, ready: step + 1 };
    if (step % 2 === 0) await this.client.status().update(cluster);
    else await this.client.status().patch(cluster, { status: { ready: step + 1 } });
    switch (step) {
      case 0:
        want(undefined);
        await this.client.create({ ...owned, data: { v: "created" } });
        break;
      case 1:
        want("created");
        await this.client.update({ ...cm!, data: { v: "updated" } });
        break;
      case 2:
        want("updated");
        await this.client.patch(cm!, { data: { v: "patched" } });
        break;
      case 3:
        want("patched");
        await this.client.apply({ ...owned, data: { v: "applied" } }, { force: true });
        break;
      default:
        want("applied");
        await this.client.delete(cm!);
    }
    return { requeue: true };
  }
}

describe("read-your-writes: every kind of write", () => {
  it("shows each pass the writes of the pass before, for every object", async () => {
    // Only this test's namespace: the other tests' AppClusters have no ConfigMaps to chain.
    const ns = `chain-${process.pid}`;
    await createClient({ kubeconfig: env.kubeconfig }).create({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: ns },
    });
    const mgr = newManager(env, { namespaces: [ns] });
    const r = new WriteChainReconciler(mgr.client);
    mgr
      .controller(AppClusterKind)
      .owns(kinds.ConfigMap)
      .named("appcluster")
      // Requeues after 1 ms, sooner than a watch event usually arrives.
      .options({ maxConcurrentReconciles: 2, backoff: { baseDelayMs: 1, maxDelayMs: 1 } })
      .complete(r);
    const m = run(mgr);
    try {
      const names = ["one", "two", "three"];
      for (const name of names) {
        await mgr.apiReader.create<AppCluster>({
          apiVersion: "demo.my.domain/v1",
          kind: "AppCluster",
          metadata: { name, namespace: ns },
          spec: { size: 0 },
        });
      }
      const mine = () => [...r.done].filter((k) => k.startsWith(`${ns}/`)).sort();
      await eventually(() => expect(mine()).toEqual(names.map((n) => `${ns}/${n}`).sort()), {
        timeout: 15_000,
      });
      expect(r.stale).toEqual([]);
      expect(await expectationTimeouts(mgr)).toBe(0);
    } finally {
      await m.stop();
    }
  });
});
