/**
 * What the cache can answer, and the error for what it cannot. A read of a namespace the cache
 * does not watch, or of a kind it has no (synced) informer for, would find nothing in memory and
 * look like NotFound; it is refused instead with an error naming the request and the cache's
 * scope, as controller-runtime's multi-namespace cache ("unable to get: ns/name because of
 * unknown namespace for the cache") and `ErrResourceNotCached` do. It is not an ApiError, so
 * `isNotFound` is false and `ignoreNotFound` rethrows it.
 */
import type { Kind } from "../api/kind.js";

/** Why a read is outside the cache: its namespace, its kind (no informer), or not synced yet. */
export type NotCachedReason = "namespace" | "kind" | "notSynced";

export interface CacheScope {
  /** The namespaces the kind's informer watches; empty = all namespaces. */
  namespaces: string[];
  labelSelector?: string;
  fieldSelector?: string;
}

export class ResourceNotCachedError extends Error {
  override readonly name = "ResourceNotCachedError";

  constructor(
    /** The kind read, as `Kind (group/version)`. */
    readonly kind: string,
    readonly reason: NotCachedReason,
    /** The namespace read, when the read named one. */
    readonly namespace: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `err` is a read the cache refused because it is outside its scope. */
export function isResourceNotCached(err: unknown): err is ResourceNotCachedError {
  return err instanceof ResourceNotCachedError;
}

/** `ConfigMap (v1)`, `AppCluster (demo.my.domain/v1)`. */
export function describeKind(kind: Kind): string {
  return `${kind.kind} (${kind.apiVersion})`;
}

export type ReadOp =
  | { verb: "get"; namespace?: string; name: string }
  | {
      verb: "list";
      namespace?: string;
    };

function target(op: ReadOp): string {
  if (op.verb === "get") return op.namespace ? `${op.namespace}/${op.name}` : op.name;
  return op.namespace ?? "all namespaces";
}

const hint =
  'read it with { uncached: true } or mgr.apiReader, or set cache.readsOutsideScope: "apiserver"';

export function namespaceOutsideScope(
  kind: Kind,
  op: ReadOp,
  scope: CacheScope,
): ResourceNotCachedError {
  const list = scope.namespaces.map((n) => JSON.stringify(n)).join(", ");
  return new ResourceNotCachedError(
    describeKind(kind),
    "namespace",
    op.namespace,
    `unable to ${op.verb}: ${target(op)} because of unknown namespace for the cache: ` +
      `${describeKind(kind)} is cached in namespace${scope.namespaces.length > 1 ? "s" : ""} ` +
      `${list} only; ${hint}`,
  );
}

export function kindOutsideScope(
  kind: Kind,
  op: ReadOp,
  cachedKinds: string[],
): ResourceNotCachedError {
  const shown = cachedKinds.slice(0, 10).join(", ");
  const more = cachedKinds.length > 10 ? `, and ${cachedKinds.length - 10} more` : "";
  return new ResourceNotCachedError(
    describeKind(kind),
    "kind",
    op.namespace,
    `unable to ${op.verb}: ${target(op)}: ${describeKind(kind)} is not in the cache, no informer ` +
      `watches it (cached: ${shown || "none"}${more}); watch it or call cache.informerFor first, ` +
      "or read through the client, which reads unwatched kinds from the API server",
  );
}

export function notSynced(kind: Kind, op: ReadOp): ResourceNotCachedError {
  return new ResourceNotCachedError(
    describeKind(kind),
    "notSynced",
    op.namespace,
    `unable to ${op.verb}: ${target(op)}: the cache of ${describeKind(kind)} has not synced yet ` +
      "(wait for the manager to start, or read through the client, which reads from the API " +
      "server until then)",
  );
}
