/**
 * The kube-controller-manager controllers that keep one object in every namespace (the
 * ServiceAccount controller's `default` ServiceAccount, the root CA publisher's
 * `kube-root-ca.crt` ConfigMap): the object is created with each namespace (and in those present
 * at start), created again when deleted, and, for publishers that own its content, synced back
 * when a client changes it. Never in a terminating namespace. One store subscription serves
 * every such controller, so each one costs start-up nothing beyond its creates, which go through
 * the API as the controller's service account.
 */
import { bucketKey } from "../api/registry.js";
import type { KubeObject } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import { retryOnConflict } from "../client/retry.js";
import type { Store, StoreEvent } from "../store/store.js";

const NAMESPACES = bucketKey("", "namespaces");

/** One object every namespace has, and how its controller keeps it. */
export interface NamespaceObject {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
  /** The controller's service account in kube-system (`service-account-controller`). */
  readonly controller: string;
  /** The object to create in `namespace`. */
  build(namespace: string): KubeObject;
  /** Whether the controller syncs the stored object back; omit to leave clients' edits alone. */
  drifted?(current: KubeObject): boolean;
  /** Restores what `drifted` found changed, on a copy of the stored object. */
  restore?(copy: KubeObject): void;
}

export class NamespaceObjectsController {
  private unsubscribe: () => void = () => {};
  /** Owned objects by bucket, then name. */
  private readonly owned = new Map<string, Map<string, NamespaceObject>>();
  private readonly clients = new Map<NamespaceObject, ApiClient>();

  constructor(
    private readonly store: Store,
    private readonly objects: readonly NamespaceObject[],
    client: InternalClient,
  ) {
    for (const o of objects) {
      this.clients.set(o, client.as(controllerIdentity(o.controller)));
      const bucket = bucketKey(o.group, o.resource);
      const byName = this.owned.get(bucket) ?? new Map<string, NamespaceObject>();
      byName.set(o.name, o);
      this.owned.set(bucket, byName);
    }
  }

  start(): void {
    for (const ns of this.store.list(NAMESPACES)) {
      const name = ns.metadata?.name ?? "";
      for (const o of this.objects) this.run(o, name);
    }
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.bucket === NAMESPACES) {
      if (ev.type !== "ADDED") return;
      const name = ev.object.metadata?.name ?? "";
      // After the write that announced it, as a controller reacts to a watch event.
      queueMicrotask(() => {
        for (const o of this.objects) this.run(o, name);
      });
      return;
    }
    const byName = this.owned.get(ev.bucket);
    if (!byName || ev.type === "ADDED") return;
    const o = byName.get(ev.object.metadata?.name ?? "");
    if (!o || (ev.type === "MODIFIED" && !o.drifted)) return;
    const namespace = ev.object.metadata?.namespace ?? "";
    queueMicrotask(() => this.run(o, namespace));
  }

  /**
   * One sync. A refused write needs nothing more: someone created the object first, the
   * namespace began terminating, or a webhook refused it (the object's next event, or the
   * namespace's, syncs it again); a conflict was read again and retried (retryOnConflict).
   */
  private run(o: NamespaceObject, namespace: string): void {
    retryOnConflict(() => this.sync(o, namespace)).catch(() => {});
  }

  private async sync(o: NamespaceObject, namespace: string): Promise<void> {
    const ns = this.store.get(NAMESPACES, undefined, namespace);
    if (!ns || ns.metadata?.deletionTimestamp) return;
    const client = this.clients.get(o)!;
    const res = { group: o.group, version: o.version, resource: o.resource };
    const current = this.store.get(bucketKey(o.group, o.resource), namespace, o.name);
    if (!current) {
      await client.create(res, o.build(namespace));
      return;
    }
    if (o.restore && o.drifted?.(current) && !current.metadata?.deletionTimestamp)
      await client.change(res, current, o.restore);
  }
}
