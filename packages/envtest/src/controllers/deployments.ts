/**
 * kube-controller-manager's Deployment controller, simulated for `simulate: true`: one
 * ReplicaSet per pod template (`<name>-<pod-template-hash>`, older ones scaled to 0 and deleted
 * beyond `revisionHistoryLimit`, an older template's reused under the next revision), and the
 * Deployment's revision annotation and status from its ReplicaSets. Writes go through the API as
 * `deployment-controller`; the status with the revision annotation through the status
 * subresource, as kube's controller writes them (its status strategy keeps annotations).
 */
import { nowTime } from "../api/meta.js";
import { deepClone, type JsonObject, type KubeObject } from "../api/types.js";
import type { ApiClient } from "../client/api-client.js";
import type { Store } from "../store/store.js";
import type { EventRecorder } from "./event-recorder.js";
import {
  DEPLOYMENTS,
  deploymentReplicaFailure,
  namespaceTerminating,
  replicaSetCreateFailed,
} from "./pod-control.js";
import {
  controllerRef,
  copiedAnnotations,
  ownedBy,
  replicasOf,
  revisionOf,
  spec,
  storedNow,
  templateHash,
  templateLabels,
} from "./workload-helpers.js";

const DEPLOYMENTS_BUCKET = "apps/deployments";
const REPLICASETS_BUCKET = "apps/replicasets";
const REPLICASETS = { group: "apps", version: "v1", resource: "replicasets" };
const STATUS = { subresource: "status" };

export class DeploymentController {
  constructor(
    private readonly store: Store,
    private readonly client: ApiClient,
    private readonly events: EventRecorder,
  ) {}

  /** Syncs one Deployment; true when it failed and must be retried. */
  async sync(d: KubeObject): Promise<boolean> {
    const ns = d.metadata?.namespace;
    const hash = templateHash(spec(d).template);
    const rsName = `${d.metadata?.name}-${hash}`;
    const owned = this.store.list(REPLICASETS_BUCKET, ns).filter((rs) => ownedBy(rs, d));
    const desired = replicasOf(d);
    const maxRevision = Math.max(0, ...owned.map(revisionOf));
    const current = owned.find((rs) => rs.metadata?.name === rsName);
    // A paused Deployment rolls out nothing new (kubectl rollout pause).
    if (!current && spec(d).paused === true) {
      await this.deploymentStatus(d, undefined, owned, desired);
      return false;
    }
    if (!current) {
      const template = deepClone(
        (spec(d).template ?? {}) as { metadata?: JsonObject; spec?: JsonObject },
      );
      const labels = { ...templateLabels(d), "pod-template-hash": hash };
      try {
        await this.client.create(REPLICASETS, {
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
        await replicaSetCreateFailed(this.store, this.client, this.events, d, rsName, error);
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
        await this.client.change(REPLICASETS, current, (c) => {
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
        await this.client.change(REPLICASETS, old, (c) => {
          (c.spec as JsonObject).replicas = 0;
        });
      }
    }
    await this.cleanupHistory(d, rsName);
    const latest = this.store.get(REPLICASETS_BUCKET, ns, rsName) ?? current;
    await this.deploymentStatus(d, latest, owned, desired);
    return false;
  }

  /** Old ReplicaSets beyond `revisionHistoryLimit` (scaled to zero) are deleted, oldest first. */
  private async cleanupHistory(d: KubeObject, currentName: string): Promise<void> {
    const limit = Number(spec(d).revisionHistoryLimit ?? 10);
    const old = this.store
      .list(REPLICASETS_BUCKET, d.metadata?.namespace)
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
      await this.client.delete(REPLICASETS, {
        namespace: rs.metadata?.namespace,
        name: rs.metadata?.name ?? "",
      });
  }

  /**
   * The Deployment's revision annotation and status, written together through the status
   * subresource as kube's controller writes them (its status strategy keeps annotations).
   */
  private async deploymentStatus(
    d: KubeObject,
    latest: KubeObject | undefined,
    owned: KubeObject[],
    desired: number,
  ): Promise<void> {
    const current = storedNow(this.store, DEPLOYMENTS_BUCKET, d);
    if (!current) return;
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
      .list(REPLICASETS_BUCKET, d.metadata?.namespace)
      .filter((rs) => ownedBy(rs, d));
    const now = nowTime();
    await this.client.change(
      DEPLOYMENTS,
      current,
      (c) => {
        if (revision && c.metadata) {
          c.metadata.annotations = {
            ...(c.metadata.annotations ?? {}),
            "deployment.kubernetes.io/revision": revision,
          };
        }
        const prev = (c.status ?? {}) as JsonObject;
        const prevConds = (prev.conditions as JsonObject[] | undefined) ?? [];
        const cond = (
          type: string,
          status: string,
          reason: string,
          message: string,
        ): JsonObject => {
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
      },
      STATUS,
    );
  }
}
