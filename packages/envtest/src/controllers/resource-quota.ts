/**
 * kube-controller-manager's resourcequota controller: every ResourceQuota's status holds its hard
 * limits (`status.hard` = `spec.hard`) and what the namespace uses of them (`status.used`),
 * recomputed whenever an object of the namespace changes, and written through the status
 * subresource as `kube-controller-manager` only when it differs (syncResourceQuota). A used value
 * no evaluator can compute keeps its last observation. Pods whose deletion is overdue by their
 * grace period stop being charged at that moment, so the namespace is synced again then.
 */

import type { Registry } from "../api/registry.js";
import { deepClone, deepEqual, type KubeObject, objectAt } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import { isIgnored } from "../rest/quota/evaluators.js";
import { equals, mask, resourceList, toJson } from "../rest/quota/resource-list.js";
import { calculateUsage, hardOf, QUOTAS, quotable, type Served } from "../rest/quota/usage.js";
import type { Store } from "../store/store.js";
import { NamespaceQueue } from "./namespace-queue.js";
import { failedSync } from "./work-queue.js";

const PODS = "/pods";
const RESOURCE_QUOTAS = { group: "", version: "v1", resource: "resourcequotas" };

export class ResourceQuotaController {
  private readonly queue: NamespaceQueue;
  private readonly served: Served;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly client: ApiClient;

  constructor(
    private readonly store: Store,
    registry: Registry,
    client: InternalClient,
  ) {
    this.client = client.as(controllerIdentity("resourcequota-controller"));
    this.served = quotable(registry);
    // Any namespaced object can be counted (`count/<resource>`); events never are.
    const watched = (bucket: string) => {
      // No quota anywhere (the usual test): nothing to recompute, and no work per write.
      if (bucket !== QUOTAS && store.count(QUOTAS) === 0) return false;
      const slash = bucket.indexOf("/");
      return !isIgnored(bucket.slice(0, slash), bucket.slice(slash + 1));
    };
    this.queue = new NamespaceQueue(store, watched, (ns) => this.syncNamespace(ns));
  }

  start(): void {
    this.queue.start(this.store.list(QUOTAS));
  }

  stop(): void {
    this.queue.stop();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Syncs every quota of `namespace`; true when one lost its write to a conflict. */
  private async syncNamespace(namespace: string): Promise<boolean> {
    if (!namespace) return false;
    const quotas = this.store.list(QUOTAS, namespace);
    if (quotas.length === 0) return false;
    const now = Date.now();
    this.wakeForOverduePods(namespace, now);
    let failed = false;
    for (const quota of quotas) {
      try {
        await this.sync(quota, now);
      } catch (e) {
        // A refused write (a webhook's, a deleted quota) waits for the next event.
        if (failedSync(e)) failed = true;
      }
    }
    return failed;
  }

  /** syncResourceQuota: hard from spec, used recomputed over the last observation. */
  private async sync(quota: KubeObject, now: number): Promise<void> {
    if (quota.metadata?.deletionTimestamp) return;
    const status = objectAt(quota.status);
    const hard = hardOf(quota);
    const previous = resourceList(status.used);
    const observed = new Map([...previous, ...calculateUsage(this.store, quota, this.served, now)]);
    const used = mask(observed, hard.keys());
    const dirty =
      status.hard === undefined ||
      status.used === undefined ||
      !deepEqual(toJson(hard), status.hard) ||
      !equals(used, previous);
    if (!dirty) return;
    const next = deepClone(quota);
    next.status = { hard: toJson(hard), used: toJson(used) };
    // A conflict (a client changed the quota meanwhile) is the queue's to retry.
    await this.client.updateStatus(RESOURCE_QUOTAS, next);
  }

  /** Syncs the namespace again when the next terminating pod stops being charged. */
  private wakeForOverduePods(namespace: string, now: number): void {
    let next = Number.POSITIVE_INFINITY;
    for (const pod of this.store.list(PODS, namespace)) {
      const m = pod.metadata;
      if (!m?.deletionTimestamp || typeof m.deletionGracePeriodSeconds !== "number") continue;
      const at = Date.parse(m.deletionTimestamp) + m.deletionGracePeriodSeconds * 1000;
      if (at >= now && at < next) next = at;
    }
    clearTimeout(this.timers.get(namespace));
    this.timers.delete(namespace);
    if (next === Number.POSITIVE_INFINITY) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(namespace);
        this.queue.add(namespace);
      },
      next - now + 1,
    );
    timer.unref();
    this.timers.set(namespace, timer);
  }
}
