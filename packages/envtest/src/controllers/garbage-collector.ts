/**
 * The garbage collector of kube-controller-manager (`pkg/controller/garbagecollector`), driven
 * by store events instead of informers: dependents whose owners are all gone are deleted (with
 * the policy their own finalizers ask for), dangling owner references next to a live owner are
 * stripped, foreground deletion waits for `blockOwnerDeletion` dependents, and orphaning removes
 * the owner's references from its dependents. Also the namespace controller: a terminating
 * namespace is emptied, then finalized.
 */
import { bucketOf, type Registry } from "../api/registry.js";
import {
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
  storageVersion,
} from "../api/types.js";
import type { ObjectRest } from "../rest/objects.js";
import type { Store, StoreEvent } from "../store/store.js";
import { modify, remove } from "../store/writes.js";

interface Ref {
  bucket: string;
  namespace: string | undefined;
  name: string;
}

const namespacesBucket = "/namespaces";

export class GarbageCollector {
  /** uid → where the object lives. */
  private readonly byUid = new Map<string, Ref>();
  /** owner uid → dependents' uids. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue = new Set<string>();
  private readonly namespaceQueue = new Set<string>();
  private scheduled = false;
  private unsubscribe: () => void = () => {};
  private stopped = true;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly rest: ObjectRest,
  ) {}

  start(): void {
    this.stopped = false;
    this.byUid.clear();
    this.dependents.clear();
    for (const info of this.registry.all()) {
      if (info.sharedStorage) continue;
      for (const o of this.store.list(bucketOf(info))) this.index(bucketOf(info), o);
    }
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
  }

  /** Resolves once no garbage-collection work is pending (tests: deterministic waits). */
  settled(): Promise<void> {
    if (!this.scheduled) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private index(bucket: string, o: KubeObject): void {
    const uid = o.metadata?.uid;
    if (!uid) return;
    this.byUid.set(uid, { bucket, namespace: o.metadata?.namespace, name: o.metadata?.name ?? "" });
    for (const r of o.metadata?.ownerReferences ?? []) {
      let set = this.dependents.get(r.uid);
      if (!set) {
        set = new Set();
        this.dependents.set(r.uid, set);
      }
      set.add(uid);
    }
  }

  private unindex(o: KubeObject): void {
    const uid = o.metadata?.uid;
    if (!uid) return;
    this.byUid.delete(uid);
    for (const r of o.metadata?.ownerReferences ?? []) this.dependents.get(r.uid)?.delete(uid);
  }

  private onEvent(ev: StoreEvent): void {
    const uid = ev.object.metadata?.uid;
    if (!uid) return;
    if (ev.prev) this.unindex(ev.prev);
    if (ev.type === "DELETED") {
      this.unindex(ev.object);
      // Its dependents may now be orphans; its owners may be waiting for it.
      for (const d of this.dependents.get(uid) ?? []) this.queue.add(d);
      for (const r of ev.object.metadata?.ownerReferences ?? []) this.queue.add(r.uid);
    } else {
      this.index(ev.bucket, ev.object);
      if (ev.object.metadata?.ownerReferences?.length) this.queue.add(uid);
      const fin = ev.object.metadata?.finalizers ?? [];
      if (
        ev.object.metadata?.deletionTimestamp &&
        (fin.includes("foregroundDeletion") || fin.includes("orphan"))
      ) {
        this.queue.add(uid);
      }
      if (ev.bucket === namespacesBucket && ev.object.metadata?.deletionTimestamp) {
        this.namespaceQueue.add(ev.object.metadata.name ?? "");
      }
    }
    if (
      ev.object.metadata?.namespace &&
      this.isTerminatingNamespace(ev.object.metadata.namespace)
    ) {
      this.namespaceQueue.add(ev.object.metadata.namespace);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private run(): void {
    // Work items can produce more events; loop until the queue is empty.
    for (let rounds = 0; rounds < 1000 && (this.queue.size || this.namespaceQueue.size); rounds++) {
      const uids = [...this.queue];
      this.queue.clear();
      for (const uid of uids) {
        if (this.stopped) return;
        this.process(uid);
      }
      const namespaces = [...this.namespaceQueue];
      this.namespaceQueue.clear();
      for (const ns of namespaces) this.processNamespace(ns);
    }
    this.scheduled = false;
    if (this.queue.size || this.namespaceQueue.size) {
      this.schedule();
      return;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private lookup(uid: string): { info: ResourceInfo; obj: KubeObject; bucket: string } | undefined {
    const ref = this.byUid.get(uid);
    if (!ref) return undefined;
    const obj = this.store.get(ref.bucket, ref.namespace, ref.name);
    if (!obj || obj.metadata?.uid !== uid) return undefined;
    const slash = ref.bucket.indexOf("/");
    const info = this.registry.get(ref.bucket.slice(0, slash), ref.bucket.slice(slash + 1));
    return info ? { info, obj, bucket: ref.bucket } : undefined;
  }

  /** The owner a reference names, if it exists with that uid and in a valid scope. */
  private owner(
    dependent: KubeObject,
    ref: { uid: string; apiVersion: string; kind: string; name: string },
  ) {
    const found = this.lookup(ref.uid);
    if (!found) return undefined;
    const ns = dependent.metadata?.namespace;
    if (found.info.namespaced && found.obj.metadata?.namespace !== ns) return undefined;
    if (found.obj.metadata?.name !== ref.name) return undefined;
    return found;
  }

  private isWaitingForDependents(o: KubeObject): boolean {
    return (
      !!o.metadata?.deletionTimestamp &&
      (o.metadata.finalizers ?? []).includes("foregroundDeletion")
    );
  }

  private process(uid: string): void {
    const self = this.lookup(uid);
    if (!self) return;
    const { obj } = self;
    const fin = obj.metadata?.finalizers ?? [];
    if (obj.metadata?.deletionTimestamp && fin.includes("orphan")) this.orphanDependents(self);
    if (this.isWaitingForDependents(obj)) this.deleteDependents(self);
    if (obj.metadata?.ownerReferences?.length) this.attemptToDelete(self);
  }

  /** attemptToDeleteItem: delete a dependent whose owners are gone, or strip dangling refs. */
  private attemptToDelete(self: { info: ResourceInfo; obj: KubeObject; bucket: string }): void {
    const { obj, info } = self;
    if (obj.metadata?.deletionTimestamp && !this.isWaitingForDependents(obj)) return;
    const refs = obj.metadata?.ownerReferences ?? [];
    const solid: string[] = [];
    const dangling: string[] = [];
    const waiting: string[] = [];
    for (const r of refs) {
      const o = this.owner(obj, r);
      if (!o) dangling.push(r.uid);
      else if (this.isWaitingForDependents(o.obj)) waiting.push(r.uid);
      else solid.push(r.uid);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      const drop = new Set([...dangling, ...waiting]);
      modify(this.store, self.bucket, obj, (c) => {
        c.metadata!.ownerReferences = (c.metadata!.ownerReferences ?? []).filter(
          (r) => !drop.has(r.uid),
        );
      });
      return;
    }
    if (obj.metadata?.deletionTimestamp) return;
    const uid = obj.metadata?.uid ?? "";
    const hasDependents = (this.dependents.get(uid)?.size ?? 0) > 0;
    const fin = obj.metadata?.finalizers ?? [];
    let policy: string;
    if (waiting.length > 0 && hasDependents) policy = "Foreground";
    else if (fin.includes("orphan")) policy = "Orphan";
    else if (fin.includes("foregroundDeletion")) policy = "Foreground";
    else policy = "Background";
    this.rest.deleteStored(info, storageVersion(info), obj, { propagationPolicy: policy });
  }

  /** Foreground deletion: delete dependents; release the owner once no blocker remains. */
  private deleteDependents(self: { info: ResourceInfo; obj: KubeObject; bucket: string }): void {
    const uid = self.obj.metadata?.uid ?? "";
    let blocking = 0;
    for (const d of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.lookup(d);
      if (!dep) continue;
      const ref = (dep.obj.metadata?.ownerReferences ?? []).find((r) => r.uid === uid);
      if (!ref) continue;
      if (ref.blockOwnerDeletion) blocking++;
      if (!dep.obj.metadata?.deletionTimestamp) this.attemptToDelete(dep);
    }
    if (blocking > 0) return;
    const current = this.store.get(
      self.bucket,
      self.obj.metadata?.namespace,
      self.obj.metadata?.name ?? "",
    );
    if (!current) return;
    modify(this.store, self.bucket, current, (c) => {
      c.metadata!.finalizers = (c.metadata!.finalizers ?? []).filter(
        (f) => f !== "foregroundDeletion",
      );
    });
  }

  /** Orphan deletion: remove the owner's references from dependents, then the finalizer. */
  private orphanDependents(self: { info: ResourceInfo; obj: KubeObject; bucket: string }): void {
    const uid = self.obj.metadata?.uid ?? "";
    for (const d of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.lookup(d);
      if (!dep) continue;
      modify(this.store, dep.bucket, dep.obj, (c) => {
        const refs = (c.metadata!.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (refs.length) c.metadata!.ownerReferences = refs;
        else delete c.metadata!.ownerReferences;
      });
    }
    const current = this.store.get(
      self.bucket,
      self.obj.metadata?.namespace,
      self.obj.metadata?.name ?? "",
    );
    if (!current) return;
    modify(this.store, self.bucket, current, (c) => {
      c.metadata!.finalizers = (c.metadata!.finalizers ?? []).filter((f) => f !== "orphan");
    });
  }

  private isTerminatingNamespace(name: string): boolean {
    const ns = this.store.get(namespacesBucket, undefined, name);
    return !!ns?.metadata?.deletionTimestamp;
  }

  /** The namespace controller: delete all content, then drop the `kubernetes` finalizer. */
  private processNamespace(name: string): void {
    const ns = this.store.get(namespacesBucket, undefined, name);
    if (!ns?.metadata?.deletionTimestamp) return;
    let remaining = 0;
    for (const info of this.registry.all()) {
      if (!info.namespaced || info.sharedStorage) continue;
      for (const o of this.store.list(bucketOf(info), name)) {
        remaining++;
        if (!o.metadata?.deletionTimestamp) {
          this.rest.deleteStored(info, storageVersion(info), o, {
            propagationPolicy: "Background",
          });
        }
      }
    }
    if (remaining > 0) return;
    const spec = (ns.spec ?? {}) as JsonObject;
    const specFinalizers = (spec.finalizers as string[] | undefined) ?? [];
    let current = ns;
    if (specFinalizers.includes("kubernetes")) {
      current = modify(this.store, namespacesBucket, ns, (c) => {
        (c.spec as JsonObject).finalizers = specFinalizers.filter((f) => f !== "kubernetes");
      });
    }
    const left =
      ((current.spec as JsonObject | undefined)?.finalizers as string[] | undefined) ?? [];
    if (left.length === 0 && (current.metadata?.finalizers ?? []).length === 0) {
      remove(this.store, namespacesBucket, current);
    }
  }
}
