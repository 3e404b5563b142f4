/**
 * The garbage collector of kube-controller-manager (`pkg/controller/garbagecollector`), driven
 * by store events instead of informers: dependents whose owners are all gone are deleted (with
 * the policy their own finalizers ask for), dangling owner references next to a live owner are
 * stripped, foreground deletion waits for `blockOwnerDeletion` dependents, and orphaning removes
 * the owner's references from its dependents. Also the namespace controller: a terminating
 * namespace is emptied, then finalized. Both write through the API as their service accounts
 * (`generic-garbage-collector`, `namespace-controller`): deletes with the owner's uid as
 * precondition, metadata patches that carry the resourceVersion they were computed from (a
 * conflict is read again through the work queue), the namespace's `finalize` subresource.
 */
import { isNotFound } from "@opgen/apimachinery/status";
import { bucketOf, type Registry } from "../api/registry.js";
import type { JsonObject, KubeObject, ResourceInfo } from "../api/types.js";
import {
  type ApiClient,
  type InternalClient,
  keyOf,
  storageResource,
} from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import type { Store, StoreEvent } from "../store/store.js";
import { deletionConditions } from "./namespace-conditions.js";
import { WorkQueue } from "./work-queue.js";

interface Ref {
  bucket: string;
  namespace: string | undefined;
  name: string;
}

interface Node {
  info: ResourceInfo;
  obj: KubeObject;
  bucket: string;
}

const namespacesBucket = "/namespaces";
const NAMESPACES = { group: "", version: "v1", resource: "namespaces" };

/** Deletes `key`, an object already gone being no failure (it is what the caller wanted). */
async function deleteIfPresent(
  client: ApiClient,
  info: ResourceInfo,
  obj: KubeObject,
  opts: { propagationPolicy: string; preconditions?: { uid: string } },
): Promise<void> {
  try {
    await client.delete(storageResource(info), keyOf(obj), opts);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

export class GarbageCollector {
  /** uid → where the object lives. */
  private readonly byUid = new Map<string, Ref>();
  /** owner uid → dependents' uids. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Keys `uid|<uid>` (an object to look at) and `ns|<name>` (a terminating namespace). */
  private readonly queue: WorkQueue;
  private readonly gc: ApiClient;
  private readonly namespaces: ApiClient;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    client: InternalClient,
  ) {
    this.gc = client.as(controllerIdentity("generic-garbage-collector"));
    this.namespaces = client.as(controllerIdentity("namespace-controller"));
    this.queue = new WorkQueue(async (key) => {
      const bar = key.indexOf("|");
      const id = key.slice(bar + 1);
      if (key.startsWith("ns|")) await this.processNamespace(id);
      else await this.process(id);
      return false;
    }, 0);
  }

  start(): void {
    this.byUid.clear();
    this.dependents.clear();
    for (const info of this.registry.all()) {
      if (info.sharedStorage) continue;
      for (const o of this.store.list(bucketOf(info))) this.index(bucketOf(info), o);
    }
    this.queue.start();
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
  }

  stop(): void {
    this.unsubscribe();
    this.queue.stop();
  }

  /** Resolves once no garbage-collection work is pending (tests: deterministic waits). */
  settled(): Promise<void> {
    return this.queue.idle();
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
      for (const d of this.dependents.get(uid) ?? []) this.queue.add(`uid|${d}`);
      for (const r of ev.object.metadata?.ownerReferences ?? []) this.queue.add(`uid|${r.uid}`);
    } else {
      this.index(ev.bucket, ev.object);
      if (ev.object.metadata?.ownerReferences?.length) this.queue.add(`uid|${uid}`);
      const fin = ev.object.metadata?.finalizers ?? [];
      if (
        ev.object.metadata?.deletionTimestamp &&
        (fin.includes("foregroundDeletion") || fin.includes("orphan"))
      ) {
        this.queue.add(`uid|${uid}`);
      }
      if (ev.bucket === namespacesBucket && ev.object.metadata?.deletionTimestamp) {
        this.queue.add(`ns|${ev.object.metadata.name ?? ""}`);
      }
    }
    if (
      ev.object.metadata?.namespace &&
      this.isTerminatingNamespace(ev.object.metadata.namespace)
    ) {
      this.queue.add(`ns|${ev.object.metadata.namespace}`);
    }
  }

  private lookup(uid: string): Node | undefined {
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

  /** One object's work; each step reads it again (the one before may have written it). */
  private async process(uid: string): Promise<void> {
    let self = this.lookup(uid);
    if (self?.obj.metadata?.deletionTimestamp && self.obj.metadata.finalizers?.includes("orphan"))
      await this.orphanDependents(self);
    self = this.lookup(uid);
    if (self && this.isWaitingForDependents(self.obj)) await this.deleteDependents(self);
    self = this.lookup(uid);
    if (self?.obj.metadata?.ownerReferences?.length) await this.attemptToDelete(self);
  }

  /**
   * A JSON merge patch of metadata that names the resourceVersion it was computed from, as the
   * garbage collector patches owner references and finalizers: a conflict is read again.
   */
  private patchMetadata(self: Node, metadata: JsonObject): Promise<KubeObject> {
    const patch = {
      metadata: { resourceVersion: self.obj.metadata?.resourceVersion, ...metadata },
    };
    return this.gc.patch(storageResource(self.info), keyOf(self.obj), "merge", patch);
  }

  /** attemptToDeleteItem: delete a dependent whose owners are gone, or strip dangling refs. */
  private async attemptToDelete(self: Node): Promise<void> {
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
      await this.patchMetadata(self, {
        ownerReferences: refs.filter((r) => !drop.has(r.uid)) as unknown as JsonObject[],
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
    await deleteIfPresent(this.gc, info, obj, {
      propagationPolicy: policy,
      preconditions: { uid },
    });
  }

  /** Foreground deletion: delete dependents; release the owner once no blocker remains. */
  private async deleteDependents(self: Node): Promise<void> {
    const uid = self.obj.metadata?.uid ?? "";
    let blocking = 0;
    for (const d of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.lookup(d);
      if (!dep) continue;
      const ref = (dep.obj.metadata?.ownerReferences ?? []).find((r) => r.uid === uid);
      if (!ref) continue;
      if (ref.blockOwnerDeletion) blocking++;
      if (!dep.obj.metadata?.deletionTimestamp) await this.attemptToDelete(dep);
    }
    if (blocking > 0) return;
    await this.removeFinalizer(uid, "foregroundDeletion");
  }

  /** Orphan deletion: remove the owner's references from dependents, then the finalizer. */
  private async orphanDependents(self: Node): Promise<void> {
    const uid = self.obj.metadata?.uid ?? "";
    for (const d of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.lookup(d);
      if (!dep) continue;
      const refs = (dep.obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid);
      await this.patchMetadata(dep, {
        ownerReferences: refs.length ? (refs as unknown as JsonObject[]) : null,
      });
    }
    await this.removeFinalizer(uid, "orphan");
  }

  /** Drops `finalizer` from the object as it is stored now. */
  private async removeFinalizer(uid: string, finalizer: string): Promise<void> {
    const current = this.lookup(uid);
    const finalizers = current?.obj.metadata?.finalizers ?? [];
    if (!current || !finalizers.includes(finalizer)) return;
    const left = finalizers.filter((f) => f !== finalizer);
    await this.patchMetadata(current, { finalizers: left.length ? left : null });
  }

  private isTerminatingNamespace(name: string): boolean {
    const ns = this.store.get(namespacesBucket, undefined, name);
    return !!ns?.metadata?.deletionTimestamp;
  }

  /** What deleting the namespace's content left, written into its status conditions. */
  private async reportRemaining(name: string): Promise<void> {
    const resources = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const info of this.registry.all()) {
      if (!info.namespaced || info.sharedStorage) continue;
      for (const o of this.store.list(bucketOf(info), name)) {
        const key = `${info.resource}.${info.group}`;
        resources.set(key, (resources.get(key) ?? 0) + 1);
        for (const f of o.metadata?.finalizers ?? [])
          finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
    const ns = this.store.get(namespacesBucket, undefined, name);
    if (!ns) return;
    const status = (ns.status ?? {}) as JsonObject;
    const conditions = deletionConditions((status.conditions as JsonObject[] | undefined) ?? [], {
      resources,
      finalizers,
    });
    if (!conditions) return;
    await this.namespaces.change(
      NAMESPACES,
      ns,
      (c) => {
        c.status = { ...((c.status ?? {}) as JsonObject), conditions };
      },
      { subresource: "status" },
    );
  }

  /**
   * The namespace controller: delete all content (each object with background propagation, as
   * its deletecollection does), then drop the `kubernetes` finalizer through the namespace's
   * `finalize` subresource, which removes a namespace with no finalizer left.
   */
  private async processNamespace(name: string): Promise<void> {
    const ns = this.store.get(namespacesBucket, undefined, name);
    if (!ns?.metadata?.deletionTimestamp) return;
    let remaining = 0;
    for (const info of this.registry.all()) {
      if (!info.namespaced || info.sharedStorage) continue;
      for (const o of this.store.list(bucketOf(info), name)) {
        remaining++;
        if (!o.metadata?.deletionTimestamp)
          await deleteIfPresent(this.namespaces, info, o, { propagationPolicy: "Background" });
      }
    }
    await this.reportRemaining(name);
    if (remaining > 0) return;
    const current = this.store.get(namespacesBucket, undefined, name);
    const spec = (current?.spec ?? {}) as JsonObject;
    const specFinalizers = (spec.finalizers as string[] | undefined) ?? [];
    if (!current || !specFinalizers.includes("kubernetes")) return;
    await this.namespaces.change(
      NAMESPACES,
      current,
      (c) => {
        (c.spec as JsonObject).finalizers = specFinalizers.filter((f) => f !== "kubernetes");
      },
      { subresource: "finalize" },
    );
  }
}
