import { nowTime } from "../api/meta.js";
import { bucketKey } from "../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import { isPodReady } from "../registry/core/pod-conditions.js";
import { budgetSelects, PDB_RESOURCE, PDBS } from "../registry/policy/pod-disruption-budgets.js";
import type { Store } from "../store/store.js";
import { NamespaceQueue } from "./namespace-queue.js";
import { failedSync } from "./work-queue.js";

const PODS = bucketKey("", "pods");
const DISRUPTED_POD_TIMEOUT_MS = 2 * 60_000;

const OWNER_BUCKETS: Record<string, string> = {
  ReplicaSet: bucketKey("apps", "replicasets"),
  StatefulSet: bucketKey("apps", "statefulsets"),
  ReplicationController: bucketKey("", "replicationcontrollers"),
  Deployment: bucketKey("apps", "deployments"),
};

const WATCHED = new Set([PDBS, PODS, ...Object.values(OWNER_BUCKETS)]);

/** The pods a budget covers. */
function podsOf(store: Store, pdb: KubeObject): KubeObject[] {
  return store.list(PODS, pdb.metadata?.namespace).filter(budgetSelects(pdb));
}

/** intstr.GetScaledValueFromIntOrPercent with rounding up. */
function scaled(v: unknown, total: number): number {
  if (typeof v === "number") return v;
  const m = /^(\d+)%$/.exec(String(v));
  return m ? Math.ceil((Number(m[1]) * total) / 100) : 0;
}

export class DisruptionController {
  private readonly queue: NamespaceQueue;
  private readonly client: ApiClient;

  constructor(
    private readonly store: Store,
    client: InternalClient,
  ) {
    this.client = client.as(controllerIdentity("disruption-controller"));
    this.queue = new NamespaceQueue(store, WATCHED, async (ns) => {
      let failed = false;
      for (const pdb of this.store.list(PDBS, ns)) {
        try {
          await this.sync(pdb);
        } catch (e) {
          // A refused write (a webhook's, the budget deleted) waits for the next event.
          if (failedSync(e)) failed = true;
        }
      }
      return failed;
    });
  }

  start(): void {
    this.queue.start(this.store.list(PDBS));
  }

  stop(): void {
    this.queue.stop();
  }

  /**
   * Recomputes one budget's status now and writes it if it changed (the eviction API calls it for
   * a fresh view); returns the budget as stored.
   */
  async sync(pdb: KubeObject): Promise<KubeObject> {
    const current = this.store.get(PDBS, pdb.metadata?.namespace, pdb.metadata?.name ?? "");
    if (!current || current.metadata?.deletionTimestamp) return pdb;
    const spec = (current.spec ?? {}) as JsonObject;
    const pods = podsOf(this.store, current);
    const status = (current.status ?? {}) as JsonObject;
    const now = Date.now();
    const disrupted: Record<string, string> = {};
    const podNames = new Set(
      pods.filter((p) => !p.metadata?.deletionTimestamp).map((p) => p.metadata?.name),
    );
    for (const [name, at] of Object.entries(
      (status.disruptedPods as Record<string, string>) ?? {},
    )) {
      if (podNames.has(name) && now - Date.parse(at) < DISRUPTED_POD_TIMEOUT_MS)
        disrupted[name] = at;
    }
    const expected = typeof spec.minAvailable === "number" ? pods.length : this.expectedScale(pods);
    const desired =
      spec.maxUnavailable !== undefined
        ? Math.max(0, expected - scaled(spec.maxUnavailable, expected))
        : spec.minAvailable !== undefined
          ? scaled(spec.minAvailable, expected)
          : 0;
    const healthy = pods.filter(
      (p) => !p.metadata?.deletionTimestamp && isPodReady(p) && !(p.metadata!.name! in disrupted),
    ).length;
    const allowed = Math.max(0, healthy - desired);
    const generation = current.metadata?.generation ?? 1;
    const old = (Array.isArray(status.conditions) ? status.conditions : []).find(
      (c) => isObject(c) && c.type === "DisruptionAllowed",
    ) as JsonObject | undefined;
    const condStatus = allowed > 0 ? "True" : "False";
    const condition = {
      type: "DisruptionAllowed",
      status: condStatus,
      observedGeneration: generation,
      lastTransitionTime: old?.status === condStatus ? old.lastTransitionTime : nowTime(),
      reason: allowed > 0 ? "SufficientPods" : "InsufficientPods",
      message: "",
    };
    const next: JsonObject = {
      observedGeneration: generation,
      ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed: allowed,
      currentHealthy: healthy,
      desiredHealthy: desired,
      expectedPods: expected,
      conditions: [condition],
    };
    return this.client.changeStatus(PDB_RESOURCE, current, () => next);
  }

  private expectedScale(pods: KubeObject[]): number {
    const controllers = new Map<string, number>();
    let uncontrolled = 0;
    for (const pod of pods) {
      const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
      if (!ref || !OWNER_BUCKETS[ref.kind]) {
        uncontrolled++;
        continue;
      }
      let owner = this.store.get(OWNER_BUCKETS[ref.kind]!, pod.metadata?.namespace, ref.name);
      // A Deployment's ReplicaSets take their scale from the Deployment.
      const parent = owner?.metadata?.ownerReferences?.find(
        (r) => r.controller && r.kind === "Deployment",
      );
      if (owner && ref.kind === "ReplicaSet" && parent)
        owner =
          this.store.get(OWNER_BUCKETS.Deployment!, pod.metadata?.namespace, parent.name) ?? owner;
      if (!owner) {
        uncontrolled++;
        continue;
      }
      const replicas = (owner.spec as JsonObject | undefined)?.replicas;
      controllers.set(owner.metadata?.uid ?? ref.uid, typeof replicas === "number" ? replicas : 1);
    }
    return uncontrolled + [...controllers.values()].reduce((a, b) => a + b, 0);
  }
}
