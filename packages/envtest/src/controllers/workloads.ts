/**
 * The workload controllers of kube-controller-manager, simulated for `simulate: true`: a
 * Deployment owns one ReplicaSet per pod template (`<name>-<pod-template-hash>`, older ones
 * scaled to 0), a ReplicaSet keeps `replicas` pods (`<rs>-<5 chars>`), a StatefulSet keeps pods
 * `<name>-0…N-1`, a DaemonSet one pod on the simulated node; each reports the replicas its pods
 * show ready. Children carry controller owner references, so the garbage collector removes them
 * with their owner. Rollouts are immediate (no surge or unavailability budget).
 */
import { createHash } from "node:crypto";
import { nowTime } from "../api/meta.js";
import { deepClone, type JsonObject, type KubeObject, type OwnerReference } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";
import { modify } from "../store/writes.js";

/** What the controllers need from the server: create and delete as the system. */
export interface SystemClient {
  create(group: string, version: string, resource: string, obj: KubeObject): KubeObject;
  delete(group: string, resource: string, obj: KubeObject): void;
}

const buckets = {
  deployments: "apps/deployments",
  replicasets: "apps/replicasets",
  statefulsets: "apps/statefulsets",
  daemonsets: "apps/daemonsets",
  jobs: "batch/jobs",
  pods: "/pods",
};

const hashAlphabet = "bcdfghjklmnpqrstvwxz2456789";

/** JSON with object keys sorted: equal templates hash equal whatever order their keys came in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** A short stable hash of a pod template, in the alphabet of pod-template-hash labels. */
export function templateHash(template: unknown): string {
  const digest = createHash("sha256")
    .update(canonicalJson(template ?? {}))
    .digest();
  let out = "";
  for (let i = 0; i < 10; i++) out += hashAlphabet[digest[i]! % hashAlphabet.length];
  return out;
}

function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? "apps/v1",
    kind: owner.kind ?? "",
    name: owner.metadata?.name ?? "",
    uid: owner.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

function ownedBy(o: KubeObject, owner: KubeObject): boolean {
  return (o.metadata?.ownerReferences ?? []).some(
    (r) => r.controller && r.uid === owner.metadata?.uid,
  );
}

/** A pod's Ready condition is True (what ready replicas, endpoints and budgets count). */
export function isPodReady(pod: KubeObject): boolean {
  const conds =
    ((pod.status as JsonObject | undefined)?.conditions as JsonObject[] | undefined) ?? [];
  return conds.some((c) => c.type === "Ready" && c.status === "True");
}

function spec(o: KubeObject): JsonObject {
  return (o.spec ?? {}) as JsonObject;
}

function replicasOf(o: KubeObject): number {
  const r = spec(o).replicas;
  return typeof r === "number" ? r : 1;
}

/** A ReplicaSet's `deployment.kubernetes.io/revision`. */
function revisionOf(rs: KubeObject): number {
  return Number(rs.metadata?.annotations?.["deployment.kubernetes.io/revision"] ?? 0) || 0;
}

/** The Deployment's annotations a new ReplicaSet carries (kubernetes.io/change-cause, ...). */
function copiedAnnotations(d: KubeObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (k === "kubectl.kubernetes.io/last-applied-configuration") continue;
    if (k.startsWith("deployment.kubernetes.io/")) continue;
    out[k] = v;
  }
  return out;
}

function templateLabels(o: KubeObject): Record<string, string> {
  const t = (spec(o).template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  return t.metadata?.labels ?? {};
}

export class WorkloadControllers {
  private unsubscribe: () => void = () => {};
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    private readonly client: SystemClient,
    private readonly delayMs = 20,
  ) {}

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
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
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
    const key = `${bucket}|${namespace ?? ""}|${name}`;
    if (this.pending.has(key)) return;
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        try {
          this.reconcile(bucket, namespace, name);
        } catch {
          // A namespace being deleted refuses new children; the next event retries.
        }
      }, this.delayMs),
    );
  }

  private reconcile(bucket: string, namespace: string | undefined, name: string): void {
    const o = this.store.get(bucket, namespace, name);
    if (!o || o.metadata?.deletionTimestamp) return;
    if (bucket === buckets.deployments) this.deployment(o);
    else if (bucket === buckets.replicasets) this.replicaSet(o);
    else if (bucket === buckets.statefulsets) this.statefulSet(o);
    else if (bucket === buckets.daemonsets) this.daemonSet(o);
    else if (bucket === buckets.jobs) this.job(o);
  }

  private ownedPods(owner: KubeObject): KubeObject[] {
    return this.store
      .list(buckets.pods, owner.metadata?.namespace)
      .filter((p) => ownedBy(p, owner) && !p.metadata?.deletionTimestamp);
  }

  private newPod(
    owner: KubeObject,
    extra: {
      name?: string;
      generateName?: string;
      labels?: Record<string, string>;
      nodeName?: string;
    },
  ): void {
    const template = deepClone(
      (spec(owner).template ?? {}) as { metadata?: JsonObject; spec?: JsonObject },
    );
    const tmeta = (template.metadata ?? {}) as {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    this.client.create("", "v1", "pods", {
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
    });
  }

  private deployment(d: KubeObject): void {
    const ns = d.metadata?.namespace;
    const hash = templateHash(spec(d).template);
    const rsName = `${d.metadata?.name}-${hash}`;
    const owned = this.store.list(buckets.replicasets, ns).filter((rs) => ownedBy(rs, d));
    const desired = replicasOf(d);
    const maxRevision = Math.max(0, ...owned.map(revisionOf));
    let current = owned.find((rs) => rs.metadata?.name === rsName);
    // A paused Deployment rolls out nothing new (kubectl rollout pause).
    if (!current && spec(d).paused === true) {
      this.deploymentStatus(d, undefined, owned, desired);
      return;
    }
    if (!current) {
      const template = deepClone(
        (spec(d).template ?? {}) as { metadata?: JsonObject; spec?: JsonObject },
      );
      const labels = { ...templateLabels(d), "pod-template-hash": hash };
      current = this.client.create("apps", "v1", "replicasets", {
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
      if (!ready) delete (c.status as JsonObject).readyReplicas;
      if (!ready) delete (c.status as JsonObject).availableReplicas;
    });
  }

  private replicaSet(rs: KubeObject): void {
    const desired = replicasOf(rs);
    const pods = this.ownedPods(rs);
    for (let i = pods.length; i < desired; i++)
      this.newPod(rs, { generateName: `${rs.metadata?.name}-` });
    // Scale down newest first (kube-controller-manager prefers unready and younger pods).
    const extra = pods
      .sort((a, b) =>
        String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)),
      )
      .slice(0, Math.max(0, pods.length - desired));
    for (const p of extra) this.client.delete("", "pods", p);
    const live = this.ownedPods(rs);
    const ready = live.filter(isPodReady).length;
    modify(this.store, buckets.replicasets, rs, (c) => {
      c.status = {
        replicas: live.length,
        fullyLabeledReplicas: live.length,
        ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
        observedGeneration: c.metadata?.generation ?? 1,
      };
    });
  }

  private statefulSet(sts: KubeObject): void {
    const name = sts.metadata?.name ?? "";
    const desired = replicasOf(sts);
    const revision = `${name}-${templateHash(spec(sts).template)}`;
    const pods = this.ownedPods(sts);
    const byName = new Map(pods.map((p) => [p.metadata?.name, p]));
    // OrderedReady: create the next ordinal only when all lower ones are ready.
    for (let i = 0; i < desired; i++) {
      const podName = `${name}-${i}`;
      const pod = byName.get(podName);
      if (!pod) {
        this.newPod(sts, {
          name: podName,
          labels: {
            "statefulset.kubernetes.io/pod-name": podName,
            "controller-revision-hash": revision,
            "apps.kubernetes.io/pod-index": String(i),
          },
        });
        break;
      }
      if (!isPodReady(pod)) break;
    }
    for (const p of pods) {
      const ordinal = Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1);
      if (ordinal >= desired) this.client.delete("", "pods", p);
    }
    const live = this.ownedPods(sts).filter(
      (p) => Number(/-(\d+)$/.exec(p.metadata?.name ?? "")?.[1] ?? -1) < desired,
    );
    const ready = live.filter(isPodReady).length;
    modify(this.store, buckets.statefulsets, sts, (c) => {
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
  }

  private daemonSet(ds: KubeObject): void {
    const pods = this.ownedPods(ds);
    if (pods.length === 0)
      this.newPod(ds, { generateName: `${ds.metadata?.name}-`, nodeName: "envtest-node" });
    for (const extra of pods.slice(1)) this.client.delete("", "pods", extra);
    const live = this.ownedPods(ds);
    const ready = live.filter(isPodReady).length;
    modify(this.store, buckets.daemonsets, ds, (c) => {
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
  }

  /** Jobs: run pods until `completions` succeeded, `parallelism` at a time, then Complete. */
  private job(job: KubeObject): void {
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
    if (!done && !js.suspend) {
      for (let n = active.length; n < parallelism && succeeded + n < completions; n++) {
        this.newPod(job, {
          generateName: `${name}-`,
          labels: {
            "batch.kubernetes.io/controller-uid": uid,
            "batch.kubernetes.io/job-name": name,
            "controller-uid": uid,
            "job-name": name,
          },
        });
      }
    }
    const live = this.ownedPods(job).filter(
      (p) => phase(p) !== "Succeeded" && phase(p) !== "Failed",
    );
    const now = nowTime();
    modify(this.store, buckets.jobs, job, (c) => {
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
  }
}
