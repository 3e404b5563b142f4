/**
 * How the items of a list are told apart, from its schema node: what server-side apply merges
 * and records managed fields by, and what CEL transition rules correlate old items by.
 */
import { isObject, type JsonObject } from "../schema/json.js";
import type { MergeNode } from "./navigator.js";

export interface ListShape {
  type: "atomic" | "set" | "map";
  keys: string[];
  /** Schema defaults of key fields: an item without one is keyed with the default. */
  defaults: Record<string, unknown>;
}

const ATOMIC: ListShape = { type: "atomic", keys: [], defaults: {} };

/**
 * How a list merges, from its schema node: `x-kubernetes-list-type`, else (built-ins without one)
 * the strategic-merge strategy (a merge key makes it associative, none a set), else atomic.
 */
export function listShape(node: MergeNode | undefined): ListShape {
  if (!node) return ATOMIC;
  let keys: string[];
  if (node.listType === "map") keys = [...(node.listMapKeys ?? [])];
  else if (node.listType === "set") return { type: "set", keys: [], defaults: {} };
  else if (node.listType === "atomic") return ATOMIC;
  else if (node.patchStrategies.includes("merge")) {
    if (!node.patchMergeKey) return { type: "set", keys: [], defaults: {} };
    keys = [node.patchMergeKey];
  } else return ATOMIC;
  const items = node.items();
  const defaults: Record<string, unknown> = {};
  for (const k of keys) {
    const d = items?.field(k)?.default;
    if (d !== undefined) defaults[k] = d;
  }
  return { type: "map", keys, defaults };
}

/** The identity of a list item under `shape` (undefined in atomic lists). */
export function itemKey(item: unknown, shape: ListShape): string | undefined {
  if (shape.type === "set") return `v:${JSON.stringify(item)}`;
  if (shape.type === "map" && isObject(item)) {
    const k: JsonObject = {};
    for (const key of [...shape.keys].sort()) {
      const v = item[key] ?? shape.defaults[key];
      if (v !== undefined) k[key] = v;
    }
    return `k:${JSON.stringify(k)}`;
  }
  return undefined;
}
