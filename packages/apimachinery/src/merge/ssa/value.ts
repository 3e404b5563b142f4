/**
 * JSON values as structured-merge-diff orders and compares them (`value.Compare`, `value.Equals`):
 * numbers before strings before booleans before lists before maps before null, integers and
 * floats compared numerically, maps compared by their sorted keys.
 */
import { isObject, type JsonObject } from "../../schema/json.js";

/** The rank of a value's kind in SMD's ordering. */
function rank(v: unknown): number {
  if (typeof v === "number") return 0;
  if (typeof v === "string") return 2;
  if (typeof v === "boolean") return 3;
  if (Array.isArray(v)) return 4;
  if (isObject(v)) return 5;
  return 6;
}

function cmp<T>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SMD's `value.Compare`: -1, 0 or 1. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
    case 2:
      return cmp(a as number | string, b as number | string);
    case 3:
      return cmp(a ? 1 : 0, b ? 1 : 0);
    case 4: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return cmp(la.length, lb.length);
    }
    case 5:
      return compareMaps(a as JsonObject, b as JsonObject);
    default:
      return 0;
  }
}

/** Maps zipped in lexical key order: a key only one side has makes that side greater. */
function compareMaps(a: JsonObject, b: JsonObject): number {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  if (ka.length === 0 && kb.length === 0) return 0;
  const keys = [...new Set([...ka, ...kb])].sort();
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === ka.length) c = -1;
    else if (i === kb.length) c = 1;
    else if (a[k] === undefined) c = 1;
    else if (b[k] === undefined) c = -1;
    else c = compareValues(a[k], b[k]);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** SMD's `value.Equals` (JSON equality; key order does not matter). */
export function equalValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalValues(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    let nb = 0;
    for (const k of Object.keys(b)) if (b[k] !== undefined) nb++;
    if (ka.length !== nb) return false;
    for (const k of ka) if (b[k] === undefined || !equalValues(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** JSON as Go's encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** A map's keys in a canonical order, for Go-compatible JSON of key objects. */
export function sortedObject(v: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) out[k] = v[k];
  return out;
}
