/**
 * Which marker wrote what into a schema, so an error kube-apiserver's CRD validator reports at a
 * field path (`...properties[spec].x-kubernetes-validations[0].rule`, `...pattern`) is said at
 * that marker's file:line:col. Recorded as markers apply (walker-base.ts applyMarkers), carried
 * across the copies a named type's schema is reused as (cloneSchema), read by kube-checks.ts.
 */
import type { ParsedMarker } from "../../markers/types.js";

// Per schema node (or x-kubernetes-validations entry): the marker behind each keyword ("" for
// the entry itself).
const origins = new WeakMap<object, Map<string, ParsedMarker>>();

/** The marker that wrote `key` of `node` (`""`: the node is a rule the marker added). */
export function originOf(node: object, key = ""): ParsedMarker | undefined {
  return origins.get(node)?.get(key);
}

/** `to` is a copy of `from`: it has the same origins. */
export function copyOrigins(from: object, to: object): void {
  const known = origins.get(from);
  if (known) origins.set(to, known);
}

const record = (node: object, key: string, marker: ParsedMarker) => {
  let map = origins.get(node);
  if (!map) {
    map = new Map();
    origins.set(node, map);
  }
  map.set(key, marker);
};

/** A shallow picture of a node (and its items) before a marker applies. */
export function snapshot(node: Record<string, unknown>): [Record<string, unknown>, unknown] {
  const items = node.items;
  return [{ ...node }, items && typeof items === "object" ? { ...items } : undefined];
}

/** Records `marker` as the origin of what it changed in `node` (or its items) since `before`. */
export function recordChanges(
  node: Record<string, unknown>,
  before: [Record<string, unknown>, unknown],
  marker: ParsedMarker,
): void {
  diff(node, before[0], marker);
  const items = node.items;
  if (items && typeof items === "object" && before[1]) {
    diff(items as Record<string, unknown>, before[1] as Record<string, unknown>, marker);
  }
}

function diff(node: Record<string, unknown>, was: Record<string, unknown>, marker: ParsedMarker) {
  for (const key of Object.keys(node)) {
    const now = node[key];
    if (now === was[key]) continue;
    record(node, key, marker);
    // A rule appended to x-kubernetes-validations: the entry itself is the marker's.
    if (Array.isArray(now)) {
      const old = Array.isArray(was[key]) ? (was[key] as unknown[]) : [];
      for (const entry of now) {
        if (entry && typeof entry === "object" && !old.includes(entry)) record(entry, "", marker);
      }
    }
  }
}
