/**
 * Quota's arithmetic on resource lists (`k8s.io/apiserver/pkg/quota/v1` resources.go): sums that
 * keep the first term's format, masks, comparisons, and the `name=value` form the admission
 * plugin's messages print (keys sorted, values in their canonical form).
 */
import { parseQuantity } from "@opgen/apimachinery/quantity";
import { objectAt } from "../../api/types.js";
import { addQuantities, type GoQuantity, goQuantity, quantityString } from "../go-quantity.js";

export type ResourceList = Map<string, GoQuantity>;

/** A zero quantity as quota defaults a tracked resource (`resource.Quantity{Format: DecimalSI}`). */
export function zero(): GoQuantity {
  return { q: parseQuantity("0")!, format: "DecimalSI" };
}

/** A whole count, as resource.NewQuantity(n, DecimalSI). */
export function count(n: number): GoQuantity {
  return { q: parseQuantity(String(n))!, format: "DecimalSI" };
}

/** The quantities of a JSON resource list (unparsable entries are left out). */
export function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, q] of Object.entries(objectAt(v))) {
    const g = goQuantity(q);
    if (g) out.set(k, g);
  }
  return out;
}

/** A resource list as JSON, values in their canonical form (what a stored status holds). */
export function toJson(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = quantityString(list.get(k)!);
  return out;
}

/** quota.Add: keys of both; a key of both is a's value plus b's (a's format). */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addQuantities(cur, v) : v);
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult: a's keys, a − b floored at zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    if (!other) {
      out.set(k, v);
      continue;
    }
    const diff = v.q.sub(other.q);
    out.set(k, diff.sign() < 0 ? { q: parseQuantity("0")!, format: v.format } : { ...v, q: diff });
  }
  return out;
}

/** quota.Mask: only the named keys. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const k of names) {
    const v = list.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

/** quota.RemoveZeros. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => v.q.sign() !== 0));
}

/** quota.IsNegative: the keys with a negative value. */
export function negatives(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.q.sign() < 0).map(([k]) => k);
}

/** quota.LessThanOrEqual: the keys of `a` above their value in `b` (keys `b` lacks pass). */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, v] of a) {
    const limit = b.get(k);
    if (limit && v.q.cmp(limit.q) > 0) out.push(k);
  }
  return out;
}

/** quota.Equals: the same keys with equal values. */
export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other?.q.cmp(v.q) !== 0) return false;
  }
  return true;
}

/** The admission plugin's prettyPrint: `key=value` sorted by key, comma-joined. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${quantityString(list.get(k)!)}`)
    .join(",");
}

/** prettyPrintResourceNames: sorted, comma-joined. */
export function prettyNames(names: Iterable<string>): string {
  return [...names].sort().join(",");
}
