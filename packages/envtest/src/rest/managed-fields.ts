/**
 * managedFields bookkeeping (`apimachinery/pkg/util/managedfields`): every write records which
 * manager owns which fields, as FieldsV1 sets (`f:` fields, `k:` keyed list items, `v:` set
 * values, `.` the node itself). Update operations own what they changed; server-side apply
 * (see apply.ts) owns what it applied.
 */

import { itemKey, listShape, type MergeNode } from "@opgen/apimachinery/merge";
import { nowTime } from "../api/meta.js";
import {
  deepEqual,
  isObject,
  type JsonObject,
  type KubeObject,
  type ManagedFieldsEntry,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";
import { mergeNodeFor } from "./merge-schema.js";

/** A field set as a tree of FieldsV1 keys; a present "." marks the node itself. */
export type FieldSet = Map<string, FieldSet>;

/** Metadata the server owns: never part of anyone's field set. */
const serverMeta = new Set([
  "name",
  "namespace",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "managedFields",
  "selfLink",
  "generateName",
]);

/** The node of a property of an object, or of a value of a map. */
export function childNode(node: MergeNode | undefined, key: string): MergeNode | undefined {
  return node?.field(key) ?? node?.items();
}

/**
 * The leaf fields of `value` that differ from `old` (all of them when `old` is undefined),
 * walking objects granularly and lists per their shape.
 */
export function changedFields(
  value: unknown,
  old: unknown,
  node: MergeNode | undefined,
  root = true,
): FieldSet {
  const set: FieldSet = new Map();
  if (isObject(value) && node?.mapType !== "atomic") {
    const o = isObject(old) ? old : undefined;
    for (const [k, v] of Object.entries(value)) {
      if (root && (k === "apiVersion" || k === "kind")) continue;
      if (root && k === "metadata" && isObject(v)) {
        const metaNode = node?.field("metadata");
        const ms: FieldSet = new Map();
        for (const [mk, mv] of Object.entries(v)) {
          if (serverMeta.has(mk)) continue;
          const om = o && isObject(o.metadata) ? o.metadata[mk] : undefined;
          if (deepEqual(mv, om)) continue;
          const sub = changedFields(mv, om, childNode(metaNode, mk), false);
          // labels/annotations are maps and ownerReferences/finalizers lists: the node itself counts.
          if (isObject(mv) || Array.isArray(mv)) sub.set(".", new Map());
          ms.set(`f:${mk}`, sub);
        }
        if (ms.size) set.set("f:metadata", ms);
        continue;
      }
      const ov = o?.[k];
      if (deepEqual(v, ov)) continue;
      const cs = childNode(node, k);
      const sub = changedFields(v, ov, cs, false);
      // A struct present on both sides whose own fields did not change (fields were only added
      // on the other side) is no change itself: a status {} that gains conditions is not removed.
      if (sub.size === 0 && isObject(v) && isObject(ov) && !cs?.isMap && cs?.mapType !== "atomic")
        continue;
      if ((isObject(v) && cs?.isMap) || Array.isArray(v)) sub.set(".", new Map());
      set.set(`f:${k}`, sub);
    }
    return set;
  }
  if (Array.isArray(value)) {
    const shape = listShape(node);
    if (shape.type === "atomic") return set;
    const oldItems = Array.isArray(old) ? old : [];
    for (const item of value) {
      const key = itemKey(item, shape);
      if (!key) continue;
      const prev = oldItems.find((x) => itemKey(x, shape) === key);
      if (prev !== undefined && deepEqual(prev, item)) continue;
      const sub =
        shape.type === "map" ? changedFields(item, prev, node?.items(), false) : new Map();
      sub.set(".", new Map());
      set.set(key, sub);
    }
    set.delete(".");
    return set;
  }
  return set;
}

export function toFieldsV1(set: FieldSet): JsonObject {
  const out: JsonObject = {};
  const keys = [...set.keys()].sort((a, b) =>
    a === "." ? -1 : b === "." ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  for (const k of keys) out[k] = toFieldsV1(set.get(k)!);
  return out;
}

export function fromFieldsV1(v: unknown): FieldSet {
  const set: FieldSet = new Map();
  if (!isObject(v)) return set;
  for (const [k, child] of Object.entries(v)) set.set(k, fromFieldsV1(child));
  return set;
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? union(out.get(k)!, v) : v);
  return out;
}

/** `a` without the leaves in `b` (and without nodes left empty by that). */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const [k, v] of a) {
    const bv = b.get(k);
    if (!bv) {
      out.set(k, v);
      continue;
    }
    if (v.size === 0 || bv.size === 0) {
      if (bv.size === 0) continue;
      // `a` owns the node as a leaf, `b` owns something beneath: `a` keeps the node.
      out.set(k, v);
      continue;
    }
    const d = difference(v, bv);
    if (d.size > 0 && !(d.size === 1 && d.has(".") && !v.has("."))) out.set(k, d);
  }
  return out;
}

/** Leaf paths of a set, for conflict reporting (`.spec.replicas`). */
export function leafPaths(set: FieldSet, prefix = ""): string[] {
  const out: string[] = [];
  for (const [k, v] of set) {
    if (k === ".") {
      out.push(prefix);
      continue;
    }
    const seg = k.startsWith("f:") ? `.${k.slice(2)}` : `[${k.slice(2)}]`;
    if (v.size === 0) out.push(prefix + seg);
    else out.push(...leafPaths(v, prefix + seg));
  }
  return out;
}

export interface ManagedFieldsContext {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  subresource?: string;
  info: ResourceInfo;
  version: ResourceVersionInfo;
}

function sameEntry(e: ManagedFieldsEntry, ctx: ManagedFieldsContext): boolean {
  return (
    e.manager === ctx.manager &&
    e.operation === ctx.operation &&
    (e.subresource ?? "") === (ctx.subresource ?? "") &&
    (ctx.operation === "Apply" || e.apiVersion === ctx.apiVersion)
  );
}

/** The paths in both sets (a leaf of one under a node of the other is not shared). */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const [k, v] of a) {
    const bv = b.get(k);
    if (!bv) continue;
    if (v.size === 0 && bv.size === 0) out.set(k, new Map());
    else {
      const sub = intersection(v, bv);
      if (sub.size) out.set(k, sub);
    }
  }
  return out;
}

/**
 * The served version a managedFields entry of another API version records its fields in, for
 * multi-version built-ins (an HPA's autoscaling/v1 and v2); undefined when it is `current` or
 * the kind converts between no versions.
 */
export function entryVersion(
  info: ResourceInfo,
  current: ResourceVersionInfo,
  apiVersion: string | undefined,
): ResourceVersionInfo | undefined {
  if (!info.convert || !apiVersion) return undefined;
  const prefix = info.group ? `${info.group}/` : "";
  if (!apiVersion.startsWith(prefix)) return undefined;
  const name = apiVersion.slice(prefix.length);
  if (name === current.name) return undefined;
  return info.versions.find((v) => v.name === name);
}

/** What a write added or modified, seen in `version` (both objects converted to it). */
export function changedIn(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  now: KubeObject,
  before: KubeObject,
): FieldSet {
  const view = (o: KubeObject) => (info.convert ? info.convert(o, version.name) : o);
  return changedFields(view(now), view(before), mergeNodeFor(info, version));
}

/** What a write changed and removed, as seen in one version of the object. */
interface VersionedDiff {
  changed: FieldSet;
  removed: FieldSet;
}

/**
 * The write's diff in each API version a manager's fields are recorded in. kube's field manager
 * records an Update in the request's version and, for every other manager, compares the old
 * and new objects converted to that manager's version (structured-merge-diff's Updater), so a
 * v1 HPA writer owns v1 paths (`f:targetCPUUtilizationPercentage`) while a v2 writer's change
 * to the same value takes it from them.
 */
function versionedDiffs(obj: KubeObject, old: KubeObject | undefined, ctx: ManagedFieldsContext) {
  const cache = new Map<string, VersionedDiff>();
  const prefix = ctx.info.group ? `${ctx.info.group}/` : "";
  return (apiVersion: string): VersionedDiff => {
    let version =
      ctx.info.convert && apiVersion.startsWith(prefix)
        ? ctx.info.versions.find((v) => v.name === apiVersion.slice(prefix.length))
        : undefined;
    // Kinds served in one version (and entries naming no served version) are compared as written.
    if (!version || !ctx.info.convert) version = ctx.version;
    const hit = cache.get(version.name);
    if (hit) return hit;
    const view = (o: KubeObject): KubeObject =>
      ctx.info.convert && o.apiVersion !== `${prefix}${version.name}`
        ? ctx.info.convert(o, version.name)
        : o;
    const now = view(obj);
    const before = old && view(old);
    const node = mergeNodeFor(ctx.info, version);
    const changed = changedFields(now, before, node);
    // What the write removed leaves every manager, the writer included (structured-merge-diff's
    // Update: managers lose modified and removed fields, and an emptied entry goes away).
    const removed = before ? difference(changedFields(before, now, node), changed) : new Map();
    const diff = { changed, removed };
    cache.set(version.name, diff);
    return diff;
  };
}

/**
 * Updates `obj.metadata.managedFields` for an Update-operation write of `obj` over `old`. Either
 * may be in any served version of a multi-version built-in (`info.convert`): each manager's
 * fields are compared in the version its entry records.
 */
export function recordManagedFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  ctx: ManagedFieldsContext,
): void {
  if (!obj.metadata) obj.metadata = {};
  const meta = obj.metadata;
  const existing: ManagedFieldsEntry[] = (old?.metadata?.managedFields ?? []).map((e) => ({
    ...e,
  }));
  const diffIn = versionedDiffs(obj, old, ctx);
  const { changed, removed } = diffIn(ctx.apiVersion);
  if (changed.size === 0 && removed.size === 0) {
    meta.managedFields = existing.length ? existing : undefined;
    if (!meta.managedFields) delete meta.managedFields;
    return;
  }
  const entries: ManagedFieldsEntry[] = [];
  let mine: FieldSet = new Map();
  for (const e of existing) {
    if (sameEntry(e, ctx)) {
      mine = union(mine, fromFieldsV1(e.fieldsV1));
      continue;
    }
    const theirs = diffIn(e.apiVersion ?? ctx.apiVersion);
    const taken = theirs.removed.size ? union(theirs.changed, theirs.removed) : theirs.changed;
    // Nothing of theirs at the top level changed (a status write next to a spec owner): as is.
    const top = Object.keys(e.fieldsV1 ?? {});
    if (top.length > 0 && !top.some((k) => taken.has(k))) {
      entries.push(e);
      continue;
    }
    const rest = difference(fromFieldsV1(e.fieldsV1), taken);
    if (rest.size > 0) entries.push({ ...e, fieldsV1: toFieldsV1(rest) });
  }
  mine = union(mine, changed);
  if (removed.size) mine = difference(mine, removed);
  if (mine.size === 0) {
    meta.managedFields = entries.length ? entries : undefined;
    if (!meta.managedFields) delete meta.managedFields;
    return;
  }
  entries.push({
    manager: ctx.manager,
    operation: ctx.operation,
    apiVersion: ctx.apiVersion,
    time: nowTime(),
    fieldsType: "FieldsV1",
    fieldsV1: toFieldsV1(mine),
    ...(ctx.subresource ? { subresource: ctx.subresource } : {}),
  });
  meta.managedFields = entries;
}
