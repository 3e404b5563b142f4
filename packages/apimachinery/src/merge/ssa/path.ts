/**
 * Path elements of structured-merge-diff field paths: a field name (`f:`), an associative list
 * item by its keys (`k:`), a set item by value (`v:`) or an atomic list item by index (`i:`),
 * with SMD's ordering, their FieldsV1 spelling and the spelling of conflict messages.
 */
import { isObject, type JsonObject } from "../../schema/json.js";
import { compareValues, goJson } from "./value.js";

export type PathElement =
  | { readonly kind: "f"; readonly name: string; readonly id: string }
  /** Key fields sorted by name. */
  | { readonly kind: "k"; readonly key: readonly [string, unknown][]; readonly id: string }
  | { readonly kind: "v"; readonly value: unknown; readonly id: string }
  | { readonly kind: "i"; readonly index: number; readonly id: string };

export type Path = readonly PathElement[];

const fieldCache = new Map<string, PathElement>();

export function fieldPE(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    pe = { kind: "f", name, id: `f:${name}` };
    if (fieldCache.size < 10_000) fieldCache.set(name, pe);
  }
  return pe;
}

export function keyPE(fields: [string, unknown][]): PathElement {
  const key = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const obj: JsonObject = {};
  for (const [k, v] of key) obj[k] = v;
  return { kind: "k", key, id: `k:${goJson(obj)}` };
}

export function valuePE(value: unknown): PathElement {
  return { kind: "v", value, id: `v:${goJson(value)}` };
}

export function indexPE(index: number): PathElement {
  return { kind: "i", index, id: `i:${index}` };
}

const ORDER = { f: 0, k: 1, v: 2, i: 3 } as const;

/** SMD's `PathElement.Compare`. */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return ORDER[a.kind] < ORDER[b.kind] ? -1 : 1;
  switch (a.kind) {
    case "f": {
      const bn = (b as typeof a).name;
      return a.name < bn ? -1 : a.name > bn ? 1 : 0;
    }
    case "k": {
      const bk = (b as typeof a).key;
      for (let i = 0; ; i++) {
        if (i >= a.key.length && i >= bk.length) return 0;
        if (i >= a.key.length) return -1;
        if (i >= bk.length) return 1;
        const [an, av] = a.key[i]!;
        const [bn, bv] = bk[i]!;
        if (an !== bn) return an < bn ? -1 : 1;
        const c = compareValues(av, bv);
        if (c !== 0) return c;
      }
    }
    case "v":
      return compareValues(a.value, (b as typeof a).value);
    case "i": {
      const bi = (b as typeof a).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

/** Parses a FieldsV1 key (`f:name`, `k:{...}`, `v:...`, `i:0`); undefined for unknown kinds. */
export function parsePE(s: string): PathElement | undefined {
  const body = s.slice(2);
  switch (s.slice(0, 2)) {
    case "f:":
      return fieldPE(body);
    case "k:": {
      const obj = JSON.parse(body) as unknown;
      if (!isObject(obj)) throw new Error(`invalid key ${s}`);
      return keyPE(Object.entries(obj));
    }
    case "v:":
      return valuePE(JSON.parse(body));
    case "i:":
      return indexPE(Number(body));
    default:
      return undefined;
  }
}

/** `fieldpath.Path.String()`: `.spec.ports[port=80,protocol="TCP"]`, `[=x]`, `[0]`. */
export function pathString(path: Path): string {
  let s = "";
  for (const pe of path) {
    switch (pe.kind) {
      case "f":
        s += `.${pe.name}`;
        break;
      case "k":
        s += `[${pe.key.map(([k, v]) => `${k}=${goJson(v)}`).join(",")}]`;
        break;
      case "v":
        s += `[=${goJson(pe.value)}]`;
        break;
      case "i":
        s += `[${pe.index}]`;
        break;
    }
  }
  return s;
}
