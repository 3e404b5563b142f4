/**
 * How kube-controller-manager's workload controllers create and delete pods and report it
 * (`pkg/controller/controller_utils.go` RealPodControl, the StatefulSet's pod control): each
 * create or delete is recorded as an Event on the owner, a refused create as a Warning
 * FailedCreate carrying the API error, and creates of a ReplicaSet, DaemonSet or Job go in
 * slow-start batches (1, 2, 4, ...) that stop at the first batch with a failure. A create refused
 * because the namespace is terminating records nothing, as upstream. Each controller writes
 * through the API as its own service account.
 */

import { isNotFound } from "@opgen/apimachinery/status";
import { nowTime } from "../api/meta.js";
import type { JsonObject, KubeObject } from "../api/types.js";
import type { ApiClient } from "../client/api-client.js";
import type { Store } from "../store/store.js";
import type { EventRecorder } from "./event-recorder.js";

/** The event source each controller records as. */
export const COMPONENT: Record<string, string> = {
  Deployment: "deployment-controller",
  ReplicaSet: "replicaset-controller",
  StatefulSet: "statefulset-controller",
  DaemonSet: "daemonset-controller",
  Job: "job-controller",
};

/** The service account in kube-system each controller writes as (its bootstrap role's name). */
export const ACCOUNT: Record<string, string> = {
  Deployment: "deployment-controller",
  ReplicaSet: "replicaset-controller",
  StatefulSet: "statefulset-controller",
  DaemonSet: "daemon-set-controller",
  Job: "job-controller",
};

export const PODS = { group: "", version: "v1", resource: "pods" };
export const DEPLOYMENTS = { group: "apps", version: "v1", resource: "deployments" };

/** err.Error() of an API error: its Status message. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** apierrors.HasStatusCause(err, NamespaceTerminatingCause). */
export function namespaceTerminating(err: unknown): boolean {
  const causes = (err as { details?: { causes?: { reason?: string }[] } } | undefined)?.details
    ?.causes;
  return (causes ?? []).some((c) => c.reason === "NamespaceTerminating");
}

/**
 * getNewReplicaSet's failure: a Warning ReplicaSetCreateError on the Deployment and its
 * Progressing condition False with the same message (a progress deadline is always set here).
 */
export async function replicaSetCreateFailed(
  store: Store,
  client: ApiClient,
  events: EventRecorder,
  d: KubeObject,
  rsName: string,
  error: unknown,
): Promise<void> {
  const reason = "ReplicaSetCreateError";
  const message = `Failed to create new replica set "${rsName}": ${errorText(error)}`;
  await events.event(COMPONENT.Deployment ?? "", d, "Warning", reason, message);
  const current = store.get("apps/deployments", d.metadata?.namespace, d.metadata?.name ?? "");
  if (!current || current.metadata?.uid !== d.metadata?.uid) return;
  const now = nowTime();
  await client.changeStatus(DEPLOYMENTS, current, (status) => {
    const conds = (status.conditions as JsonObject[] | undefined) ?? [];
    const old = conds.find((x) => x.type === "Progressing");
    if (old && old.status === "False" && old.reason === reason) return undefined;
    const cond = {
      type: "Progressing",
      status: "False",
      lastUpdateTime: now,
      lastTransitionTime: old?.status === "False" ? old.lastTransitionTime : now,
      reason,
      message,
    };
    return { ...status, conditions: [...conds.filter((x) => x !== old), cond] };
  });
}

export class PodControl {
  constructor(
    /** The client of the controller that owns `owner`. */
    private readonly clientOf: (owner: KubeObject) => ApiClient,
    private readonly events: EventRecorder,
  ) {}

  private source(owner: KubeObject): string {
    return COMPONENT[owner.kind ?? ""] ?? "kube-controller-manager";
  }

  /** RealPodControl.CreatePods: the created pod, or the error after recording it. */
  async create(owner: KubeObject, pod: KubeObject): Promise<{ pod?: KubeObject; error?: unknown }> {
    const sts = owner.kind === "StatefulSet";
    const podName = pod.metadata?.name ?? "";
    const ownerName = owner.metadata?.name ?? "";
    try {
      const created = await this.clientOf(owner).create(PODS, pod);
      const name = created.metadata?.name ?? podName;
      void this.events.event(
        this.source(owner),
        owner,
        "Normal",
        "SuccessfulCreate",
        sts ? `create Pod ${name} in StatefulSet ${ownerName} successful` : `Created pod: ${name}`,
      );
      return { pod: created };
    } catch (error) {
      if (!namespaceTerminating(error))
        void this.events.event(
          this.source(owner),
          owner,
          "Warning",
          "FailedCreate",
          sts
            ? `create Pod ${podName} in StatefulSet ${ownerName} failed error: ${errorText(error)}`
            : `Error creating: ${errorText(error)}`,
        );
      return { error };
    }
  }

  /**
   * slowStartBatch over `count` creates: the first error (none when all were created, or when
   * the namespace is terminating, which the controllers do not count as a failure).
   */
  async createBatch(owner: KubeObject, count: number, build: () => KubeObject): Promise<unknown> {
    let remaining = count;
    for (let size = 1; remaining > 0; size *= 2) {
      const batch = Math.min(size, remaining);
      let first: unknown;
      for (let i = 0; i < batch; i++) {
        const { error } = await this.create(owner, build());
        if (error !== undefined && first === undefined) first = error;
      }
      if (first !== undefined) return namespaceTerminating(first) ? undefined : first;
      remaining -= batch;
    }
    return undefined;
  }

  /**
   * RealPodControl.DeletePod (or the StatefulSet's), recorded as SuccessfulDelete; a pod already
   * gone is no failure, as the controllers treat it.
   */
  async delete(owner: KubeObject, pod: KubeObject): Promise<void> {
    const name = pod.metadata?.name ?? "";
    try {
      await this.clientOf(owner).delete(PODS, { namespace: pod.metadata?.namespace, name });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    void this.events.event(
      this.source(owner),
      owner,
      "Normal",
      "SuccessfulDelete",
      owner.kind === "StatefulSet"
        ? `delete Pod ${name} in StatefulSet ${owner.metadata?.name ?? ""} successful`
        : `Deleted pod: ${name}`,
    );
  }
}

/**
 * The ReplicaSet's ReplicaFailure condition after a sync (calculateStatus): set when pods could
 * not be created and none is set yet (its message stays the first error), removed once a sync
 * succeeds.
 */
export function withReplicaFailure(
  previous: JsonObject[],
  error: unknown,
  pods: number,
  desired: number,
  now: string,
): JsonObject[] {
  const existing = previous.find((c) => c.type === "ReplicaFailure");
  if (error === undefined) return previous.filter((c) => c.type !== "ReplicaFailure");
  if (existing) return previous;
  const reason = pods < desired ? "FailedCreate" : pods > desired ? "FailedDelete" : "";
  return [
    ...previous,
    {
      type: "ReplicaFailure",
      status: "True",
      lastTransitionTime: now,
      ...(reason ? { reason } : {}),
      message: errorText(error),
    },
  ];
}

/**
 * getReplicaFailures: the new ReplicaSet's ReplicaFailure (else the first an older one has) as
 * a Deployment condition, whose lastUpdateTime is the ReplicaSet condition's transition time.
 */
export function deploymentReplicaFailure(
  latest: KubeObject | undefined,
  all: KubeObject[],
): JsonObject | undefined {
  const failure = (rs: KubeObject | undefined) =>
    (((rs?.status as JsonObject | undefined)?.conditions as JsonObject[] | undefined) ?? []).find(
      (c) => c.type === "ReplicaFailure",
    );
  const c = failure(latest) ?? all.map(failure).find((x) => x !== undefined);
  if (!c) return undefined;
  return {
    type: "ReplicaFailure",
    status: c.status,
    lastUpdateTime: c.lastTransitionTime,
    lastTransitionTime: c.lastTransitionTime,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    message: c.message,
  };
}
