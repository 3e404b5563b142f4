/**
 * The manager's informer cache (controller-runtime's pkg/cache): one shared informer per kind,
 * created on first use, scoped per kind by namespaces and selectors, with field indexes. Reads
 * return deep copies, so a reconciler may mutate what it got without corrupting the cache. A read
 * the cache cannot answer (a namespace it does not watch, a kind it has no synced informer for) is
 * refused with a ResourceNotCachedError naming the scope, never answered with a false NotFound.
 */

import {
  type FieldSelector,
  fieldValue,
  type LabelSelector,
  type LabelSelectorInput,
  parseFieldSelector,
  parseSelector,
} from "@opgen/apimachinery/selectors";
import { errors } from "@opgen/apimachinery/status";
import { type Kind, kindKey } from "../api/kind.js";
import type { KubeObject, NamespacedName } from "../api/types.js";
import type { RestClient } from "../internal/rest/http.js";
import type { Logger } from "../log/logger.js";
import { nullLogger } from "../log/logger.js";
import type { Expectation } from "./expectation.js";
import {
  defaultTransform,
  type InformerSource,
  metadataTransform,
  SharedInformer,
} from "./informer.js";
import { restListerWatcher } from "./listwatch.js";
import {
  type CacheScope,
  describeKind,
  kindOutsideScope,
  namespaceOutsideScope,
  notSynced,
  type ReadOp,
  type ResourceNotCachedError,
} from "./scope.js";
import { type IndexFunc, keyOf } from "./store.js";

/** Per-kind cache scoping (controller-runtime's `ByObject`). */
export interface ByObjectOptions {
  /** Namespaces to watch for this kind; overrides the cache default. */
  namespaces?: string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** Keep managedFields for this kind (stripped by default). */
  keepManagedFields?: boolean;
}

export interface CacheOptions {
  /** Namespaces watched by default; all namespaces when empty or undefined. */
  namespaces?: string[];
  /** Per-kind overrides, keyed by the kind descriptor's `kindKey` (use `byObject(kind, opts)`). */
  byObject?: Record<string, ByObjectOptions>;
  /** Periodic resync in ms (default 10 h as controller-runtime's SyncPeriod; 0 disables). */
  resyncPeriodMs?: number;
  /** Watcher reconnect backoff overrides (tests shorten them). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /**
   * What the client does with a read of a cached kind outside the cache's scope (a namespace the
   * kind's informer does not watch): "error" (default) refuses it with a ResourceNotCachedError
   * naming the scope; "apiserver" reads it from the API server instead. With "apiserver", a get
   * that misses in a kind scoped by a label or field selector is also confirmed there, since the
   * object may exist outside the selector.
   */
  readsOutsideScope?: "error" | "apiserver";
}

/** A write of a cached kind between its request and its answer (`Cache.beginWrite`). */
export interface WriteInFlight {
  readonly informers: ReadonlyArray<{
    key: string;
    inf: SharedInformer<KubeObject>;
    since: number;
  }>;
  /** The write was answered (and its expectations taken) or failed. Idempotent. */
  end(): void;
}

/** Builds a `byObject` entry for `kind`. */
export function byObject(kind: Kind, opts: ByObjectOptions): Record<string, ByObjectOptions> {
  return { [kindKey(kind)]: opts };
}

/** Which informer of a kind: full objects (default) or metadata only. */
export interface InformerSelector {
  /** The metadata-only informer (PartialObjectMetadata), as controller-runtime's WatchesMetadata. */
  metadataOnly?: boolean;
}

export interface CacheListOptions extends InformerSelector {
  namespace?: string;
  labelSelector?: LabelSelectorInput;
  fieldSelector?: string;
  /** Exact matches on indexed (or plain dotted-path) fields, as client.MatchingFields. */
  matchingFields?: Record<string, string>;
}

export class Cache {
  private readonly informers = new Map<string, SharedInformer<KubeObject>>();
  private readonly scopes = new Map<string, CacheScope>();
  private readonly running = new Map<string, Promise<void>>();
  /** Parsed selectors of each informer's scope, for `expectWrite`. */
  private readonly selectors = new Map<string, { labels: LabelSelector; fields: FieldSelector }>();
  private signal?: AbortSignal;

  constructor(
    private readonly rest: RestClient,
    private readonly opts: CacheOptions = {},
    private readonly log: Logger = nullLogger,
  ) {}

  /**
   * The shared informer of `kind`, created (and started, if the cache runs) on first use. A kind
   * may have two: full objects, and metadata only (`metadataOnly`), each stored once.
   */
  informerFor<T extends KubeObject>(kind: Kind<T>, sel: InformerSelector = {}): SharedInformer<T> {
    const key = informerKey(kind, sel);
    let inf = this.informers.get(key) as SharedInformer<T> | undefined;
    if (inf) return inf;
    const scope = this.opts.byObject?.[kindKey(kind)] ?? {};
    const namespaces = kind.namespaced ? (scope.namespaces ?? this.opts.namespaces ?? []) : [];
    const targets: Array<string | undefined> = namespaces.length > 0 ? namespaces : [undefined];
    const log = this.log.withValues({
      kind: kind.kind,
      apiVersion: kind.apiVersion,
      ...(sel.metadataOnly ? { metadataOnly: true } : {}),
    });
    const sources: InformerSource<T>[] = targets.map((namespace) => ({
      namespace,
      lw: restListerWatcher(this.rest, kind, {
        namespace,
        labelSelector: scope.labelSelector,
        fieldSelector: scope.fieldSelector,
        metadataOnly: sel.metadataOnly,
      }),
    }));
    inf = new SharedInformer<T>(kind, sources, {
      transform: sel.metadataOnly
        ? metadataTransform(kind, !scope.keepManagedFields)
        : defaultTransform(kind, !scope.keepManagedFields),
      resyncPeriodMs: this.opts.resyncPeriodMs ?? 10 * 60 * 60 * 1000,
      initialBackoffMs: this.opts.initialBackoffMs,
      maxBackoffMs: this.opts.maxBackoffMs,
      onError: (err, relist) =>
        relist
          ? log.info("watch expired, relisting", { error: (err as Error).message })
          : log.error("watch failed, retrying with backoff", err),
    });
    this.informers.set(key, inf as unknown as SharedInformer<KubeObject>);
    this.scopes.set(key, {
      namespaces,
      labelSelector: scope.labelSelector,
      fieldSelector: scope.fieldSelector,
    });
    if (this.signal) this.run(key, inf as unknown as SharedInformer<KubeObject>);
    return inf;
  }

  /**
   * Marks a write of `kind` about to be sent (read-your-writes, see expectation.ts): each synced
   * informer of the kind then remembers deletions until `end`, since a watch event can overtake
   * the write's answer. Undefined when the cache has no synced informer of the kind.
   */
  beginWrite(kind: Kind): WriteInFlight | undefined {
    let informers:
      | Array<{ key: string; inf: SharedInformer<KubeObject>; since: number }>
      | undefined;
    for (const key of [informerKey(kind, {}), informerKey(kind, { metadataOnly: true })]) {
      const inf = this.informers.get(key);
      if (!inf?.hasSynced()) continue;
      informers ??= [];
      informers.push({ key, inf, since: inf.beginWrite() });
    }
    if (!informers) return undefined;
    let ended = false;
    return {
      informers,
      end: () => {
        if (ended) return;
        ended = true;
        for (const { inf } of informers) inf.endWrite();
      },
    };
  }

  /**
   * What the write begun with `flight` must make this cache show: one expectation per informer
   * (full objects, metadata only) that would hold the object, because it holds it already or its
   * namespaces and selectors admit `written`, the server's answer. None for an object outside the
   * cache's scope: that write would never show. Without a resourceVersion, only a deletion meets
   * it. Call before `flight.end()`.
   */
  expectWrite(kind: Kind, written: KubeObject, flight: WriteInFlight): Expectation[] {
    const m = written.metadata;
    if (!m?.uid || !m.name) return [];
    const namespace = kind.namespaced ? m.namespace : undefined;
    const out: Expectation[] = [];
    for (const { key, inf, since } of flight.informers) {
      const held = inf.store.get(keyOf(namespace, m.name))?.metadata?.uid === m.uid;
      if (!held && !this.admits(key, kind, written)) continue;
      const w = { namespace, name: m.name, uid: m.uid, resourceVersion: m.resourceVersion };
      out.push(inf.expect(w, since));
    }
    return out;
  }

  /** Whether the informer `key`'s namespaces and selectors admit `obj`. */
  private admits(key: string, kind: Kind, obj: KubeObject): boolean {
    const scope = this.scopes.get(key) as CacheScope;
    const ns = obj.metadata?.namespace;
    if (kind.namespaced && scope.namespaces.length > 0 && !scope.namespaces.includes(ns ?? "")) {
      return false;
    }
    if (!scope.labelSelector && !scope.fieldSelector) return true;
    let sel = this.selectors.get(key);
    if (!sel) {
      sel = {
        labels: parseSelector(scope.labelSelector),
        fields: parseFieldSelector(scope.fieldSelector ?? ""),
      };
      this.selectors.set(key, sel);
    }
    return (
      sel.labels.matches(obj.metadata?.labels) && sel.fields.matches((f) => fieldValue(obj, f))
    );
  }

  /** Whether `kind` has an informer (reads of it are then served from the cache). */
  has(kind: Kind, sel: InformerSelector = {}): boolean {
    return this.informers.has(informerKey(kind, sel));
  }

  /** Whether `kind`'s informer exists and has delivered its first list. */
  synced(kind: Kind, sel: InformerSelector = {}): boolean {
    return this.informers.get(informerKey(kind, sel))?.hasSynced() ?? false;
  }

  /** Registers a field index; register before `start` so the index covers every object. */
  indexField<T extends KubeObject>(kind: Kind<T>, field: string, fn: IndexFunc<T>): void {
    this.informerFor(kind).addIndex(field, fn);
  }

  /** Starts every informer (and those created later) until `signal` aborts. */
  start(signal: AbortSignal): void {
    if (this.signal) throw new Error("cache already started");
    this.signal = signal;
    for (const [key, inf] of this.informers) this.run(key, inf);
  }

  /** Resolves when every informer has synced; rejects after `timeoutMs` or on abort. */
  async waitForSync(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const all = Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        all,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const pending = [...this.informers.values()]
              .filter((i) => !i.hasSynced())
              .map((i) => i.kind.kind);
            reject(
              new Error(
                `timed out after ${timeoutMs} ms waiting for caches to sync: ${pending.join(", ")}`,
              ),
            );
          }, timeoutMs);
          onAbort = () => reject(new Error("cache sync aborted"));
          if (signal?.aborted) onAbort();
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Resolves when all informers have stopped (after the start signal aborted). */
  async stopped(): Promise<void> {
    await Promise.all(this.running.values());
  }

  /** What `kind`'s informer watches; undefined when the cache has no informer of it. */
  scopeOf(kind: Kind, sel: InformerSelector = {}): CacheScope | undefined {
    const scope = this.scopes.get(informerKey(kind, sel));
    return scope && { ...scope, namespaces: [...scope.namespaces] };
  }

  /** How the client treats reads outside the scope (`CacheOptions.readsOutsideScope`). */
  get readsOutsideScope(): "error" | "apiserver" {
    return this.opts.readsOutsideScope ?? "error";
  }

  /**
   * Why the cache cannot answer `op` on `kind`, or undefined when it can: no informer of the kind
   * (the error lists the cached kinds), not synced yet, or a namespace outside the ones watched.
   * A list of all namespaces from a namespace-scoped cache covers the watched namespaces, as
   * controller-runtime's multi-namespace cache does.
   */
  outsideScope(
    kind: Kind,
    op: ReadOp,
    sel: InformerSelector = {},
  ): ResourceNotCachedError | undefined {
    const key = informerKey(kind, sel);
    const inf = this.informers.get(key);
    if (!inf) {
      const cached = [...this.informers.entries()].map(
        ([k, i]) => `${describeKind(i.kind)}${k.endsWith("#metadata") ? " metadata" : ""}`,
      );
      return kindOutsideScope(kind, op, cached);
    }
    if (!inf.hasSynced()) return notSynced(kind, op);
    const scope = this.scopes.get(key) as CacheScope;
    if (
      kind.namespaced &&
      op.namespace &&
      scope.namespaces.length > 0 &&
      !scope.namespaces.includes(op.namespace)
    ) {
      return namespaceOutsideScope(kind, op, scope);
    }
    return undefined;
  }

  /**
   * A deep copy of the cached object; a NotFound ApiError when the cache, which holds every object
   * in scope, has none; a ResourceNotCachedError when the read is outside its scope.
   */
  get<T extends KubeObject>(kind: Kind<T>, key: NamespacedName, sel: InformerSelector = {}): T {
    const refused = this.outsideScope(kind, { verb: "get", ...key }, sel);
    if (refused) throw refused;
    if (kind.namespaced && !key.namespace) {
      throw new Error(`${kind.kind} is namespaced: a namespace is required to get ${key.name}`);
    }
    const inf = this.informers.get(informerKey(kind, sel)) as unknown as SharedInformer<T>;
    const obj = inf.store.get(keyOf(kind.namespaced ? key.namespace : undefined, key.name));
    if (!obj) {
      throw errors.notFound({ group: kind.group, resource: kind.plural }, key.name);
    }
    return structuredClone(obj);
  }

  /** Deep copies of the cached objects matching `opts` (a ResourceNotCachedError outside scope). */
  list<T extends KubeObject>(kind: Kind<T>, opts: CacheListOptions = {}): T[] {
    const sel = { metadataOnly: opts.metadataOnly };
    const refused = this.outsideScope(kind, { verb: "list", namespace: opts.namespace }, sel);
    if (refused) throw refused;
    const inf = this.informers.get(informerKey(kind, sel)) as unknown as SharedInformer<T>;
    const labels = parseSelector(opts.labelSelector);
    const fields = parseFieldSelector(opts.fieldSelector ?? "");
    const matching = Object.entries(opts.matchingFields ?? {});
    const indexed = matching.find(([f]) => inf.store.hasIndex(f));
    const candidates = indexed
      ? inf.store.byIndex(indexed[0], indexed[1])
      : inf.store.inNamespace(kind.namespaced ? opts.namespace : undefined);
    const out: T[] = [];
    for (const obj of candidates) {
      if (
        indexed &&
        kind.namespaced &&
        opts.namespace &&
        obj.metadata?.namespace !== opts.namespace
      ) {
        continue;
      }
      if (!labels.matches(obj.metadata?.labels)) continue;
      if (!fields.empty() && !fields.matches((f) => fieldValue(obj, f))) continue;
      const all = inf as unknown as SharedInformer<KubeObject>;
      if (!matching.every(([f, v]) => (f === indexed?.[0] ? true : matchesField(all, obj, f, v)))) {
        continue;
      }
      out.push(structuredClone(obj));
    }
    return out;
  }

  private run(key: string, inf: SharedInformer<KubeObject>): void {
    const signal = this.signal as AbortSignal;
    this.running.set(
      key,
      inf.run(signal).catch((err) => this.log.error("informer stopped", err, { informer: key })),
    );
  }
}

function informerKey(kind: Kind, sel: InformerSelector): string {
  return sel.metadataOnly ? `${kindKey(kind)}#metadata` : kindKey(kind);
}

function matchesField(
  inf: SharedInformer<KubeObject>,
  obj: KubeObject,
  field: string,
  value: string,
): boolean {
  if (inf.store.hasIndex(field)) {
    for (const o of inf.store.byIndex(field, value)) if (o === obj) return true;
    return false;
  }
  return fieldValue(obj, field) === value;
}
