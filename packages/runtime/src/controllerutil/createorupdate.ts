/**
 * createOrUpdate / createOrPatch (controllerutil.CreateOrUpdate, CreateOrPatch): read the object,
 * let a mutate function bring it to the desired state, and write only if that changed anything, so
 * a steady-state reconcile makes no API writes.
 */

import { isNotFound } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { Client } from "../client/client.js";
import { createMergePatch, semanticEqual } from "./equality.js";

export type OperationResult =
  | "unchanged"
  | "created"
  | "updated"
  | "updatedStatus"
  | "updatedStatusOnly";

export type MutateFn<T> = (obj: T) => void | Promise<void>;

async function readInto<T extends KubeObject>(client: Client, obj: T): Promise<boolean> {
  const kind = await client.kindFor(obj);
  const name = obj.metadata?.name;
  if (!name) throw new Error("createOrUpdate: metadata.name is required");
  try {
    const current = await client.get(kind, { namespace: obj.metadata?.namespace, name });
    const target = obj as Record<string, unknown>;
    for (const k of Object.keys(target)) delete target[k];
    Object.assign(target, current);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

async function mutateChecked<T extends KubeObject>(obj: T, mutate: MutateFn<T>): Promise<void> {
  const { name, namespace } = obj.metadata ?? {};
  await mutate(obj);
  if (obj.metadata?.name !== name || obj.metadata?.namespace !== namespace) {
    throw new Error("MutateFn cannot mutate object name and/or object namespace");
  }
}

/**
 * Fetches `obj` by name (from the cache when its kind is watched), applies `mutate`, and creates
 * or updates it. `obj` must carry apiVersion, kind, name and namespace; it ends up holding the
 * server's state. Returns "unchanged" without writing when `mutate` changed nothing.
 */
export async function createOrUpdate<T extends KubeObject>(
  client: Client,
  obj: T,
  mutate: MutateFn<T>,
): Promise<OperationResult> {
  if (!(await readInto(client, obj))) {
    await mutateChecked(obj, mutate);
    await client.create(obj);
    return "created";
  }
  const before = structuredClone(obj);
  await mutateChecked(obj, mutate);
  if (semanticEqual(before, obj)) return "unchanged";
  await client.update(obj);
  return "updated";
}

/**
 * Like createOrUpdate but writes merge patches of only what `mutate` changed: one for the object
 * and, if `.status` changed, one for the status subresource.
 */
export async function createOrPatch<T extends KubeObject>(
  client: Client,
  obj: T,
  mutate: MutateFn<T>,
): Promise<OperationResult> {
  if (!(await readInto(client, obj))) {
    await mutateChecked(obj, mutate);
    const status = (obj as { status?: unknown }).status;
    await client.create(obj);
    if (status !== undefined && !semanticEqual((obj as { status?: unknown }).status, status)) {
      (obj as { status?: unknown }).status = status;
      await client.status().patch(obj, { status });
    }
    return "created";
  }
  const before = structuredClone(obj) as T & { status?: unknown };
  await mutateChecked(obj, mutate);
  const after = obj as T & { status?: unknown };
  const { status: beforeStatus, ...beforeRest } = before;
  const { status: afterStatus, ...afterRest } = after;
  const objPatch = createMergePatch(beforeRest, afterRest);
  const statusPatch = createMergePatch({ status: beforeStatus }, { status: afterStatus });
  if (objPatch) {
    await client.patch(obj, objPatch);
    // The answer replaced obj; keep the caller's desired status for the status patch.
    (obj as { status?: unknown }).status = afterStatus;
  }
  if (statusPatch) await client.status().patch(obj, statusPatch);
  if (objPatch && statusPatch) return "updatedStatus";
  if (objPatch) return "updated";
  if (statusPatch) return "updatedStatusOnly";
  return "unchanged";
}
