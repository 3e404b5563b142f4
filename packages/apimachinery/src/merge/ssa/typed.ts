/**
 * Structured-merge-diff's typed operations on JSON values, as in sigs.k8s.io/structured-merge-diff
 * v4.4 (kube 1.32): the field set a value sets (`ToFieldSet`), the merge of a configuration into
 * a live value (`Merge`, its list order), the comparison of two values (`Compare`: added, modified,
 * removed paths) and the removal of paths (`RemoveItems`, emptied maps and lists becoming null).
 */
import { isObject, type JsonObject } from "../../schema/json.js";
import { fieldPE, keyPE, type PathElement, valuePE } from "./path.js";
import type { Atom, ListAtom, MapAtom } from "./schema.js";
import { FieldSet } from "./set.js";
import { equalValues } from "./value.js";

export class SmdError extends Error {}

type Kind = "scalar" | "list" | "map" | "full";

/** deduceAtom: the part of an atom a value's shape selects ("full" when none fits). */
function deduce(atom: Atom, v: unknown): Kind {
  let k: Kind = "full";
  if (v === undefined || v === null) k = "full";
  else if (Array.isArray(v)) k = atom.list ? "list" : "full";
  else if (isObject(v)) k = atom.map ? "map" : "full";
  else k = atom.scalar ? "scalar" : "full";
  if (k === "full") {
    const n = (atom.scalar ? 1 : 0) + (atom.list ? 1 : 0) + (atom.map ? 1 : 0);
    if (n === 1) return atom.map ? "map" : atom.scalar ? "scalar" : "list";
  }
  return k;
}

/** handleAtom's choice: map, then scalar, then list. */
function pick(atom: Atom, k: Kind): "scalar" | "list" | "map" {
  if (k !== "full") return k;
  if (atom.map) return "map";
  if (atom.scalar) return "scalar";
  if (atom.list) return "list";
  throw new SmdError("schema error: invalid atom");
}

function handled(atom: Atom, v: unknown): "scalar" | "list" | "map" {
  return pick(atom, deduce(atom, v));
}

function fieldType(m: MapAtom, key: string): Atom {
  return m.field(key) ?? m.element();
}

function asList(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function asMap(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

/** The path element of a list item (associative lists only). */
export function itemPE(list: ListAtom, item: unknown): PathElement {
  if (list.keys.length === 0) {
    if (isObject(item))
      throw new SmdError("associative list without keys has an element that's a map type");
    if (Array.isArray(item))
      throw new SmdError("not supported: associative list with lists as elements");
    if (item === null)
      throw new SmdError("associative list without keys has an element that's an explicit null");
    return valuePE(item);
  }
  if (item === null) throw new SmdError("associative list with keys may not have a null element");
  if (!isObject(item))
    throw new SmdError("associative list with keys may not have non-map elements");
  const fields: [string, unknown][] = [];
  const m = list.element().map;
  for (const k of list.keys) {
    if (item[k] !== undefined) fields.push([k, item[k]]);
    else {
      const d = m?.fieldDefault(k);
      if (d === undefined || d === null)
        throw new SmdError(
          `associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`,
        );
      fields.push([k, d]);
    }
  }
  return keyPE(fields);
}

// ---------------------------------------------------------------- ToFieldSet

/** The fields a value sets (`TypedValue.ToFieldSet`). */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  const set = new FieldSet();
  fieldsOf(value, atom, [], set);
  return set;
}

function fieldsOf(v: unknown, atom: Atom, path: PathElement[], set: FieldSet): void {
  const kind = handled(atom, v);
  if (kind === "scalar") {
    set.insert(path);
    return;
  }
  if (kind === "list") {
    const t = atom.list!;
    if (t.atomic) {
      set.insert(path);
      return;
    }
    const l = asList(v);
    if (!l) return;
    const pes = l.map((item) => itemPE(t, item));
    const seen = new Set<string>();
    const dup = new Set<string>();
    for (const pe of pes) {
      if (seen.has(pe.id) && !dup.has(pe.id)) {
        set.insert([...path, pe]);
        dup.add(pe.id);
      }
      seen.add(pe.id);
    }
    l.forEach((item, i) => {
      const pe = pes[i]!;
      if (dup.has(pe.id)) return;
      const p = [...path, pe];
      fieldsOf(item, t.element(), p, set);
      set.insert(p);
    });
    return;
  }
  const t = atom.map!;
  if (t.atomic) {
    set.insert(path);
    return;
  }
  const m = asMap(v);
  if (!m) return;
  for (const [k, val] of Object.entries(m)) {
    if (val === undefined) continue;
    const p = [...path, fieldPE(k)];
    fieldsOf(val, fieldType(t, k), p, set);
    if (val === null || (isObject(val) && Object.keys(val).length === 0)) set.insert(p);
    else if (!t.field(k)) set.insert(p);
  }
}

// ---------------------------------------------------------------- Merge

/** The configuration `rhs` merged into `lhs` (`TypedValue.Merge`); undefined when neither exists. */
export function merge(lhs: unknown, rhs: unknown, atom: Atom): unknown {
  if (lhs === undefined && rhs === undefined)
    throw new SmdError("at least one of lhs and rhs must be provided");
  const kind = rhs === undefined ? handled(atom, lhs) : handled(atom, rhs);
  const leaf = rhs !== undefined ? rhs : lhs;
  if (kind === "scalar") return leaf;
  if (kind === "list") {
    const t = atom.list!;
    const l = asList(lhs);
    const r = asList(rhs);
    if (t.atomic || ((!l || l.length === 0) && (!r || r.length === 0))) return leaf;
    return mergeList(t, l, r);
  }
  const t = atom.map!;
  const l = asMap(lhs);
  const r = asMap(rhs);
  const lEmpty = !l || Object.keys(l).length === 0;
  const rEmpty = !r || Object.keys(r).length === 0;
  if (t.atomic || (lEmpty && rEmpty)) return leaf;
  const out: JsonObject = {};
  const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
  for (const k of keys) {
    const lv = l?.[k];
    const rv = r?.[k];
    if (lv === undefined && rv === undefined) continue;
    const m = merge(lv, rv, fieldType(t, k));
    if (m !== undefined) out[k] = m;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function index(t: ListAtom, list: unknown[] | undefined, allowDuplicates: boolean) {
  const pes: PathElement[] = [];
  const observed = new Map<string, unknown>();
  for (const item of list ?? []) {
    const pe = itemPE(t, item);
    if (observed.has(pe.id)) {
      if (!allowDuplicates) throw new SmdError(`duplicate entries for key ${pe.id}`);
      // Duplicated live items are not merged with the new value.
      observed.set(pe.id, null);
    } else observed.set(pe.id, item);
    pes.push(pe);
  }
  return { pes, observed };
}

/** SMD 4.2+'s list merge: the configuration's order, live items kept where they were. */
function mergeList(t: ListAtom, lhs: unknown[] | undefined, rhs: unknown[] | undefined): unknown {
  const R = index(t, rhs, false);
  const L = index(t, lhs, true);
  const shared = R.pes.filter((pe) => L.observed.has(pe.id));
  let nextShared = shared.shift();
  const mergedRHS = new Set<string>();
  const out: unknown[] = [];
  const push = (pe: PathElement, l: unknown, r: unknown) => {
    const m = merge(l, r, t.element());
    if (m !== undefined) out.push(m);
    void pe;
  };
  let lI = 0;
  let rI = 0;
  while (lI < L.pes.length || rI < R.pes.length) {
    if (lI < L.pes.length && rI < R.pes.length) {
      const pe = L.pes[lI]!;
      if (pe.id === R.pes[rI]!.id) {
        mergedRHS.add(pe.id);
        push(pe, L.observed.get(pe.id), R.observed.get(pe.id));
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (R.observed.has(pe.id) && nextShared && nextShared.id !== pe.id) {
        lI++;
        continue;
      }
    }
    if (lI < L.pes.length) {
      const pe = L.pes[lI]!;
      if (!R.observed.has(pe.id)) {
        push(pe, lhs![lI], undefined);
        lI++;
        continue;
      }
      if (mergedRHS.has(pe.id)) lI++;
    }
    if (rI < R.pes.length) {
      const pe = R.pes[rI]!;
      mergedRHS.add(pe.id);
      push(pe, L.observed.get(pe.id), R.observed.get(pe.id));
      rI++;
      if (nextShared && nextShared.id === pe.id) nextShared = shared.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}

// ---------------------------------------------------------------- Compare

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** What changed from `lhs` to `rhs` (`TypedValue.Compare`). */
export function compare(lhs: unknown, rhs: unknown, atom: Atom): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareNode(lhs, rhs, atom, [], c);
  return c;
}

interface Walk {
  inLeaf: boolean;
}

function compareNode(l: unknown, r: unknown, atom: Atom, path: PathElement[], c: Comparison): void {
  const w: Walk = { inLeaf: false };
  const kl = deduce(atom, l);
  const kr = deduce(atom, r);
  if (r === undefined) handleCompare(pick(atom, kl), l, r, atom, path, c, w);
  else if (l === undefined || kl === kr) handleCompare(pick(atom, kr), l, r, atom, path, c, w);
  else {
    handleCompare(pick(atom, kl), l, r, atom, path, c, { inLeaf: false });
    handleCompare(pick(atom, kr), l, r, atom, path, c, w);
  }
  if (!w.inLeaf) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
}

function compareLeaf(l: unknown, r: unknown, path: PathElement[], c: Comparison, w: Walk): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!equalValues(l, r)) c.modified.insert(path);
}

function handleCompare(
  kind: "scalar" | "list" | "map",
  l: unknown,
  r: unknown,
  atom: Atom,
  path: PathElement[],
  c: Comparison,
  w: Walk,
): void {
  if (kind === "scalar") {
    compareLeaf(l, r, path, c, w);
    return;
  }
  if (kind === "list") {
    const t = atom.list!;
    const ll = asList(l);
    const rl = asList(r);
    if (t.atomic || ((!ll || ll.length === 0) && (!rl || rl.length === 0)))
      compareLeaf(l, r, path, c, w);
    else compareList(t, ll, rl, path, c);
    return;
  }
  const t = atom.map!;
  const lm = asMap(l);
  const rm = asMap(r);
  const lEmpty = !lm || Object.keys(lm).length === 0;
  const rEmpty = !rm || Object.keys(rm).length === 0;
  if (t.atomic || (lEmpty && rEmpty)) {
    compareLeaf(l, r, path, c, w);
    return;
  }
  const keys = new Set([...Object.keys(lm ?? {}), ...Object.keys(rm ?? {})]);
  for (const k of keys) {
    const lv = lm?.[k];
    const rv = rm?.[k];
    if (lv === undefined && rv === undefined) continue;
    compareNode(lv, rv, fieldType(t, k), [...path, fieldPE(k)], c);
  }
}

function compareList(
  t: ListAtom,
  l: unknown[] | undefined,
  r: unknown[] | undefined,
  path: PathElement[],
  c: Comparison,
): void {
  const all: PathElement[] = [];
  const lv = new Map<string, unknown[]>();
  const rv = new Map<string, unknown[]>();
  for (const item of l ?? []) {
    const pe = itemPE(t, item);
    const got = lv.get(pe.id);
    if (got) got.push(item);
    else {
      lv.set(pe.id, [item]);
      all.push(pe);
    }
  }
  for (const item of r ?? []) {
    const pe = itemPE(t, item);
    const got = rv.get(pe.id);
    if (got) got.push(item);
    else {
      rv.set(pe.id, [item]);
      if (!lv.has(pe.id)) all.push(pe);
    }
  }
  const e = t.element();
  for (const pe of all) {
    const ll = lv.get(pe.id) ?? [];
    const rl = rv.get(pe.id) ?? [];
    const p = [...path, pe];
    if (ll.length <= 1 && rl.length <= 1) compareNode(ll[0], rl[0], e, p, c);
    else if (ll.length >= 2 && rl.length >= 2) {
      if (ll.length !== rl.length || ll.some((x, i) => !equalValues(x, rl[i])))
        c.modified.insert(p);
    } else if (ll.length >= 2) {
      if (rl.length) compareNode(undefined, rl[0], e, p, c);
      c.removed.insert(p);
    } else {
      if (ll.length) compareNode(ll[0], undefined, e, p, c);
      c.added.insert(p);
    }
  }
}

// ---------------------------------------------------------------- RemoveItems

/** `value` without the paths in `toRemove` (`TypedValue.RemoveItems`); null when emptied. */
export function removeItems(value: unknown, toRemove: FieldSet, atom: Atom): unknown {
  const kind = handled(atom, value);
  if (kind === "scalar") return value;
  if (kind === "list") {
    const l = asList(value);
    if (!l || l.length === 0 || atom.list!.atomic) return null;
    const t = atom.list!;
    const out: unknown[] = [];
    for (let item of l) {
      const pe = itemPE(t, item);
      if (toRemove.members.has(pe.id)) continue;
      const sub = toRemove.withPrefix(pe);
      if (!sub.empty()) item = removeItems(item, sub, t.element());
      out.push(item);
    }
    return out.length > 0 ? out : null;
  }
  const m = asMap(value);
  const t = atom.map!;
  if (!m || Object.keys(m).length === 0 || t.atomic) return null;
  const out: JsonObject = {};
  for (let [k, val] of Object.entries(m)) {
    if (val === undefined) continue;
    const pe = fieldPE(k);
    if (toRemove.members.has(pe.id)) continue;
    const sub = toRemove.withPrefix(pe);
    if (!sub.empty()) val = removeItems(val, sub, fieldType(t, k));
    out[k] = val;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Named (declared) fields with children become members too (`EnsureNamedFieldsAreMembers`). */
export function ensureNamedFieldsAreMembers(set: FieldSet, atom: Atom | undefined): FieldSet {
  const out = new FieldSet();
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const [id, c] of set.children) {
    let t: Atom | undefined;
    if (pe(c).kind === "f" && atom?.map) {
      const name = (c.pe as { name: string }).name;
      const declared = atom.map.field(name);
      if (declared) out.members.set(id, c.pe);
      t = declared ?? atom.map.element();
    } else if (c.pe.kind === "k" && atom?.list) t = atom.list.element();
    out.children.set(id, { pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, t) });
  }
  return out;
}

function pe(c: { pe: PathElement }): PathElement {
  return c.pe;
}
