/**
 * The shared informer of one kind (kube-rs's reflector plus client-go's sharedIndexInformer): it
 * runs one watcher per watched namespace (or one cluster-wide), applies their events to a single
 * store, and fans add/update/delete notifications out to every registered handler. A relist is
 * diffed against the store so handlers see only real changes (and deletions missed while
 * disconnected). An optional periodic resync re-delivers every object as an update.
 */
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import { type Expectation, ExpectationIndex, type WrittenObject } from "./expectation.js";
import { type IndexFunc, keyOf, objectKey, Store } from "./store.js";
import { type ListerWatcher, Watcher, type WatcherEvent, type WatcherOptions } from "./watcher.js";

export interface ResourceEventHandler<T> {
  /** `initial` is true for objects delivered by the first list (or replayed to a late handler). */
  onAdd?(obj: T, initial: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerSource<T> {
  /** The namespace the source covers; undefined for cluster-wide. */
  namespace?: string;
  lw: ListerWatcher<T>;
}

export interface InformerOptions<T> extends WatcherOptions<T> {
  /** Re-deliver every cached object as an update this often (ms, ±10 % jitter); 0 disables. */
  resyncPeriodMs?: number;
}

export class SharedInformer<T extends KubeObject> {
  readonly store = new Store<T>();
  private readonly handlers = new Set<ResourceEventHandler<T>>();
  private readonly watchers: Watcher<T>[] = [];
  private readonly pendingSync = new Set<number>();
  private readonly expectations = new ExpectationIndex();
  private syncedResolve!: () => void;
  private readonly syncedPromise: Promise<void>;
  private started = false;

  constructor(
    readonly kind: Kind<T>,
    sources: InformerSource<T>[],
    private readonly opts: InformerOptions<T> = {},
  ) {
    this.syncedPromise = new Promise((resolve) => {
      this.syncedResolve = resolve;
    });
    sources.forEach((src, i) => {
      this.pendingSync.add(i);
      this.watchers.push(new Watcher(src.lw, (ev) => this.apply(i, src.namespace, ev), opts));
    });
  }

  /** Registers a handler; if the informer already has objects they are replayed as adds. */
  addEventHandler(handler: ResourceEventHandler<T>): () => void {
    this.handlers.add(handler);
    if (this.started) for (const obj of this.store.values()) handler.onAdd?.(obj, true);
    return () => this.handlers.delete(handler);
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    if (!this.store.hasIndex(name)) this.store.addIndex(name, fn);
  }

  hasSynced(): boolean {
    return this.pendingSync.size === 0;
  }

  /** Resolves once every source delivered its first list. */
  waitForSync(): Promise<void> {
    return this.syncedPromise;
  }

  /** Runs the watchers (and resync) until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error(`informer for ${this.kind.kind} already started`);
    this.started = true;
    const resync = this.startResync(signal);
    await Promise.all(this.watchers.map((w) => w.run(signal)));
    if (resync) clearTimeout(resync.timer);
    // Nothing more will be observed: whoever waits for a write to show must not wait forever.
    this.expectations.stop();
  }

  /**
   * An expectation met once this informer's store shows `written` (see expectation.ts): at once
   * if it already does, when the informer delivers it, deletes it or relists past it, and with
   * "stopped" when the informer stops.
   */
  expect(written: Omit<WrittenObject, "kind">, since?: number): Expectation {
    const w = { ...written, kind: this.kind.kind };
    return this.expectations.add(w, this.store.get(keyOf(w.namespace, w.name)), since);
  }

  /**
   * Marks a write about to be sent, so that a deletion the informer applies before the write's
   * answer arrives still meets its expectation; pass the result to `expect`, then call `endWrite`.
   */
  beginWrite(): number {
    return this.expectations.begin();
  }

  endWrite(): void {
    this.expectations.end();
  }

  private apply(source: number, namespace: string | undefined, ev: WatcherEvent<T>): void {
    switch (ev.type) {
      case "apply": {
        const old = this.store.upsert(ev.object);
        if (this.expectations.active) this.expectations.applied(ev.object);
        if (old) this.notifyUpdate(old, ev.object);
        else for (const h of this.handlers) h.onAdd?.(ev.object, false);
        return;
      }
      case "delete": {
        const old = this.store.delete(objectKey(ev.object));
        if (this.expectations.active) this.expectations.deleted(ev.object);
        // Deliver the last known state, as the DELETED event may carry a stale copy.
        for (const h of this.handlers) h.onDelete?.(old ?? ev.object);
        return;
      }
      case "restart": {
        const initial = this.pendingSync.has(source);
        const seen = new Set<string>();
        for (const obj of ev.objects) {
          seen.add(objectKey(obj));
          const old = this.store.upsert(obj);
          // Deleted and created again while the watch was down: the old object is gone.
          if (old && old.metadata?.uid !== obj.metadata?.uid && this.expectations.active) {
            this.expectations.deleted(old);
          }
          if (!old) for (const h of this.handlers) h.onAdd?.(obj, initial);
          else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
            this.notifyUpdate(old, obj);
          }
        }
        // Objects deleted while the watch was down: only this source's namespace is ours to prune.
        const stale: string[] = [];
        for (const obj of this.store.inNamespace(namespace)) {
          const key = objectKey(obj);
          if (!seen.has(key)) stale.push(key);
        }
        for (const key of stale) {
          const old = this.store.delete(key);
          if (!old) continue;
          if (this.expectations.active) this.expectations.deleted(old);
          for (const h of this.handlers) h.onDelete?.(old);
        }
        if (this.expectations.active) {
          this.expectations.relisted(namespace, ev.resourceVersion, (k) => this.store.get(k));
        }
        if (initial) {
          this.pendingSync.delete(source);
          if (this.pendingSync.size === 0) this.syncedResolve();
        }
        return;
      }
    }
  }

  private notifyUpdate(old: T, obj: T): void {
    for (const h of this.handlers) h.onUpdate?.(old, obj);
  }

  private startResync(signal: AbortSignal): { timer: NodeJS.Timeout } | undefined {
    const period = this.opts.resyncPeriodMs ?? 0;
    if (period <= 0) return undefined;
    const state = { timer: undefined as unknown as NodeJS.Timeout };
    const schedule = () => {
      // ±10 % jitter, as controller-runtime's SyncPeriod, so informers do not resync in lockstep.
      const delay = period * (0.9 + Math.random() * 0.2);
      state.timer = setTimeout(() => {
        if (signal.aborted) return;
        this.resync();
        schedule();
      }, delay);
      state.timer.unref?.();
    };
    schedule();
    return state;
  }

  /** Re-delivers every cached object as an update with old === new. */
  resync(): void {
    for (const obj of this.store.values()) this.notifyUpdate(obj, obj);
  }
}

/** The default transform: drops managedFields and fills apiVersion/kind (list items lack them). */
export function defaultTransform<T extends KubeObject>(kind: Kind<T>, stripManagedFields = true) {
  return (obj: T): T => {
    if (!obj.apiVersion) obj.apiVersion = kind.apiVersion;
    if (!obj.kind) obj.kind = kind.kind;
    if (stripManagedFields && obj.metadata?.managedFields) {
      // Rebuild instead of `delete`: deleting a property drops V8 objects into slow dictionary
      // mode, which costs more memory than the managedFields saved.
      const { managedFields: _, ...metadata } = obj.metadata;
      obj.metadata = metadata;
    }
    return obj;
  };
}

/**
 * The transform of metadata-only informers: PartialObjectMetadata arrives typed as
 * meta.k8s.io/v1; give it the watched kind's apiVersion and kind (as controller-runtime does) so
 * handlers and owner mappings see what it stands for.
 */
export function metadataTransform<T extends KubeObject>(kind: Kind<T>, stripManagedFields = true) {
  return (obj: T): T => {
    const { managedFields, ...rest } = obj.metadata ?? {};
    const metadata = stripManagedFields || !managedFields ? rest : { ...rest, managedFields };
    return { apiVersion: kind.apiVersion, kind: kind.kind, metadata } as T;
  };
}
