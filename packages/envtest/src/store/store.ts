/**
 * The in-memory object store: one map per resource (group + plural), one global resourceVersion
 * counter (etcd's revision), and a bounded per-resource event history that watches replay from.
 * Stored objects are never mutated after commit — every write stores a new object — so history
 * entries can share them without copies.
 */
import type { KubeObject } from "../api/types.js";

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  type: EventType;
  rv: number;
  bucket: string;
  object: KubeObject;
  /** The state before this event (MODIFIED/DELETED), for selector transitions. */
  prev?: KubeObject;
}

export type StoreListener = (event: StoreEvent) => void;

interface Bucket {
  objects: Map<string, KubeObject>;
  history: StoreEvent[];
  /** Events at or below this RV were dropped from history. */
  compactedRV: number;
  listeners: Set<StoreListener>;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ""}/${name}`;
}

export class Store {
  private rv: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly anyListeners = new Set<StoreListener>();

  /** @param historyLimit events kept per resource for watch replay. */
  constructor(
    private readonly historyLimit = 10_000,
    startRV = 1,
  ) {
    this.rv = startRV;
  }

  currentRV(): number {
    return this.rv;
  }

  private bucket(key: string): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      // Nothing of a new bucket was ever compacted: a watch from any earlier RV is valid.
      b = { objects: new Map(), history: [], compactedRV: 0, listeners: new Set() };
      this.buckets.set(key, b);
    }
    return b;
  }

  get(bucket: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.buckets.get(bucket)?.objects.get(objectKey(namespace, name));
  }

  /** Objects of a resource, optionally within one namespace, sorted by namespace/name. */
  list(bucket: string, namespace?: string): KubeObject[] {
    const b = this.buckets.get(bucket);
    if (!b) return [];
    const out: { k: string; o: KubeObject }[] = [];
    for (const [k, o] of b.objects) {
      if (namespace !== undefined && o.metadata?.namespace !== namespace) continue;
      out.push({ k, o });
    }
    out.sort((a, b2) => (a.k < b2.k ? -1 : a.k > b2.k ? 1 : 0));
    return out.map((x) => x.o);
  }

  count(bucket: string): number {
    return this.buckets.get(bucket)?.objects.size ?? 0;
  }

  /** Reserves the next resourceVersion (the caller stamps it before committing). */
  nextRV(): number {
    this.rv += 1;
    return this.rv;
  }

  /** Stores a new or changed object already stamped with `rv` and notifies watchers. */
  commit(bucket: string, type: EventType, object: KubeObject, rv: number, prev?: KubeObject): void {
    const b = this.bucket(bucket);
    const key = objectKey(object.metadata?.namespace, object.metadata?.name ?? "");
    if (type === "DELETED") b.objects.delete(key);
    else b.objects.set(key, object);
    const event: StoreEvent = { type, rv, bucket, object, ...(prev ? { prev } : {}) };
    b.history.push(event);
    if (b.history.length > this.historyLimit) {
      const drop = b.history.length - this.historyLimit;
      b.compactedRV = b.history[drop - 1]!.rv;
      b.history.splice(0, drop);
    }
    for (const l of b.listeners) l(event);
    for (const l of this.anyListeners) l(event);
  }

  /** Observes every committed event of every resource (controllers: GC, CRDs, simulation). */
  subscribeAll(listener: StoreListener): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  /** Drops all history of every resource: the next watch from an old RV gets 410 Expired. */
  compact(): void {
    for (const b of this.buckets.values()) {
      b.history = [];
      b.compactedRV = this.rv;
    }
  }

  /**
   * Events after `rv` in order, or `undefined` when history no longer reaches back that far
   * (the watch must answer 410 Expired).
   */
  eventsSince(bucket: string, rv: number): StoreEvent[] | undefined {
    const b = this.bucket(bucket);
    if (rv < b.compactedRV) return undefined;
    let i = b.history.length;
    while (i > 0 && b.history[i - 1]!.rv > rv) i--;
    return b.history.slice(i);
  }

  /** The oldest RV a watch may still start from in this resource. */
  oldestRV(bucket: string): number {
    return this.bucket(bucket).compactedRV;
  }

  subscribe(bucket: string, listener: StoreListener): () => void {
    const b = this.bucket(bucket);
    b.listeners.add(listener);
    return () => b.listeners.delete(listener);
  }
}
