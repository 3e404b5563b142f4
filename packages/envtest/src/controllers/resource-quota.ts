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
import type { ObjectRest } from "../rest/objects.js";
import { isIgnored } from "../rest/quota/evaluators.js";
import { equals, mask, resourceList, toJson } from "../rest/quota/resource-list.js";
import { calculateUsage, hardOf, QUOTAS, quotable, type Served } from "../rest/quota/usage.js";
import type { Store } from "../store/store.js";
import { controllerUser, writeStatus } from "./controller-identity.js";
import { NamespaceQueue } from "./namespace-queue.js";

const PODS = "/pods";

export class ResourceQuotaController {
  private readonly queue: NamespaceQueue;
  private readonly served: Served;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly rest: ObjectRest,
  ) {
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

  private syncNamespace(namespace: string): void {
    if (!namespace) return;
    const quotas = this.store.list(QUOTAS, namespace);
    if (quotas.length === 0) return;
    const now = Date.now();
    for (const quota of quotas) void this.sync(quota, now);
    this.wakeForOverduePods(namespace, now);
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
    await this.updateStatus(next);
  }

  private updateStatus(obj: KubeObject): Promise<void> {
    return writeStatus(
      { rest: this.rest, registry: this.registry },
      { group: "", version: "v1", resource: "resourcequotas" },
      obj,
      controllerUser("resourcequota-controller"),
      "kube-controller-manager",
    );
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
        this.syncNamespace(namespace);
      },
      next - now + 1,
    );
    timer.unref();
    this.timers.set(namespace, timer);
  }
}
