/**
 * kube-controller-manager's ServiceAccount controller, the part tests see: every namespace has a
 * `default` ServiceAccount, created when the namespace is (and recreated if deleted), so a pod or
 * a `RoleBinding` to `system:serviceaccount:<ns>:default` works as on a cluster.
 */
import { ApiError } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import type { KubeObject } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";

const NAMESPACES = bucketKey("", "namespaces");
const SERVICE_ACCOUNTS = bucketKey("", "serviceaccounts");

export class ServiceAccountsController {
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly create: (obj: KubeObject) => void,
  ) {}

  start(): void {
    for (const ns of this.store.list(NAMESPACES)) this.ensure(ns.metadata?.name ?? "");
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type === "ADDED" && ev.bucket === NAMESPACES) {
      const name = ev.object.metadata?.name ?? "";
      // After the write that announced it, as a controller reacts to a watch event.
      queueMicrotask(() => this.ensure(name));
    } else if (
      ev.type === "DELETED" &&
      ev.bucket === SERVICE_ACCOUNTS &&
      ev.object.metadata?.name === "default"
    ) {
      const ns = ev.object.metadata.namespace ?? "";
      queueMicrotask(() => this.ensure(ns));
    }
  }

  private ensure(namespace: string): void {
    const ns = this.store.get(NAMESPACES, undefined, namespace);
    if (!ns || ns.metadata?.deletionTimestamp) return;
    if (this.store.get(SERVICE_ACCOUNTS, namespace, "default")) return;
    try {
      this.create({
        apiVersion: "v1",
        kind: "ServiceAccount",
        metadata: { name: "default", namespace },
      });
    } catch (e) {
      // Someone created it first, or the namespace began terminating: nothing to do.
      if (!(e instanceof ApiError)) throw e;
    }
  }
}
