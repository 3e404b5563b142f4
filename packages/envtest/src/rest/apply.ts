/**
 * Server-side apply (`application/apply-patch+yaml`) with structured-merge-diff semantics:
 * the applied configuration's field set per the schema's list and map types, conflicts with
 * other managers whose values differ (409 with FieldManagerConflict causes, or ownership taken
 * with `force`), shared ownership of equal values, merge into the live object, and removal of
 * fields this manager applied before but no longer does (unless someone else owns them).
 */

import { itemKey, listShape, type MergeNode } from "@opgen/apimachinery/merge";
import { ApiError, errors } from "@opgen/apimachinery/status";
import { parse } from "yaml";
import { nowTime } from "../api/meta.js";
import {
  deepClone,
  deepEqual,
  groupVersion,
  isObject,
  type JsonObject,
  type KubeObject,
  type ManagedFieldsEntry,
} from "../api/types.js";
import {
  changedFields,
  changedIn,
  childNode,
  difference,
  entryVersion,
  type FieldSet,
  fromFieldsV1,
  intersection,
  leafPaths,
  toFieldsV1,
} from "./managed-fields.js";
import { mergeNodeFor } from "./merge-schema.js";
import type { ObjectRest } from "./objects.js";
import type { RequestScope } from "./scope.js";

/** The value a field-set key addresses under `value` (undefined when absent). */
function step(value: unknown, key: string, listNode: MergeNode | undefined): unknown {
  if (key.startsWith("f:")) return isObject(value) ? value[key.slice(2)] : undefined;
  if (!Array.isArray(value)) return undefined;
  const shape = listShape(listNode);
  return value.find((x) => itemKey(x, shape) === key);
}

interface Leaf {
  path: string[];
  applied: unknown;
  live: unknown;
}

/** Leaves of `set` with the applied and live values they address. */
function leaves(
  set: FieldSet,
  applied: unknown,
  live: unknown,
  node: MergeNode | undefined,
  prefix: string[],
  out: Leaf[],
): void {
  for (const [k, sub] of set) {
    if (k === ".") continue;
    const cs = k.startsWith("f:") ? childNode(node, k.slice(2)) : node?.items();
    const a = step(applied, k, node);
    const l = step(live, k, node);
    const path = [...prefix, k];
    const meaningful = [...sub.keys()].filter((x) => x !== ".");
    if (meaningful.length === 0) out.push({ path, applied: a, live: l });
    else leaves(sub, a, l, cs, path, out);
  }
}

function renderPath(path: string[]): string {
  return path
    .map((k) => {
      if (k.startsWith("f:")) return `.${k.slice(2)}`;
      if (k.startsWith("k:")) {
        const obj = JSON.parse(k.slice(2)) as JsonObject;
        return `[${Object.entries(obj)
          .map(([kk, v]) => `${kk}=${JSON.stringify(v)}`)
          .join(",")}]`;
      }
      if (k.startsWith("v:")) return `[=${k.slice(2)}]`;
      return `[${k.slice(2)}]`;
    })
    .join("");
}

function setHasPath(set: FieldSet, path: string[]): boolean {
  let cur: FieldSet | undefined = set;
  for (const k of path) {
    cur = cur?.get(k);
    if (!cur) return false;
  }
  return true;
}

/** managedfields `printManager`: the manager identifier never carries the time. */
function printManager(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager ?? "");
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === "Update") s += ` using ${e.apiVersion}`;
  return s;
}

/** Merges an applied configuration into the live object per list/map semantics. */
function merge(live: unknown, applied: unknown, node: MergeNode | undefined): unknown {
  if (isObject(applied) && isObject(live) && node?.mapType !== "atomic") {
    const out: JsonObject = { ...live };
    for (const [k, v] of Object.entries(applied)) {
      out[k] = k in live ? merge(live[k], v, childNode(node, k)) : deepClone(v);
    }
    return out;
  }
  if (Array.isArray(applied) && Array.isArray(live)) {
    const shape = listShape(node);
    if (shape.type === "atomic") return deepClone(applied);
    const out = live.map((x) => deepClone(x));
    for (const item of applied) {
      const key = itemKey(item, shape);
      const idx = out.findIndex((x) => itemKey(x, shape) === key);
      if (idx >= 0)
        out[idx] = shape.type === "map" ? merge(out[idx], item, node?.items()) : deepClone(item);
      else out.push(deepClone(item));
    }
    return out;
  }
  return deepClone(applied);
}

/** Removes the leaves of `set` from `obj` (fields a manager stopped applying). */
function removeFields(obj: unknown, set: FieldSet, node: MergeNode | undefined): void {
  for (const [k, sub] of set) {
    if (k === ".") continue;
    const meaningful = [...sub.keys()].filter((x) => x !== ".");
    if (k.startsWith("f:")) {
      if (!isObject(obj)) continue;
      const name = k.slice(2);
      if (meaningful.length === 0 || sub.has(".")) {
        if (meaningful.length === 0) delete obj[name];
        else removeFields(obj[name], sub, childNode(node, name));
      } else removeFields(obj[name], sub, childNode(node, name));
    } else if (Array.isArray(obj)) {
      const shape = listShape(node);
      const idx = obj.findIndex((x) => itemKey(x, shape) === k);
      if (idx < 0) continue;
      if (sub.has(".") && meaningful.length === 0) obj.splice(idx, 1);
      else if (sub.has(".")) obj.splice(idx, 1);
      else removeFields(obj[idx], sub, node?.items());
    }
  }
}

/** Restricts a field set to one top-level field (status subresource) or excludes it. */
function restrict(set: FieldSet, keep: (topKey: string) => boolean): FieldSet {
  return new Map([...set].filter(([k]) => keep(k)));
}

/** Handles PATCH with application/apply-patch+yaml. */
export async function serverSideApply(
  rest: ObjectRest,
  scope: RequestScope,
  body: string,
  force: boolean,
): Promise<{ code: number; body: KubeObject }> {
  let applied: unknown;
  try {
    applied = parse(body);
  } catch (e) {
    throw errors.badRequest(`error decoding YAML: ${(e as Error).message}`);
  }
  if (!isObject(applied))
    throw errors.badRequest("error decoding YAML: the applied configuration must be an object");
  const info = scope.info;
  const version = scope.version;
  const expected = groupVersion(info.group, version.name);
  if (applied.apiVersion !== expected || applied.kind !== info.kind) {
    throw errors.badRequest(
      `error decoding YAML: apiVersion and kind must be ${expected} ${info.kind}, got "${String(applied.apiVersion ?? "")}" "${String(applied.kind ?? "")}"`,
    );
  }
  const meta = (isObject(applied.metadata) ? applied.metadata : {}) as JsonObject;
  if (meta.name !== undefined && meta.name !== scope.name) {
    throw errors.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${scope.name})`,
    );
  }
  const statusOnly = scope.subresource === "status";
  const node = mergeNodeFor(info, version);
  let appliedSet = changedFields(applied, undefined, node);
  if (statusOnly) appliedSet = restrict(appliedSet, (k) => k === "f:status");
  else if (version.status) appliedSet = restrict(appliedSet, (k) => k !== "f:status");

  let live: KubeObject | undefined;
  try {
    live = deepClone(await rest.getAsync({ ...scope, subresource: undefined }));
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 404)) throw e;
  }
  const applyEntry = (): ManagedFieldsEntry => ({
    manager: scope.manager,
    operation: "Apply",
    apiVersion: expected,
    time: nowTime(),
    fieldsType: "FieldsV1",
    fieldsV1: toFieldsV1(appliedSet),
    ...(scope.subresource ? { subresource: scope.subresource } : {}),
  });

  if (!live) {
    // A subresource (status, ephemeralcontainers) updates an existing object only.
    if (scope.subresource !== undefined) throw errors.notFound(info, scope.name ?? "");
    const obj = deepClone(applied) as KubeObject;
    const m = (obj.metadata ?? {}) as JsonObject;
    if (m.name === undefined) m.name = scope.name;
    obj.metadata = m;
    return rest.createAsync(scope, obj, { managedFields: [applyEntry()] });
  }

  const entries = (live.metadata?.managedFields ?? []).map((e) => ({ ...e }));
  const isMine = (e: ManagedFieldsEntry) =>
    e.manager === scope.manager &&
    e.operation === "Apply" &&
    (e.subresource ?? "") === (scope.subresource ?? "");
  const previous = entries.find(isMine);
  const conflicts: { manager: string; path: string }[] = [];
  const taken = new Map<ManagedFieldsEntry, FieldSet>();
  const appliedLeaves: Leaf[] = [];
  leaves(appliedSet, applied, live, node, [], appliedLeaves);
  const merged = merge(live, applied, node) as KubeObject;
  for (const e of entries) {
    if (isMine(e)) continue;
    const owned = fromFieldsV1(e.fieldsV1);
    // A manager of another version (an HPA's v1 and v2) conflicts where the apply changes what
    // it owns as its version sees the object (structured-merge-diff compares in each manager's
    // version).
    const other = entryVersion(info, version, e.apiVersion);
    if (other) {
      const shared = intersection(owned, changedIn(info, other, merged, live));
      if (shared.size === 0) continue;
      if (force) taken.set(e, shared);
      else for (const path of leafPaths(shared)) conflicts.push({ manager: printManager(e), path });
      continue;
    }
    const lost: FieldSet = new Map();
    for (const leaf of appliedLeaves) {
      if (!setHasPath(owned, leaf.path)) continue;
      if (deepEqual(leaf.applied, leaf.live)) continue;
      if (force) {
        let cur = lost;
        for (const k of leaf.path) {
          if (!cur.has(k)) cur.set(k, new Map());
          cur = cur.get(k)!;
        }
      } else conflicts.push({ manager: printManager(e), path: renderPath(leaf.path) });
    }
    if (lost.size) taken.set(e, lost);
  }
  if (conflicts.length > 0) {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts)
      byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
    let text: string;
    if (conflicts.length === 1)
      text = `conflict with ${conflicts[0]!.manager}: ${conflicts[0]!.path}`;
    else {
      const lines: string[] = [];
      for (const m of [...byManager.keys()].sort()) {
        lines.push(`conflicts with ${m}:`);
        for (const p of byManager.get(m)!) lines.push(`- ${p}`);
      }
      text = lines.join("\n");
    }
    throw new ApiError(
      409,
      "Conflict",
      `Apply failed with ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}: ${text}`,
      {
        name: scope.name ?? "",
        ...(info.group ? { group: info.group } : {}),
        kind: info.resource,
        causes: conflicts.map((c) => ({
          reason: "FieldManagerConflict",
          message: `conflict with ${c.manager}`,
          field: c.path,
        })),
      },
    );
  }

  // Merge, then drop what this manager applied before and nobody else still owns.
  let result = merged;
  if (previous) {
    let stale = difference(fromFieldsV1(previous.fieldsV1), appliedSet);
    for (const e of entries)
      if (e !== previous) stale = difference(stale, fromFieldsV1(e.fieldsV1));
    if (stale.size > 0) {
      result = deepClone(result);
      removeFields(result, stale, node);
    }
  }
  const nextEntries: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    if (isMine(e)) continue;
    const lost = taken.get(e);
    if (!lost) {
      nextEntries.push(e);
      continue;
    }
    const rest2 = difference(fromFieldsV1(e.fieldsV1), lost);
    if (rest2.size > 0) nextEntries.push({ ...e, fieldsV1: toFieldsV1(rest2) });
  }
  nextEntries.push(applyEntry());
  const rm = (result.metadata ?? {}) as JsonObject;
  rm.resourceVersion = live.metadata?.resourceVersion;
  if (isObject(meta) && meta.resourceVersion !== undefined)
    rm.resourceVersion = meta.resourceVersion;
  result.metadata = rm;
  return rest.updateAsync(scope, result, { patch: true, managedFields: nextEntries });
}
