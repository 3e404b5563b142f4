/**
 * structured-merge-diff's Updater (merge/update.go, v4.4 as kube 1.32 vendors it): an Update
 * takes the changed fields from every other manager and gives them to the writer; an Apply merges
 * the configuration, owns exactly what it sets, conflicts where another manager owns a field it
 * changes (unless forced), and removes what it applied before and no one owns any more.
 */
import { type PathElement, pathString } from "./path.js";
import type { Atom } from "./schema.js";
import { FieldSet } from "./set.js";
import {
  type Comparison,
  compare,
  ensureNamedFieldsAreMembers,
  merge,
  removeItems,
  toFieldSet,
} from "./typed.js";
import { equalValues } from "./value.js";

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Field sets by manager identifier. */
export type ManagedFieldSets = Map<string, VersionedSet>;

export interface TypedValue {
  readonly value: unknown;
  readonly atom: Atom;
}

/**
 * Converts an object to the API version a manager's set is recorded in; undefined when that
 * version is not served (SMD's missing-version error: the manager is dropped).
 */
export type Converter = (tv: TypedValue, version: string) => TypedValue | undefined;

export const sameVersion: Converter = (tv) => tv;

/**
 * The Updater's IgnoreFilter: per API version, the fields the strategy resets (kube's
 * `GetResetFields`, e.g. `status` on the main resource, `spec` on the status subresource), which
 * no write changes for anyone and no writer gains.
 */
export type ResetFields = (version: string) => FieldSet | undefined;

function filtered(c: Comparison, reset: FieldSet | undefined): Comparison {
  if (!reset) return c;
  return {
    added: c.added.recursiveDifference(reset),
    modified: c.modified.recursiveDifference(reset),
    removed: c.removed.recursiveDifference(reset),
  };
}

export interface Conflict {
  readonly manager: string;
  readonly path: readonly PathElement[];
}

export class ConflictError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflicts.map((c) => `conflict with ${c.manager}: ${pathString(c.path)}`).join("; "));
  }
}

function compareTyped(a: TypedValue, b: TypedValue): Comparison {
  return compare(a.value, b.value, b.atom);
}

/** The shared step: who loses what the write changed, and conflicts (merge/update.go update). */
function updateManagers(
  convert: Converter,
  oldObj: TypedValue,
  newObj: TypedValue,
  version: string,
  managers: ManagedFieldSets,
  workflow: string,
  force: boolean,
  reset: ResetFields,
): { managers: ManagedFieldSets; cmp: Comparison } {
  const cmp = filtered(compareTyped(oldObj, newObj), reset(version));
  const versions = new Map<string, Comparison>([[version, cmp]]);
  const conflicts = new Map<string, FieldSet>();
  const removed = new Map<string, FieldSet>();
  const out: ManagedFieldSets = new Map(managers);
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    let c = versions.get(vs.apiVersion);
    if (!c) {
      const o = convert(oldObj, vs.apiVersion);
      const n = o && convert(newObj, vs.apiVersion);
      if (!o || !n) {
        out.delete(manager);
        continue;
      }
      c = filtered(compareTyped(o, n), reset(vs.apiVersion));
      versions.set(vs.apiVersion, c);
    }
    const conflict = vs.set.intersection(c.modified.union(c.added));
    if (!conflict.empty()) conflicts.set(manager, conflict);
    if (!c.removed.empty()) removed.set(manager, c.removed);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const [manager, set] of conflicts)
      for (const path of set.paths()) list.push({ manager, path });
    throw new ConflictError(list);
  }
  for (const [m, set] of conflicts) {
    const vs = out.get(m);
    if (vs) out.set(m, { ...vs, set: vs.set.difference(set) });
  }
  for (const [m, set] of removed) {
    const vs = out.get(m);
    if (vs) out.set(m, { ...vs, set: vs.set.difference(set) });
  }
  for (const [m, vs] of out) if (vs.set.empty()) out.delete(m);
  return { managers: out, cmp };
}

/** `Updater.Update`: the writer owns what it added or modified, and loses what it removed. */
export function smdUpdate(
  convert: Converter,
  live: TypedValue,
  next: TypedValue,
  version: string,
  managers: ManagedFieldSets,
  manager: string,
  reset: ResetFields = () => undefined,
): ManagedFieldSets {
  const r = updateManagers(convert, live, next, version, managers, manager, true, reset);
  const mine = r.managers.get(manager)?.set ?? new FieldSet();
  let set = mine.difference(r.cmp.removed).union(r.cmp.modified).union(r.cmp.added);
  const ignored = reset(version);
  if (ignored) set = set.recursiveDifference(ignored);
  const out = new Map(r.managers);
  if (set.empty()) out.delete(manager);
  else out.set(manager, { set, apiVersion: version, applied: false });
  return out;
}

/**
 * `Updater.Apply`: the merged object (undefined when it equals the live one: the managers may
 * still have changed) and the managers after the apply.
 */
export function smdApply(
  convert: Converter,
  live: TypedValue,
  config: TypedValue,
  version: string,
  managers: ManagedFieldSets,
  manager: string,
  force: boolean,
  reset: ResetFields = () => undefined,
): { object: TypedValue | undefined; managers: ManagedFieldSets } {
  const merged: TypedValue = { value: merge(live.value, config.value, live.atom), atom: live.atom };
  const lastSet = managers.get(manager);
  let set = toFieldSet(config.value, config.atom);
  const ignored = reset(version);
  if (ignored) set = set.recursiveDifference(ignored);
  const withMine = new Map(managers);
  withMine.set(manager, { set, apiVersion: version, applied: true });
  const pruned = prune(convert, merged, withMine, manager, lastSet);
  const r = updateManagers(convert, live, pruned, version, withMine, manager, force, reset);
  const same = equalValues(live.value, pruned.value);
  return { object: same ? undefined : pruned, managers: r.managers };
}

/** Removes what the applier owned before and owns no more, unless another manager owns it. */
function prune(
  convert: Converter,
  merged: TypedValue,
  managers: ManagedFieldSets,
  applier: string,
  lastSet: VersionedSet | undefined,
): TypedValue {
  if (!lastSet || lastSet.set.empty()) return merged;
  const m = convert(merged, lastSet.apiVersion);
  if (!m) return merged;
  const atom = m.atom;
  let pruned: TypedValue = {
    value: removeItems(m.value, ensureNamedFieldsAreMembers(lastSet.set, atom), atom),
    atom,
  };
  pruned = addBackOwnedItems(convert, m, pruned, lastSet.apiVersion, managers);
  pruned = addBackDanglingItems(convert, m, pruned, lastSet);
  return convert(pruned, managers.get(applier)!.apiVersion) ?? pruned;
}

function addBackOwnedItems(
  convert: Converter,
  merged: TypedValue,
  pruned: TypedValue,
  prunedVersion: string,
  managers: ManagedFieldSets,
): TypedValue {
  const atVersion = new Map<string, FieldSet>();
  for (const vs of managers.values())
    atVersion.set(vs.apiVersion, (atVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
  const order = [...atVersion.keys()].sort((a, b) =>
    a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0,
  );
  for (const version of order) {
    const mv = convert(merged, version);
    const pv = mv && convert(pruned, version);
    if (!mv || !pv) continue;
    merged = mv;
    const a = mv.atom;
    const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(mv.value, a), a);
    const prunedSet = ensureNamedFieldsAreMembers(toFieldSet(pv.value, a), a);
    const owned = ensureNamedFieldsAreMembers(atVersion.get(version)!, a);
    pruned = {
      value: removeItems(mv.value, mergedSet.difference(prunedSet.union(owned)), a),
      atom: a,
    };
  }
  return pruned;
}

/** Keeps what the apply itself left without an owner (addBackDanglingItems). */
function addBackDanglingItems(
  convert: Converter,
  merged: TypedValue,
  pruned: TypedValue,
  lastSet: VersionedSet,
): TypedValue {
  const p = convert(pruned, lastSet.apiVersion);
  if (!p) return merged;
  const a = merged.atom;
  const prunedSet = ensureNamedFieldsAreMembers(toFieldSet(p.value, p.atom), a);
  const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(merged.value, a), a);
  const last = ensureNamedFieldsAreMembers(lastSet.set, a);
  return {
    value: removeItems(merged.value, mergedSet.difference(prunedSet).intersection(last), a),
    atom: a,
  };
}
