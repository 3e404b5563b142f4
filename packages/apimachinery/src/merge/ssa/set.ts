/**
 * Field sets as structured-merge-diff keeps them (`fieldpath.Set`): the paths that are members
 * of a node, and the child sets under each path element (never empty). A path can be a member
 * and have children at once, which FieldsV1 writes as `{".":{}, ...}`.
 */
import { isObject, type JsonObject } from "../../schema/json.js";
import { comparePE, type Path, type PathElement, parsePE } from "./path.js";

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let cur: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) cur = cur.descend(path[i]!);
    const last = path[path.length - 1]!;
    cur.members.set(last.id, last);
  }

  /** The child set under `pe`, made when missing (callers must leave it non-empty). */
  descend(pe: PathElement): FieldSet {
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let cur: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && cur; i++) cur = cur.children.get(path[i]!.id)?.set;
    return cur?.members.has(path[path.length - 1]!.id) ?? false;
  }

  empty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  /** The paths beneath `pe` (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  union(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    if (this.empty()) return o;
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of o.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      out.children.set(id, oc ? { pe: c.pe, set: c.set.union(oc.set) } : c);
    }
    for (const [id, c] of o.children) if (!this.children.has(id)) out.children.set(id, c);
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) continue;
      const i = c.set.intersection(oc.set);
      if (!i.empty()) out.children.set(id, { pe: c.pe, set: i });
    }
    return out;
  }

  /** Members of `o` leave; children are differenced recursively (not removed by a member). */
  difference(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) out.children.set(id, c);
      else {
        const d = c.set.difference(oc.set);
        if (!d.empty()) out.children.set(id, { pe: c.pe, set: d });
      }
    }
    return out;
  }

  /**
   * `RecursiveDifference`: members of `o` leave with everything beneath them (a reset field
   * `status` takes `.status.replicas` too); children are differenced recursively.
   */
  recursiveDifference(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      if (o.members.has(id)) continue;
      const oc = o.children.get(id);
      if (!oc) out.children.set(id, c);
      else {
        const d = c.set.recursiveDifference(oc.set);
        if (!d.empty()) out.children.set(id, { pe: c.pe, set: d });
      }
    }
    return out;
  }

  /** Every member path, members of a node before its children's, in SMD's order. */
  paths(prefix: PathElement[] = [], out: PathElement[][] = []): PathElement[][] {
    for (const pe of sortedPEs(this.members)) out.push([...prefix, pe]);
    for (const c of sortedChildren(this.children)) c.set.paths([...prefix, c.pe], out);
    return out;
  }

  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  equals(o: FieldSet): boolean {
    if (this.members.size !== o.members.size || this.children.size !== o.children.size)
      return false;
    for (const id of this.members.keys()) if (!o.members.has(id)) return false;
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc || !c.set.equals(oc.set)) return false;
    }
    return true;
  }

  /** FieldsV1 as SMD writes it: path elements in order, `.` first where a node is a member. */
  toFieldsV1(): JsonObject {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): JsonObject {
    const out: JsonObject = {};
    if (includeSelf && !this.empty()) out["."] = {};
    const ids = new Map<string, PathElement>(this.members);
    for (const [id, c] of this.children) ids.set(id, c.pe);
    for (const pe of sortedPEs(ids)) {
      const c = this.children.get(pe.id);
      out[pe.id] = c ? c.set.emit(this.members.has(pe.id)) : {};
    }
    return out;
  }

  /** Reads FieldsV1 (unknown path element kinds are dropped, as SMD does). */
  static fromFieldsV1(v: unknown): FieldSet {
    return readV1(v).children ?? new FieldSet();
  }

  /** The canonical JSON text of FieldsV1 (what the apiserver stores). */
  toJSON(): string {
    return JSON.stringify(this.toFieldsV1());
  }
}

const EMPTY = new FieldSet();

function readV1(v: unknown): { children?: FieldSet; member: boolean } {
  let children: FieldSet | undefined;
  let member = false;
  if (isObject(v)) {
    for (const [k, sub] of Object.entries(v)) {
      if (k === ".") {
        member = true;
        continue;
      }
      const pe = parsePE(k);
      if (!pe) continue;
      const r = readV1(sub);
      if (r.member) {
        children ??= new FieldSet();
        children.members.set(pe.id, pe);
      }
      if (r.children) {
        children ??= new FieldSet();
        children.children.set(pe.id, { pe, set: r.children });
      }
    }
  }
  if (!children) member = true;
  return { ...(children ? { children } : {}), member };
}

function sortedPEs(m: Map<string, PathElement>): PathElement[] {
  return [...m.values()].sort(comparePE);
}

function sortedChildren(m: Map<string, Child>): Child[] {
  return [...m.values()].sort((a, b) => comparePE(a.pe, b.pe));
}
