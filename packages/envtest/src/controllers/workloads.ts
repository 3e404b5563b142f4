/**
 * The workload controllers of kube-controller-manager, simulated for `simulate: true`: a
 * Deployment owns one ReplicaSet per pod template (`<name>-<pod-template-hash>`, older ones
 * scaled to 0), a ReplicaSet keeps `replicas` pods (`<rs>-<5 chars>`), a StatefulSet keeps pods
 * `<name>-0…N-1`, a DaemonSet one pod on the simulated node; each reports the replicas its pods
 * show ready. Children carry controller owner references, so the garbage collector removes them
 * with their owner. Rollouts are immediate (no surge or unavailability budget). Creates go
 * through admission as the controller's service account; a refused one is reported (events,
 * ReplicaFailure) by pod-control.ts and the sync retried by the work queue.
 */
import { nowTime } from "../api/meta.js";
import { deepClone, type JsonObject, type KubeObject } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";
import { modify } from "../store/writes.js";
import { EventRecorder } from "./event-recorder.js";
import {
  COMPONENT,
  createAs,
  deploymentReplicaFailure,
  namespaceTerminating,
  PodControl,
  replicaSetCreateFailed,
  withReplicaFailure,
} from "./pod-control.js";
import { WorkQueue } from "./work-queue.js";
import {
  controllerRef,
  copiedAnnotations,
  isPodReady,
  ownedBy,
  replicasOf,
  revisionOf,
  type SystemClient,
  spec,
  templateHash,
  templateLabels,
} from "./workload-helpers.js";

export { isPodReady, type SystemClient, templateHash } from "./workload-helpers.js";

const buckets = {
  deployments: "apps/deployments",
  replicasets: "apps/replicasets",
  statefulsets: "apps/statefulsets",
  daemonsets: "apps/daemonsets",
  jobs: "batch/jobs",
  pods: "/pods",
};

export class WorkloadControllers {
  private unsubscribe: () => void = () => {};
  private readonly queue: WorkQueue;
  private readonly events: EventRecorder;
  private readonly pods: PodControl;

  constructor(
    private readonly store: Store,
    private readonly client: SystemClient,
    delayMs = 20,
  ) {
    this.events = new EventRecorder(store, (group, version, resource, obj) =>
      client.create(group, version, resource, obj),
    );
    this.pods = new PodControl(client, this.events);
    this.queue = new WorkQueue((key) => {
      const [bucket = "", namespace, name = ""] = key.split("|");
      return this.reconcile(bucket, namespace || undefined, name);
    }, delayMs);
  }

  start(): void {
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
    if (bucket === buckets.deployments) return this.deployment(o);
    if (bucket === buckets.replicasets) return this.replicaSet(o);
    if (bucket === buckets.statefulsets) return this.statefulSet(o);
    if (bucket === buckets.daemonsets) return this.daemonSet(o);
    if (bucket === buckets.jobs) return this.job(o);
    return false;
  }

  /** `o` as stored now: a sync that awaited admission goes on from it, not from a stale copy. */
  private stored(bucket: string, o: KubeObject): KubeObject | undefined {
    const now = this.store.get(bucket, o.metadata?.namespace, o.metadata?.name ?? "");
    return now?.metadata?.uid === o.metadata?.uid ? now : undefined;
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

  private async deployment(d: KubeObject): Promise<boolean> {
    const ns = d.metadata?.namespace;
    const hash = templateHash(spec(d).template);
    const rsName = `${d.metadata?.name}-${hash}`;
    const owned = this.store.list(buckets.replicasets, ns).filter((rs) => ownedBy(rs, d));
    const desired = replicasOf(d);
    const maxRevision = Math.max(0, ...owned.map(revisionOf));
    const current = owned.find((rs) => rs.metadata?.name === rsName);
    // A paused Deployment rolls out nothing new (kubectl rollout pause).
    if (!current && spec(d).paused === true) {
      this.deploymentStatus(d, undefined, owned, desired);
      return false;
    }
    if (!current) {
      const template = deepClone(
        (spec(d).template ?? {}) as { metadata?: JsonObject; spec?: JsonObject },
      );
      const labels = { ...templateLabels(d), "pod-template-hash": hash };
      try {
        await createAs(this.client, COMPONENT.Deployment ?? "", "apps", "v1", "replicasets", {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          metadata: {
            name: rsName,
            namespace: ns,
            labels,
            annotations: {
              ...copiedAnnotations(d),
              "deployment.kubernetes.io/revision": String(maxRevision + 1),
              "deployment.kubernetes.io/desired-replicas": String(desired),
            },
            ownerReferences: [controllerRef(d)],
          },
          spec: {
            replicas: desired,
            selector: {
              ...((spec(d).selector as JsonObject | undefined) ?? {}),
              matchLabels: {
                ...(((spec(d).selector as JsonObject | undefined)?.matchLabels as
                  | JsonObject
                  | undefined) ?? {}),
                "pod-template-hash": hash,
              },
            },
            template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
          },
        });
      } catch (error) {
        if (namespaceTerminating(error)) return false;
        replicaSetCreateFailed(this.store, this.events, d, rsName, error);
        return true;
      }
      // The new ReplicaSet's event syncs the Deployment again, from what is stored by then.
      return false;
    } else {
      // Rolling back to an older template reuses its ReplicaSet under the next revision and
      // records the revisions it had (`deployment.kubernetes.io/revision-history`).
      const revision = revisionOf(current);
      const reactivated = revision < maxRevision;
      if (reactivated || replicasOf(current) !== desired) {
        modify(this.store, buckets.replicasets, current, (c) => {
          (c.spec as JsonObject).replicas = desired;
          if (!reactivated) return;
          const a = { ...(c.metadata?.annotations ?? {}), ...copiedAnnotations(d) };
          const history = a["deployment.kubernetes.io/revision-history"];
          a["deployment.kubernetes.io/revision-history"] = history
            ? `${history},${revision}`
            : String(revision);
          a["deployment.kubernetes.io/revision"] = String(maxRevision + 1);
          a["deployment.kubernetes.io/desired-replicas"] = String(desired);
          if (c.metadata) c.metadata.annotations = a;
        });
      }
    }
    for (const old of owned) {
      if (old.metadata?.name !== rsName && replicasOf(old) !== 0) {
        modify(this.store, buckets.replicasets, old, (c) => {
          (c.spec as JsonObject).replicas = 0;
        });
      }
    }
    this.cleanupHistory(d, rsName);
    const latest = this.store.get(buckets.replicasets, ns, rsName) ?? current;
    this.deploymentStatus(d, latest, owned, desired);
    return false;
  }

  /** Old ReplicaSets beyond `revisionHistoryLimit` (scaled to zero) are deleted, oldest first. */
  private cleanupHistory(d: KubeObject, currentName: string): void {
    const limit = Number(spec(d).revisionHistoryLimit ?? 10);
    const old = this.store
      .list(buckets.replicasets, d.metadata?.namespace)
      .filter(
        (rs) =>
          ownedBy(rs, d) &&
          rs.metadata?.name !== currentName &&
          !rs.metadata?.deletionTimestamp &&
          replicasOf(rs) === 0 &&
          Number((rs.status as JsonObject | undefined)?.replicas ?? 0) === 0,
      )
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of old.slice(0, Math.max(0, old.length - limit)))
      this.client.delete("apps", "replicasets", rs);
  }

  private deploymentStatus(
    d: KubeObject,
    latest: KubeObject | undefined,
    owned: KubeObject[],
    desired: number,
  ): void {
    const rsName = latest?.metadata?.name ?? "";
    const revision = latest
      ? latest.metadata?.annotations?.["deployment.kubernetes.io/revision"]
      : undefined;
    const rsStatus = (latest?.status ?? {}) as JsonObject;
    const ready = Number(rsStatus.readyReplicas ?? 0);
    const total = owned.reduce(
      (n, rs) => n + Number((rs.status as JsonObject | undefined)?.replicas ?? 0),
      0,
    );
    const all = this.store
      .list(buckets.replicasets, d.metadata?.namespace)
      .filter((rs) => ownedBy(rs, d));
    const now = nowTime();
    modify(this.store, buckets.deployments, d, (c) => {
      if (revision && c.metadata) {
        c.metadata.annotations = {
          ...(c.metadata.annotations ?? {}),
          "deployment.kubernetes.io/revision": revision,
        };
      }
      const prev = (c.status ?? {}) as JsonObject;
      const prevConds = (prev.conditions as JsonObject[] | undefined) ?? [];
      const cond = (type: string, status: string, reason: string, message: string): JsonObject => {
        const old = prevConds.find((x) => x.type === type);
        const same = old && old.status === status && old.reason === reason;
        return {
          type,
          status,
          lastUpdateTime: same ? old.lastUpdateTime : now,
          lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
          reason,
          message,
        };
      };
      const available = ready >= desired;
      c.status = {
        observedGeneration: c.metadata?.generation ?? 1,
        replicas: Math.max(total, Number(rsStatus.replicas ?? 0)),
        updatedReplicas: Number(rsStatus.replicas ?? 0),
        readyReplicas: ready,
        availableReplicas: ready,
        ...(desired - ready > 0 ? { unavailableReplicas: desired - ready } : {}),
        conditions: [
          available
            ? cond(
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.",
              )
            : cond(
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.",
              ),
          spec(c).paused === true
            ? cond("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused")
            : available && latest
              ? cond(
                  "Progressing",
                  "True",
                  "NewReplicaSetAvailable",
                  `ReplicaSet "${rsName}" has successfully progressed.`,
                )
              : cond(
                  "Progressing",
                  "True",
                  "ReplicaSetUpdated",
                  `ReplicaSet "${rsName}" is progressing.`,
                ),
        ],
      };
      // The ReplicaSets' ReplicaFailure, kept as it was while its status and reason hold.
      const failure = deploymentReplicaFailure(latest, all);
      if (failure) {
        const old = prevConds.find((x) => x.type === "ReplicaFailure");
        const keep = old && old.status === failure.status && old.reason === failure.reason;
        ((c.status as JsonObject).conditions as JsonObject[]).push(keep ? old : failure);
      }
      if (!ready) delete (c.status as JsonObject).readyReplicas;
      if (!ready) delete (c.status as JsonObject).availableReplicas;
    });
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
    for (const p of extra) this.pods.delete(rs, p);
    const live = this.ownedPods(rs);
    const ready = live.filter(isPodReady).length;
    const now = nowTime();
    modify(this.store, buckets.replicasets, rs, (c) => {
      const prev = (c.status ?? {}) as JsonObject;
      const conditions = withReplicaFailure(
        (prev.conditions as JsonObject[] | undefined) ?? [],
        error,
        pods.length,
        desired,
        now,
      );
      c.status = {
        replicas: live.length,
        fullyLabeledReplicas: live.length,
        ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
        observedGeneration: c.metadata?.generation ?? 1,
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
        error = (await this.pods.create(sts, pod)).error;
        break;
      }
      if (!isPodReady(pod)) break;
    }
    for (const p of pods) {
      const ordinal = Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1);
      if (ordinal >= desired) this.pods.delete(sts, p);
    }
    const live = this.ownedPods(sts).filter(
      (p) => Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1) < desired,
    );
    const ready = live.filter(isPodReady).length;
    const current = this.stored(buckets.statefulsets, sts);
    if (!current) return false;
    modify(this.store, buckets.statefulsets, current, (c) => {
      c.status = {
        observedGeneration: c.metadata?.generation ?? 1,
        replicas: live.length,
        ...(ready ? { readyReplicas: ready, availableReplicas: ready } : { availableReplicas: 0 }),
        currentReplicas: live.length,
        updatedReplicas: live.length,
        currentRevision: revision,
        updateRevision: revision,
        collisionCount: 0,
      };
    });
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
    for (const extra of pods.slice(1)) this.pods.delete(ds, extra);
    const live = this.ownedPods(ds);
    const ready = live.filter(isPodReady).length;
    const current = this.stored(buckets.daemonsets, ds);
    if (!current) return false;
    modify(this.store, buckets.daemonsets, current, (c) => {
      c.status = {
        currentNumberScheduled: live.length,
        numberMisscheduled: 0,
        desiredNumberScheduled: 1,
        numberReady: ready,
        observedGeneration: c.metadata?.generation ?? 1,
        updatedNumberScheduled: live.length,
        numberAvailable: ready,
        ...(ready < 1 ? { numberUnavailable: 1 - ready } : {}),
      };
    });
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
    const live = this.ownedPods(job).filter(
      (p) => phase(p) !== "Succeeded" && phase(p) !== "Failed",
    );
    const now = nowTime();
    const current = this.stored(buckets.jobs, job);
    if (!current) return false;
    modify(this.store, buckets.jobs, current, (c) => {
      const prev = (c.status ?? {}) as JsonObject;
      const complete = succeeded >= completions;
      const reached = {
        status: "True",
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: "CompletionsReached",
        message: "Reached expected number of succeeded pods",
      };
      c.status = {
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
      if (!live.length) delete (c.status as JsonObject).active;
    });
    return error !== undefined;
  }
}
