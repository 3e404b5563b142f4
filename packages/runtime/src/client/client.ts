/**
 * The manager's client (controller-runtime's pkg/client with its cache-backed reader): reads of
 * kinds the cache watches (once their informer has synced) come from the cache; reads of other
 * kinds and all writes go to the API server. A read of a watched kind outside the cache's scope (a
 * namespace its informer does not watch) is refused with a ResourceNotCachedError naming the
 * scope, or read from the API server when the cache is configured so (`readsOutsideScope`).
 * Writes copy the server's answer back into the object passed in (as Go's client does), so a
 * following update carries the fresh resourceVersion.
 */

import { toSelectorString } from "@opgen/apimachinery/selectors";
import { isNotFound } from "@opgen/apimachinery/status";
import type { Kind } from "../api/kind.js";
import type { KubeObject, NamespacedName, PartialObjectMetadata } from "../api/types.js";
import type { Cache, CacheListOptions, InformerSelector } from "../cache/cache.js";
import { reconcileWrites } from "../cache/expectation.js";
import { defaultTransform, metadataTransform } from "../cache/informer.js";
import type { ReadOp } from "../cache/scope.js";
import type { RestClient } from "../internal/rest/http.js";
import {
  partialObjectMetadataAccept,
  partialObjectMetadataListAccept,
} from "../internal/rest/media.js";
import { resourcePath } from "../internal/rest/paths.js";
import type { RestMapper } from "./mapper.js";

export type PatchType = "merge" | "json" | "strategic";

export interface GetOptions {
  /** Read from the API server even if the kind is cached. */
  uncached?: boolean;
  /** Only the object's metadata (PartialObjectMetadata), from the metadata-only informer if any. */
  metadataOnly?: boolean;
}

export interface ListOptions extends CacheListOptions {
  uncached?: boolean;
}

export interface WriteOptions {
  /** Validate and default without persisting (`dryRun=All`). */
  dryRun?: boolean;
  /** Field manager recorded in managedFields; defaults to the manager's. */
  fieldManager?: string;
}

export interface PatchOptions extends WriteOptions {
  /** Default "merge" (RFC 7386). "strategic" works for built-in kinds only. */
  type?: PatchType;
}

export interface ApplyOptions extends WriteOptions {
  /** Take ownership of fields other managers own (`force=true`). Default false. */
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: "Foreground" | "Background" | "Orphan";
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export interface StatusWriter {
  /** PUT the status subresource; only `.status` of `obj` is persisted. */
  update<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  /** PATCH the status subresource. */
  patch<T extends KubeObject>(obj: T, patch: unknown, opts?: PatchOptions): Promise<T>;
}

export interface Client {
  get<T extends KubeObject>(
    kind: Kind<T>,
    key: NamespacedName,
    opts: GetOptions & { metadataOnly: true },
  ): Promise<PartialObjectMetadata>;
  get<T extends KubeObject>(kind: Kind<T>, key: NamespacedName, opts?: GetOptions): Promise<T>;
  list<T extends KubeObject>(
    kind: Kind<T>,
    opts: ListOptions & { metadataOnly: true },
  ): Promise<PartialObjectMetadata[]>;
  list<T extends KubeObject>(kind: Kind<T>, opts?: ListOptions): Promise<T[]>;
  create<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  update<T extends KubeObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(obj: T, patch: unknown, opts?: PatchOptions): Promise<T>;
  /** Server-side apply of `obj` (the full intent of this field manager). */
  apply<T extends KubeObject>(obj: T, opts?: ApplyOptions): Promise<T>;
  delete(obj: KubeObject, opts?: DeleteOptions): Promise<void>;
  delete(kind: Kind, key: NamespacedName, opts?: DeleteOptions): Promise<void>;
  status(): StatusWriter;
  /** The kind descriptor of an object, from its apiVersion and kind (discovery if undeclared). */
  kindFor(obj: KubeObject): Promise<Kind>;
}

const patchContentType: Record<PatchType, string> = {
  merge: "application/merge-patch+json",
  json: "application/json-patch+json",
  strategic: "application/strategic-merge-patch+json",
};

export interface ClientOptions {
  /** Field manager for writes and server-side apply (default "opgen"). */
  fieldOwner?: string;
}

export class CachedClient implements Client {
  private readonly fieldOwner: string;

  constructor(
    private readonly rest: RestClient,
    private readonly mapper: RestMapper,
    private readonly cache: Cache | undefined,
    opts: ClientOptions = {},
  ) {
    this.fieldOwner = opts.fieldOwner ?? "opgen";
  }

  get<T extends KubeObject>(
    kind: Kind<T>,
    key: NamespacedName,
    opts: GetOptions & { metadataOnly: true },
  ): Promise<PartialObjectMetadata>;
  get<T extends KubeObject>(kind: Kind<T>, key: NamespacedName, opts?: GetOptions): Promise<T>;
  async get<T extends KubeObject>(
    kind: Kind<T>,
    key: NamespacedName,
    opts: GetOptions = {},
  ): Promise<T> {
    const sel = { metadataOnly: opts.metadataOnly };
    const from = opts.uncached ? "apiserver" : this.readFrom(kind, { verb: "get", ...key }, sel);
    if (from === "cache" && this.cache) {
      try {
        return this.cache.get(kind, key, sel);
      } catch (err) {
        // A selector-scoped informer holds only matching objects: a miss proves nothing.
        if (!(isNotFound(err) && this.confirmMisses(kind, sel))) throw err;
      }
    }
    const obj = await this.rest.request<T>({
      method: "GET",
      path: resourcePath(kind, namespaceOf(kind, key.namespace), key.name),
      accept: opts.metadataOnly ? partialObjectMetadataAccept : undefined,
    });
    return (opts.metadataOnly ? metadataTransform(kind, false) : defaultTransform(kind, false))(
      obj,
    );
  }

  list<T extends KubeObject>(
    kind: Kind<T>,
    opts: ListOptions & { metadataOnly: true },
  ): Promise<PartialObjectMetadata[]>;
  list<T extends KubeObject>(kind: Kind<T>, opts?: ListOptions): Promise<T[]>;
  async list<T extends KubeObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<T[]> {
    const sel = { metadataOnly: opts.metadataOnly };
    const op: ReadOp = { verb: "list", namespace: opts.namespace };
    const from = opts.uncached ? "apiserver" : this.readFrom(kind, op, sel);
    if (from === "cache" && this.cache) return this.cache.list(kind, opts);
    const fields = [
      opts.fieldSelector,
      ...Object.entries(opts.matchingFields ?? {}).map(([k, v]) => `${k}=${v}`),
    ]
      .filter(Boolean)
      .join(",");
    const labelSelector =
      typeof opts.labelSelector === "object"
        ? toSelectorString(opts.labelSelector)
        : opts.labelSelector;
    const out: T[] = [];
    let cont: string | undefined;
    const fill = opts.metadataOnly ? metadataTransform(kind, false) : defaultTransform(kind, false);
    do {
      const page = await this.rest.request<{ items?: T[]; metadata?: { continue?: string } }>({
        method: "GET",
        path: resourcePath(kind, kind.namespaced ? opts.namespace : undefined),
        query: {
          labelSelector: labelSelector || undefined,
          fieldSelector: fields || undefined,
          limit: 500,
          continue: cont,
        },
        accept: opts.metadataOnly ? partialObjectMetadataListAccept : undefined,
      });
      for (const item of page.items ?? []) out.push(fill(item));
      cont = page.metadata?.continue || undefined;
    } while (cont);
    return out;
  }

  async create<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const kind = await this.kindOf(obj);
    const path = resourcePath(kind, namespaceOf(kind, obj.metadata?.namespace));
    const res = await this.tracked(
      kind,
      opts.dryRun,
      () => this.rest.request<T>({ method: "POST", path, query: this.writeQuery(opts), body: obj }),
      (r) => r,
    );
    return writeBack(obj, res);
  }

  async update<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.put(obj, undefined, opts);
  }

  async patch<T extends KubeObject>(obj: T, patch: unknown, opts: PatchOptions = {}): Promise<T> {
    return this.sendPatch(obj, patch, undefined, opts);
  }

  async apply<T extends KubeObject>(obj: T, opts: ApplyOptions = {}): Promise<T> {
    const kind = await this.kindOf(obj);
    const name = requireName(obj);
    const send = () =>
      this.rest.request<T>({
        method: "PATCH",
        path: resourcePath(kind, namespaceOf(kind, obj.metadata?.namespace), name),
        query: { ...this.writeQuery(opts), force: opts.force ? true : undefined },
        // JSON is YAML, and the apply content type is the only one SSA accepts.
        body: obj,
        contentType: "application/apply-patch+yaml",
      });
    const res = await this.tracked(kind, opts.dryRun, send, (r) => r);
    return writeBack(obj, res);
  }

  async delete(
    objOrKind: KubeObject | Kind,
    keyOrOpts?: NamespacedName | DeleteOptions,
    maybeOpts?: DeleteOptions,
  ): Promise<void> {
    let kind: Kind;
    let key: NamespacedName;
    let opts: DeleteOptions;
    if (isKind(objOrKind)) {
      kind = objOrKind;
      key = keyOrOpts as NamespacedName;
      opts = maybeOpts ?? {};
    } else {
      kind = await this.kindOf(objOrKind);
      key = { namespace: objOrKind.metadata?.namespace, name: requireName(objOrKind) };
      opts = (keyOrOpts as DeleteOptions | undefined) ?? {};
    }
    const body: Record<string, unknown> = { apiVersion: "v1", kind: "DeleteOptions" };
    if (opts.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
    if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
    if (opts.preconditions) body.preconditions = opts.preconditions;
    if (opts.dryRun) body.dryRun = ["All"];
    const send = () =>
      this.rest.request<KubeObject & { details?: { uid?: string } }>({
        method: "DELETE",
        path: resourcePath(kind, namespaceOf(kind, key.namespace), key.name),
        body,
      });
    // The answer is the object (deleted, or marked for deletion at a new resourceVersion) or, for
    // most kinds, a Status naming the deleted object's uid: then only its deletion can show.
    await this.tracked(kind, opts.dryRun, send, (res) =>
      res.kind === "Status"
        ? {
            metadata: {
              name: key.name,
              namespace: key.namespace,
              uid: res.details?.uid,
              labels: isKind(objOrKind) ? undefined : objOrKind.metadata?.labels,
            },
          }
        : res,
    );
  }

  status(): StatusWriter {
    return {
      update: (obj, opts) => this.put(obj, "status", opts ?? {}),
      patch: (obj, patch, opts) => this.sendPatch(obj, patch, "status", opts ?? {}),
    };
  }

  private async put<T extends KubeObject>(
    obj: T,
    sub: string | undefined,
    opts: WriteOptions,
  ): Promise<T> {
    const kind = await this.kindOf(obj);
    const path = resourcePath(
      kind,
      namespaceOf(kind, obj.metadata?.namespace),
      requireName(obj),
      sub,
    );
    const send = () =>
      this.rest.request<T>({ method: "PUT", path, query: this.writeQuery(opts), body: obj });
    const res = await this.tracked(kind, opts.dryRun, send, (r) => r);
    return writeBack(obj, res);
  }

  private async sendPatch<T extends KubeObject>(
    obj: T,
    patch: unknown,
    sub: string | undefined,
    opts: PatchOptions,
  ): Promise<T> {
    const kind = await this.kindOf(obj);
    const send = () =>
      this.rest.request<T>({
        method: "PATCH",
        path: resourcePath(kind, namespaceOf(kind, obj.metadata?.namespace), requireName(obj), sub),
        query: this.writeQuery(opts),
        body: patch,
        contentType: patchContentType[opts.type ?? "merge"],
      });
    const res = await this.tracked(kind, opts.dryRun, send, (r) => r);
    return writeBack(obj, res);
  }

  /**
   * Sends a write; inside a reconcile, a write of a kind the cache watches also tells the
   * reconcile what the cache must show before the same request is reconciled again (read-your-
   * writes). `shown` maps the answer to the object the cache will show. Outside a reconcile this
   * is one lookup; a dry run writes nothing to wait for.
   */
  private async tracked<R>(
    kind: Kind,
    dryRun: boolean | undefined,
    send: () => Promise<R>,
    shown: (res: R) => KubeObject,
  ): Promise<R> {
    const sink = dryRun || !this.cache ? undefined : reconcileWrites.getStore();
    const flight = sink && this.cache?.beginWrite(kind);
    if (!flight) return send();
    try {
      const res = await send();
      const expectations = this.cache!.expectWrite(kind, shown(res), flight);
      if (expectations.length > 0) sink.record(expectations);
      return res;
    } finally {
      flight.end();
    }
  }

  private writeQuery(opts: WriteOptions): Record<string, string | undefined> {
    return {
      fieldManager: opts.fieldManager ?? this.fieldOwner,
      dryRun: opts.dryRun ? "All" : undefined,
    };
  }

  kindFor(obj: KubeObject): Promise<Kind> {
    return this.kindOf(obj);
  }

  /**
   * Where a read is served: the cache for a watched kind in scope; the API server for a kind
   * nothing watches (controller-runtime would start an informer) or whose informer has not
   * synced yet; outside the scope, the API server if so configured, else a ResourceNotCachedError.
   */
  private readFrom(kind: Kind, op: ReadOp, sel: InformerSelector): "cache" | "apiserver" {
    const cache = this.cache;
    if (!cache?.synced(kind, sel)) return "apiserver";
    const refused = cache.outsideScope(kind, op, sel);
    if (!refused) return "cache";
    if (cache.readsOutsideScope === "apiserver") return "apiserver";
    throw refused;
  }

  private confirmMisses(kind: Kind, sel: InformerSelector): boolean {
    const scope = this.cache?.scopeOf(kind, sel);
    return (
      this.cache?.readsOutsideScope === "apiserver" &&
      !!(scope?.labelSelector || scope?.fieldSelector)
    );
  }

  private kindOf(obj: KubeObject): Promise<Kind> {
    return this.mapper.kindFor(obj.apiVersion, obj.kind);
  }
}

function isKind(x: unknown): x is Kind {
  return typeof x === "object" && x !== null && "plural" in x && "namespaced" in x;
}

function requireName(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new Error(`${obj.kind ?? "object"}: metadata.name is required`);
  return name;
}

function namespaceOf(kind: Kind, namespace: string | undefined): string | undefined {
  if (!kind.namespaced) return undefined;
  if (!namespace) throw new Error(`${kind.kind} is namespaced: metadata.namespace is required`);
  return namespace;
}

/** Replaces `target`'s contents with the server's answer, keeping the caller's reference valid. */
function writeBack<T extends KubeObject>(target: T, res: T): T {
  const t = target as Record<string, unknown>;
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, res);
  return target;
}
