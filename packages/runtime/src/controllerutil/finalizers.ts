/** Finalizer helpers (controllerutil.AddFinalizer and friends); they edit metadata in place. */
import type { KubeObject } from "../api/types.js";

/** Adds `finalizer` if absent; returns true if the object changed. */
export function addFinalizer(obj: KubeObject, finalizer: string): boolean {
  obj.metadata ??= {};
  obj.metadata.finalizers ??= [];
  const list = obj.metadata.finalizers;
  if (list.includes(finalizer)) return false;
  list.push(finalizer);
  return true;
}

/** Removes every occurrence of `finalizer`; returns true if the object changed. */
export function removeFinalizer(obj: KubeObject, finalizer: string): boolean {
  const list = obj.metadata?.finalizers;
  if (!list?.includes(finalizer)) return false;
  obj.metadata!.finalizers = list.filter((f) => f !== finalizer);
  return true;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** Alias matching controllerutil.ContainsFinalizer. */
export const containsFinalizer = hasFinalizer;

/** Whether the object is being deleted (has a deletionTimestamp). */
export function isBeingDeleted(obj: KubeObject): boolean {
  return Boolean(obj.metadata?.deletionTimestamp);
}
