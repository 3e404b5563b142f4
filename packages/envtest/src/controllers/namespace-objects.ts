/**
 * The kube-controller-manager controllers that keep one object in every namespace (the
 * ServiceAccount controller's `default` ServiceAccount, the root CA publisher's
 * `kube-root-ca.crt` ConfigMap): the object is created with each namespace (and in those present
 * at start), created again when deleted, and, for publishers that own its content, synced back
 * when a client changes it. Never in a terminating namespace. One store subscription serves
 * every such controller, so each one costs start-up nothing beyond its creates.
 */
import { ApiError } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import type { KubeObject } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";
import { modify } from "../store/writes.js";

const NAMESPACES = bucketKey("", "namespaces");

/** One object every namespace has, and how its controller keeps it. */
export interface NamespaceObject {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
  /** The object to create in `namespace`. */
  build(namespace: string): KubeObject;
  /** Whether the controller syncs the stored object back; omit to leave clients' edits alone. */
  drifted?(current: KubeObject): boolean;
  /** Restores what `drifted` found changed, on a copy of the stored object. */
  restore?(copy: KubeObject): void;
}

/** Creates an object as the controller would through the API (admission included). */
export type SystemCreate = (
  group: string,
  version: string,
  resource: string,
  obj: KubeObject,
) => void;

export class NamespaceObjectsController {
  private unsubscribe: () => void = () => {};
  /** Owned objects by bucket, then name. */
  private readonly owned = new Map<string, Map<string, NamespaceObject>>();

  constructor(
    private readonly store: Store,
    private readonly objects: readonly NamespaceObject[],
    private readonly create: SystemCreate,
  ) {
    for (const o of objects) {
      const bucket = bucketKey(o.group, o.resource);
      const byName = this.owned.get(bucket) ?? new Map<string, NamespaceObject>();
      byName.set(o.name, o);
      this.owned.set(bucket, byName);
    }
  }

  start(): void {
    for (const ns of this.store.list(NAMESPACES)) {
      const name = ns.metadata?.name ?? "";
      for (const o of this.objects) this.sync(o, name);
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
        for (const o of this.objects) this.sync(o, name);
      });
      return;
    }
    const byName = this.owned.get(ev.bucket);
    if (!byName || ev.type === "ADDED") return;
    const o = byName.get(ev.object.metadata?.name ?? "");
    if (!o || (ev.type === "MODIFIED" && !o.drifted)) return;
    const namespace = ev.object.metadata?.namespace ?? "";
    queueMicrotask(() => this.sync(o, namespace));
  }

  private sync(o: NamespaceObject, namespace: string): void {
    const ns = this.store.get(NAMESPACES, undefined, namespace);
    if (!ns || ns.metadata?.deletionTimestamp) return;
    const bucket = bucketKey(o.group, o.resource);
    const current = this.store.get(bucket, namespace, o.name);
    if (current) {
      if (o.restore && o.drifted?.(current) && !current.metadata?.deletionTimestamp) {
        const restore = o.restore;
        modify(this.store, bucket, current, (copy) => restore(copy));
      }
      return;
    }
    try {
      this.create(o.group, o.version, o.resource, o.build(namespace));
    } catch (e) {
      // Someone created it first, or the namespace began terminating: nothing to do.
      if (!(e instanceof ApiError)) throw e;
    }
  }
}
