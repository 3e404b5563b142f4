/**
 * The workload controllers of kube-controller-manager, simulated for `simulate: true`: a
 * Deployment owns one ReplicaSet per pod template (deployments.ts), a ReplicaSet keeps
 * `replicas` pods (`<rs>-<5 chars>`), a StatefulSet keeps pods `<name>-0…N-1`, a DaemonSet one
 * pod on the simulated node; each reports the replicas its pods show ready. Children carry controller owner references, so the garbage collector removes them
 * with their owner. Rollouts are immediate (no surge or unavailability budget). Every write goes
 * through the API as the controller's service account; a refused create is reported (events,
 * ReplicaFailure) by pod-control.ts, and a refused or conflicting sync is retried by the work
 * queue (reading the objects again).
 */
import { nowTime } from "../api/meta.js";
import { deepClone, type JsonObject, type KubeObject } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import type { Store, StoreEvent } from "../store/store.js";
import { DeploymentController } from "./deployments.js";
import { EventRecorder } from "./event-recorder.js";
import {
  ACCOUNT,
  COMPONENT,
  namespaceTerminating,
  PodControl,
  withReplicaFailure,
} from "./pod-control.js";
import { WorkQueue } from "./work-queue.js";
import {
  controllerRef,
  isPodReady,
  ownedBy,
  replicasOf,
  spec,
  storedNow,
  templateHash,
} from "./workload-helpers.js";

export { isPodReady, templateHash } from "./workload-helpers.js";

const buckets = {
  deployments: "apps/deployments",
  replicasets: "apps/replicasets",
  statefulsets: "apps/statefulsets",
  daemonsets: "apps/daemonsets",
  jobs: "batch/jobs",
  pods: "/pods",
};

const REPLICASETS = { group: "apps", version: "v1", resource: "replicasets" };
const STATEFULSETS = { group: "apps", version: "v1", resource: "statefulsets" };
const DAEMONSETS = { group: "apps", version: "v1", resource: "daemonsets" };
const JOBS = { group: "batch", version: "v1", resource: "jobs" };

export class WorkloadControllers {
  private unsubscribe: () => void = () => {};
  private readonly queue: WorkQueue;
  private readonly events: EventRecorder;
  private readonly pods: PodControl;
  private readonly deployments: DeploymentController;
  /** Each controller's client, by the kind it controls. */
  private readonly clients = new Map<string, ApiClient>();

  constructor(
    private readonly store: Store,
    client: InternalClient,
    delayMs = 20,
  ) {
    const byComponent = new Map<string, ApiClient>();
    for (const [kind, account] of Object.entries(ACCOUNT)) {
      const c = client.as(controllerIdentity(account));
      this.clients.set(kind, c);
      byComponent.set(COMPONENT[kind] ?? "", c);
    }
    this.events = new EventRecorder(store, (component) => byComponent.get(component)!);
    this.pods = new PodControl((owner) => this.client(owner.kind ?? ""), this.events);
    this.deployments = new DeploymentController(store, this.client("Deployment"), this.events);
    this.queue = new WorkQueue((key) => {
      const [bucket = "", namespace, name = ""] = key.split("|");
      return this.reconcile(bucket, namespace || undefined, name);
    }, delayMs);
  }

  start(): void {
    this.queue.start();
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
    for (const bucket of [
      buckets.deployments,
      buckets.replicasets,
      buckets.statefulsets,
      buckets.daemonsets,
    ]) {
      for (const o of this.store.list(bucket))
        this.enqueue(bucket, o.metadata?.namespace, o.metadata?.name ?? "");
    }
  }

  stop(): void {
    this.unsubscribe();
    this.queue.stop();
  }

  private onEvent(ev: StoreEvent): void {
    const o = ev.object;
    const ns = o.metadata?.namespace;
    if (
      Object.values(buckets).includes(ev.bucket) &&
      ev.bucket !== buckets.pods &&
      ev.type !== "DELETED"
    ) {
      this.enqueue(ev.bucket, ns, o.metadata?.name ?? "");
    }
    // A child changed: its controller owner recomputes (ReplicaSet → Deployment, Pod → owner).
    for (const r of o.metadata?.ownerReferences ?? []) {
      if (!r.controller) continue;
      const bucket = {
        ReplicaSet: buckets.replicasets,
        Deployment: buckets.deployments,
        StatefulSet: buckets.statefulsets,
        DaemonSet: buckets.daemonsets,
      }[r.kind];
      if (bucket) this.enqueue(bucket, ns, r.name);
    }
  }

  private client(kind: string): ApiClient {
    return this.clients.get(kind)!;
  }

  private enqueue(bucket: string, namespace: string | undefined, name: string): void {
    this.queue.add(`${bucket}|${namespace ?? ""}|${name}`);
  }

  /** Syncs one object; true when it failed and must be retried. */
  private async reconcile(
    bucket: string,
    namespace: string | undefined,
    name: string,
  ): Promise<boolean> {
    const o = this.store.get(bucket, namespace, name);
    if (!o || o.metadata?.deletionTimestamp) return false;
    if (bucket === buckets.deployments) return this.deployments.sync(o);
    if (bucket === buckets.replicasets) return this.replicaSet(o);
    if (bucket === buckets.statefulsets) return this.statefulSet(o);
    if (bucket === buckets.daemonsets) return this.daemonSet(o);
    if (bucket === buckets.jobs) return this.job(o);
    return false;
  }

  private stored(bucket: string, o: KubeObject): KubeObject | undefined {
    return storedNow(this.store, bucket, o);
  }

  private ownedPods(owner: KubeObject): KubeObject[] {
    return this.store
      .list(buckets.pods, owner.metadata?.namespace)
      .filter((p) => ownedBy(p, owner) && !p.metadata?.deletionTimestamp);
  }

  /** The pod `owner`'s template describes, with the controller's name and labels. */
  private podFor(
    owner: KubeObject,
    extra: {
      name?: string;
      generateName?: string;
      labels?: Record<string, string>;
      nodeName?: string;
    },
  ): KubeObject {
    const template = deepClone(
      (spec(owner).template ?? {}) as { metadata?: JsonObject; spec?: JsonObject },
    );
    const tmeta = (template.metadata ?? {}) as {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        ...(extra.name ? { name: extra.name } : { generateName: extra.generateName }),
        namespace: owner.metadata?.namespace,
        labels: { ...(tmeta.labels ?? {}), ...(extra.labels ?? {}) },
        ...(tmeta.annotations ? { annotations: tmeta.annotations } : {}),
        ownerReferences: [controllerRef(owner)],
      },
      spec: { ...(template.spec ?? {}), ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
    };
  }

  private async replicaSet(owner: KubeObject): Promise<boolean> {
    const desired = replicasOf(owner);
    const pods = this.ownedPods(owner);
    const error =
      pods.length < desired
        ? await this.pods.createBatch(owner, desired - pods.length, () =>
            this.podFor(owner, { generateName: `${owner.metadata?.name}-` }),
          )
        : undefined;
    const rs = this.stored(buckets.replicasets, owner);
    if (!rs) return false;
    // Scale down newest first (kube-controller-manager prefers unready and younger pods).
    const extra = pods
      .sort((a, b) =>
        String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)),
      )
      .slice(0, Math.max(0, pods.length - desired));
    for (const p of extra) await this.pods.delete(rs, p);
    await this.events.written();
    const live = this.ownedPods(rs);
    const ready = live.filter(isPodReady).length;
    const now = nowTime();
    const current = this.stored(buckets.replicasets, rs);
    if (!current) return false;
    await this.client("ReplicaSet").changeStatus(REPLICASETS, current, (prev) => {
      const conditions = withReplicaFailure(
        (prev.conditions as JsonObject[] | undefined) ?? [],
        error,
        pods.length,
        desired,
        now,
      );
      return {
        replicas: live.length,
        fullyLabeledReplicas: live.length,
        ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
        observedGeneration: current.metadata?.generation ?? 1,
        ...(conditions.length ? { conditions } : {}),
      };
    });
    return error !== undefined;
  }

  private async statefulSet(sts: KubeObject): Promise<boolean> {
    const name = sts.metadata?.name ?? "";
    const desired = replicasOf(sts);
    const revision = `${name}-${templateHash(spec(sts).template)}`;
    const pods = this.ownedPods(sts);
    const byName = new Map(pods.map((p) => [p.metadata?.name, p]));
    // OrderedReady: create the next ordinal only when all lower ones are ready.
    let error: unknown;
    for (let i = 0; i < desired; i++) {
      const podName = `${name}-${i}`;
      const pod = byName.get(podName);
      if (!pod) {
        const pod = this.podFor(sts, {
          name: podName,
          labels: {
            "statefulset.kubernetes.io/pod-name": podName,
            "controller-revision-hash": revision,
            "apps.kubernetes.io/pod-index": String(i),
          },
        });
        // initIdentity (pkg/controller/statefulset/stateful_set_utils.go): the pod's DNS name
        // is its own under the governing Service.
        const podSpec = pod.spec as JsonObject;
        podSpec.hostname = podName;
        if (spec(sts).serviceName) podSpec.subdomain = spec(sts).serviceName;
        error = (await this.pods.create(sts, pod)).error;
        break;
      }
      if (!isPodReady(pod)) break;
    }
    for (const p of pods) {
      const ordinal = Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1);
      if (ordinal >= desired) await this.pods.delete(sts, p);
    }
    await this.events.written();
    const live = this.ownedPods(sts).filter(
      (p) => Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1) < desired,
    );
    const ready = live.filter(isPodReady).length;
    const current = this.stored(buckets.statefulsets, sts);
    if (!current) return false;
    await this.client("StatefulSet").changeStatus(STATEFULSETS, current, () => ({
      observedGeneration: current.metadata?.generation ?? 1,
      replicas: live.length,
      ...(ready ? { readyReplicas: ready, availableReplicas: ready } : { availableReplicas: 0 }),
      currentReplicas: live.length,
      updatedReplicas: live.length,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    }));
    return error !== undefined && !namespaceTerminating(error);
  }

  private async daemonSet(ds: KubeObject): Promise<boolean> {
    const pods = this.ownedPods(ds);
    const error =
      pods.length === 0
        ? await this.pods.createBatch(ds, 1, () =>
            this.podFor(ds, { generateName: `${ds.metadata?.name}-`, nodeName: "envtest-node" }),
          )
        : undefined;
    for (const extra of pods.slice(1)) await this.pods.delete(ds, extra);
    await this.events.written();
    const live = this.ownedPods(ds);
    const ready = live.filter(isPodReady).length;
    const current = this.stored(buckets.daemonsets, ds);
    if (!current) return false;
    await this.client("DaemonSet").changeStatus(DAEMONSETS, current, () => ({
      currentNumberScheduled: live.length,
      numberMisscheduled: 0,
      desiredNumberScheduled: 1,
      numberReady: ready,
      observedGeneration: current.metadata?.generation ?? 1,
      updatedNumberScheduled: live.length,
      numberAvailable: ready,
      ...(ready < 1 ? { numberUnavailable: 1 - ready } : {}),
    }));
    return error !== undefined;
  }

  /** Jobs: run pods until `completions` succeeded, `parallelism` at a time, then Complete. */
  private async job(job: KubeObject): Promise<boolean> {
    const js = spec(job);
    const uid = job.metadata?.uid ?? "";
    const name = job.metadata?.name ?? "";
    const completions = typeof js.completions === "number" ? js.completions : 1;
    const parallelism = typeof js.parallelism === "number" ? js.parallelism : 1;
    const status = (job.status ?? {}) as JsonObject;
    const done = ((status.conditions as JsonObject[] | undefined) ?? []).some(
      (c) => c.type === "Complete" && c.status === "True",
    );
    const pods = this.ownedPods(job);
    const phase = (p: KubeObject) => (p.status as JsonObject | undefined)?.phase;
    const succeeded = pods.filter((p) => phase(p) === "Succeeded").length;
    const active = pods.filter((p) => phase(p) !== "Succeeded" && phase(p) !== "Failed");
    const wanted = done || js.suspend ? 0 : Math.min(parallelism, completions - succeeded);
    const error =
      wanted > active.length
        ? await this.pods.createBatch(job, wanted - active.length, () =>
            this.podFor(job, {
              generateName: `${name}-`,
              labels: {
                "batch.kubernetes.io/controller-uid": uid,
                "batch.kubernetes.io/job-name": name,
                "controller-uid": uid,
                "job-name": name,
              },
            }),
          )
        : undefined;
    await this.events.written();
    const live = this.ownedPods(job).filter(
      (p) => phase(p) !== "Succeeded" && phase(p) !== "Failed",
    );
    const now = nowTime();
    const current = this.stored(buckets.jobs, job);
    if (!current) return false;
    await this.client("Job").changeStatus(JOBS, current, (prev) => {
      const complete = succeeded >= completions;
      const reached = {
        status: "True",
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: "CompletionsReached",
        message: "Reached expected number of succeeded pods",
      };
      const status: JsonObject = {
        ...prev,
        startTime: prev.startTime ?? now,
        ...(live.length ? { active: live.length } : {}),
        ...(succeeded ? { succeeded } : {}),
        ready: live.filter(isPodReady).length,
        terminating: 0,
        uncountedTerminatedPods: {},
        ...(complete
          ? {
              completionTime: prev.completionTime ?? now,
              conditions: (prev.conditions as JsonObject[] | undefined) ?? [
                { type: "SuccessCriteriaMet", ...reached },
                { type: "Complete", ...reached },
              ],
            }
          : {}),
      };
      if (!live.length) delete status.active;
      return status;
    });
    return error !== undefined;
  }
}
