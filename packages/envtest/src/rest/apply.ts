/**
 * Server-side apply (`application/apply-patch+yaml`) as kube-apiserver does it with
 * structured-merge-diff (`@opgen/apimachinery/merge`'s ssa): the configuration merged into the
 * live object, the applier owning exactly what it applied, 409 FieldManagerConflict where another
 * manager owns a value it changes (ownership taken with `force`), shared ownership of equal
 * values, and removal of what it applied before and no one owns any more.
 */

import { ssa } from "@opgen/apimachinery/merge";
import { ApiError, errors } from "@opgen/apimachinery/status";
import { parse } from "yaml";
import {
  deepClone,
  groupVersion,
  isObject,
  type JsonObject,
  type KubeObject,
  type ManagedFieldsEntry,
} from "../api/types.js";
import { checkDeclaredFields } from "./apply-fields.js";
import { fieldManagerScope } from "./managed-fields.js";
import type { ObjectRest } from "./objects.js";
import type { RequestScope } from "./scope.js";

/** managedfields `printManager`: a manager identifier as conflict messages name it. */
function printManager(id: string): string {
  const e = JSON.parse(id) as ManagedFieldsEntry;
  let s = JSON.stringify(e.manager ?? "");
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === "Update") s += ` using ${e.apiVersion}`;
  return s;
}

/** kube's NewConflictError: one cause per conflict, the message grouped by manager. */
function conflictError(scope: RequestScope, conflicts: readonly ssa.Conflict[]): ApiError {
  const info = scope.info;
  let text: string;
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    text = `conflict with ${printManager(c.manager)}: ${ssa.pathString(c.path)}`;
  } else {
    const by = new Map<string, string[]>();
    for (const c of conflicts)
      by.set(c.manager, [...(by.get(c.manager) ?? []), ssa.pathString(c.path)]);
    const lines: string[] = [];
    for (const m of [...by.keys()].sort()) {
      lines.push(`conflicts with ${printManager(m)}:`);
      for (const p of by.get(m)!) lines.push(`- ${p}`);
    }
    text = lines.join("\n");
  }
  const n = conflicts.length;
  return new ApiError(
    409,
    "Conflict",
    `Apply failed with ${n} conflict${n === 1 ? "" : "s"}: ${text}`,
    {
      name: scope.name ?? "",
      ...(info.group ? { group: info.group } : {}),
      kind: info.resource,
      causes: conflicts.map((c) => ({
        reason: "FieldManagerConflict",
        message: `conflict with ${printManager(c.manager)}`,
        field: ssa.pathString(c.path),
      })),
    },
  );
}

function decode(body: string, scope: RequestScope): JsonObject {
  let applied: unknown;
  try {
    applied = parse(body);
  } catch (e) {
    throw errors.badRequest(`error decoding YAML: ${(e as Error).message}`);
  }
  if (!isObject(applied))
    throw errors.badRequest("error decoding YAML: the applied configuration must be an object");
  const info = scope.info;
  const expected = groupVersion(info.group, scope.version.name);
  if (applied.apiVersion !== expected || applied.kind !== info.kind) {
    throw errors.badRequest(
      `error decoding YAML: apiVersion and kind must be ${expected} ${info.kind}, got "${String(applied.apiVersion ?? "")}" "${String(applied.kind ?? "")}"`,
    );
  }
  const meta = isObject(applied.metadata) ? applied.metadata : {};
  if (meta.name !== undefined && meta.name !== scope.name) {
    throw errors.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${scope.name})`,
    );
  }
  return applied;
}

/** Handles PATCH with application/apply-patch+yaml. */
export async function serverSideApply(
  rest: ObjectRest,
  scope: RequestScope,
  body: string,
  force: boolean,
): Promise<{ code: number; body: KubeObject }> {
  // What the request's strategy resets (status here, spec through status) stays in the
  // configuration, as in kube: the field manager ignores it and the strategy restores it.
  const applied = decode(body, scope);
  const info = scope.info;
  checkDeclaredFields(info, scope.version, applied);
  let live: KubeObject | undefined;
  try {
    live = deepClone(await rest.getAsync({ ...scope, subresource: undefined }));
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 404)) throw e;
  }
  // A subresource (status, ephemeralcontainers) updates an existing object only.
  if (!live && scope.subresource !== undefined) throw errors.notFound(info, scope.name ?? "");
  const fm = fieldManagerScope({
    manager: scope.manager,
    apiVersion: groupVersion(info.group, scope.version.name),
    subresource: scope.subresource,
    info,
    version: scope.version,
  });
  let result: ssa.ApplyResult;
  try {
    result = ssa.applyManagedFields(live, applied, fm, force);
  } catch (e) {
    if (e instanceof ssa.ConflictError) throw conflictError(scope, e.conflicts);
    if (e instanceof ssa.SmdError) throw errors.badRequest(`failed to apply: ${e.message}`);
    throw e;
  }
  const managedFields = result.managedFields as ManagedFieldsEntry[];
  const obj = (isObject(result.object) ? result.object : {}) as KubeObject;
  if (!live) {
    const m = (obj.metadata ?? {}) as JsonObject;
    if (m.name === undefined) m.name = scope.name;
    obj.metadata = m;
    return rest.createAsync({ ...scope, applied: true }, obj, { managedFields });
  }
  const rm = (obj.metadata ?? {}) as JsonObject;
  const meta = isObject(applied.metadata) ? applied.metadata : {};
  rm.resourceVersion = meta.resourceVersion ?? live.metadata?.resourceVersion;
  obj.metadata = rm;
  return rest.updateAsync({ ...scope, applied: true }, obj, { patch: true, managedFields });
}
