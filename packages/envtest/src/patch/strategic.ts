/**
 * Strategic merge patch for built-in kinds (`apimachinery/pkg/util/strategicpatch`): a merge
 * patch where lists with a `patchMergeKey` merge item by item, primitive lists with the merge
 * strategy (finalizers) union, and the directives `$patch` (replace/delete/merge),
 * `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` apply.
 * Merge keys come from the resource's table keyed by field name ("" = primitive merge list).
 */
import { errors } from "@opgen/apimachinery/status";
import { deepClone, deepEqual, isObject, type JsonObject } from "../api/types.js";

export function applyStrategicMergePatch(
  original: unknown,
  patch: JsonObject,
  mergeKeys: Record<string, string>,
): unknown {
  return mergeMap(isObject(original) ? deepClone(original) : {}, patch, mergeKeys);
}

function mergeMap(orig: JsonObject, patch: JsonObject, keys: Record<string, string>): JsonObject {
  const directive = patch.$patch;
  if (directive === "replace") {
    const out = deepClone(patch);
    delete out.$patch;
    return out;
  }
  if (directive === "delete") return {};
  if (directive !== undefined && directive !== "merge") {
    throw errors.badRequest(`Unknown patch type: ${String(directive)}`);
  }
  let out: JsonObject = { ...orig };
  const retain = patch.$retainKeys;
  for (const [k, v] of Object.entries(patch)) {
    if (k === "$patch" || k === "$retainKeys") continue;
    if (k.startsWith("$setElementOrder/")) continue;
    if (k.startsWith("$deleteFromPrimitiveList/")) {
      const field = k.slice("$deleteFromPrimitiveList/".length);
      if (Array.isArray(out[field]) && Array.isArray(v)) {
        out[field] = (out[field] as unknown[]).filter((x) => !v.some((y) => deepEqual(x, y)));
      }
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = out[k];
    if (Array.isArray(v)) {
      out[k] = mergeList(Array.isArray(cur) ? cur : [], v, k, keys);
    } else if (isObject(v)) {
      out[k] = mergeMap(isObject(cur) ? cur : {}, v, keys);
    } else {
      out[k] = v;
    }
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith("$setElementOrder/") || !Array.isArray(v)) continue;
    const field = k.slice("$setElementOrder/".length);
    if (Array.isArray(out[field])) out[field] = reorder(out[field] as unknown[], v, keys[field]);
  }
  if (Array.isArray(retain)) {
    const keep = new Set(retain as string[]);
    out = Object.fromEntries(Object.entries(out).filter(([k]) => keep.has(k)));
  }
  return out;
}

function mergeList(
  orig: unknown[],
  patch: unknown[],
  field: string,
  keys: Record<string, string>,
): unknown[] {
  const key = keys[field];
  if (key === undefined) {
    // No merge strategy: the list is replaced (directive items are dropped).
    return patch.filter((x) => !(isObject(x) && x.$patch !== undefined)).map((x) => deepClone(x));
  }
  if (patch.some((x) => isObject(x) && x.$patch === "replace")) {
    return patch.filter((x) => !(isObject(x) && x.$patch === "replace")).map((x) => deepClone(x));
  }
  if (key === "") {
    const out = [...orig];
    for (const x of patch) if (!out.some((y) => deepEqual(x, y))) out.push(deepClone(x));
    return out;
  }
  const out = orig.map((x) => deepClone(x));
  for (const item of patch) {
    if (!isObject(item)) {
      out.push(deepClone(item));
      continue;
    }
    const k = item[key];
    const idx = out.findIndex((x) => isObject(x) && deepEqual(x[key], k));
    if (item.$patch === "delete") {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeMap(out[idx] as JsonObject, item, keys);
    else {
      const added = mergeMap({}, item, keys);
      out.push(added);
    }
  }
  return out;
}

function reorder(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const id = (x: unknown) => (key && isObject(x) ? x[key] : x);
  const ordered: unknown[] = [];
  const rest = [...list];
  for (const o of order) {
    const want = key && isObject(o) ? o[key] : o;
    const idx = rest.findIndex((x) => deepEqual(id(x), want));
    if (idx >= 0) ordered.push(...rest.splice(idx, 1));
  }
  return [...ordered, ...rest];
}
