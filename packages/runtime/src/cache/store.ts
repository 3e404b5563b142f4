/**
 * The reflector's store: one map of objects per informer, keyed "namespace/name", with a built-in
 * namespace index and user field indexers (`indexField`). Objects are stored once; indexes hold
 * keys only.
 */
import type { KubeObject } from "../api/types.js";

/** Extracts the index values of an object (e.g. the owner name for "spec.owner"). */
export type IndexFunc<T> = (obj: T) => string[];

export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

const namespaceIndex = "__namespace";

export class Store<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name → value → keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor() {
    this.addIndex(namespaceIndex, (o) => [o.metadata?.namespace ?? ""]);
  }

  /** Adds an index; existing objects are indexed immediately. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`index "${name}" already exists`);
    this.indexers.set(name, fn);
    const idx = new Map<string, Set<string>>();
    this.indices.set(name, idx);
    for (const [key, obj] of this.items) this.indexInto(idx, fn, key, obj);
  }

  hasIndex(name: string): boolean {
    return this.indexers.has(name);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Inserts or replaces an object; returns the previous version. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) this.indexInto(this.indices.get(name)!, fn, key, obj);
    return old;
  }

  /** Removes an object by key; returns it. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  size(): number {
    return this.items.size;
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  /** Objects in one namespace (all when `namespace` is undefined). */
  *inNamespace(namespace: string | undefined): Iterable<T> {
    if (namespace === undefined) {
      yield* this.items.values();
      return;
    }
    yield* this.byIndex(namespaceIndex, namespace);
  }

  /** Objects whose index `name` contains `value`. */
  *byIndex(name: string, value: string): Iterable<T> {
    const idx = this.indices.get(name);
    if (!idx) throw new Error(`no index "${name}"; register it with indexField before starting`);
    for (const key of idx.get(value) ?? []) {
      const obj = this.items.get(key);
      if (obj) yield obj;
    }
  }

  private indexInto(idx: Map<string, Set<string>>, fn: IndexFunc<T>, key: string, obj: T): void {
    for (const v of fn(obj)) {
      let set = idx.get(v);
      if (!set) {
        set = new Set();
        idx.set(v, set);
      }
      set.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const idx = this.indices.get(name)!;
      for (const v of fn(obj)) {
        const set = idx.get(v);
        if (!set) continue;
        set.delete(key);
        if (set.size === 0) idx.delete(v);
      }
    }
  }
}
