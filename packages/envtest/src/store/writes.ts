/**
 * Server-internal writes (controllers acting as the system: CRD status, garbage collector,
 * simulated kubelet): they bypass request admission but keep the store's invariants — a new
 * resourceVersion per change, never mutating committed objects, MODIFIED/DELETED events.
 */
import { deepClone, deepEqual, type KubeObject } from "../api/types.js";
import type { Store } from "./store.js";

/** Stores `mutate(copy)` of the current object if it changed; returns the stored result. */
export function modify(
  store: Store,
  bucket: string,
  current: KubeObject,
  mutate: (copy: KubeObject) => void,
): KubeObject {
  const next = deepClone(current);
  mutate(next);
  if (deepEqual(next, current)) return current;
  const rv = store.nextRV();
  next.metadata = { ...(next.metadata ?? {}), resourceVersion: String(rv) };
  const finalizersGone =
    next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0;
  store.commit(bucket, finalizersGone ? "DELETED" : "MODIFIED", next, rv, current);
  return next;
}

/** Removes an object now (no finalizers left to wait for). */
export function remove(store: Store, bucket: string, current: KubeObject): void {
  const rv = store.nextRV();
  const last = {
    ...current,
    metadata: { ...(current.metadata ?? {}), resourceVersion: String(rv) },
  };
  store.commit(bucket, "DELETED", last, rv, current);
}
