/**
 * Strategic merge patch (k8s.io/apimachinery `pkg/util/strategicpatch`) driven by the schema:
 * lists whose field has the `merge` patch strategy merge item by item on their merge key (or, for
 * primitive lists such as finalizers, as a set union); other lists and atomic maps are replaced;
 * the directives `$patch` (replace/delete/merge), `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` apply. Own code: no maintained JavaScript library implements
 * strategic merge semantics.
 */
import { deepClone, deepEqual, isObject, type JsonObject } from "../schema/json.js";
import { errors } from "../status/errors.js";
import type { MergeNode } from "./navigator.js";

/** Applies a strategic merge patch to `original` (not modified) under `node`'s schema. */
export function applyStrategicMergePatch(
  original: unknown,
  patch: JsonObject,
  node: MergeNode | undefined,
): JsonObject {
  return mergeMap(isObject(original) ? deepClone(original) : {}, patch, node);
}

function mergeMap(orig: JsonObject, patch: JsonObject, node: MergeNode | undefined): JsonObject {
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
    // A property of a struct, or a value of a map (`labels`, `resources.limits`).
    const child = node?.field(k) ?? node?.items();
    if (Array.isArray(v)) {
      out[k] = mergeList(Array.isArray(cur) ? cur : [], v, child);
    } else if (isObject(v)) {
      out[k] =
        child?.mapType === "atomic" || child?.patchStrategies.includes("replace")
          ? stripDirectives(v)
          : mergeMap(isObject(cur) ? cur : {}, v, child);
    } else {
      out[k] = v;
    }
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith("$setElementOrder/") || !Array.isArray(v)) continue;
    const field = k.slice("$setElementOrder/".length);
    if (Array.isArray(out[field])) {
      out[field] = reorder(out[field] as unknown[], v, node?.field(field)?.patchMergeKey);
    }
  }
  if (Array.isArray(retain)) {
    const keep = new Set(retain as string[]);
    out = Object.fromEntries(Object.entries(out).filter(([k]) => keep.has(k)));
  }
  return out;
}

function stripDirectives(v: JsonObject): JsonObject {
  const out = deepClone(v);
  delete out.$patch;
  return out;
}

function mergeList(orig: unknown[], patch: unknown[], node: MergeNode | undefined): unknown[] {
  if (!node?.patchStrategies.includes("merge")) {
    // No merge strategy: the list is replaced (directive items are dropped).
    return patch.filter((x) => !(isObject(x) && x.$patch !== undefined)).map((x) => deepClone(x));
  }
  if (patch.some((x) => isObject(x) && x.$patch === "replace")) {
    return patch.filter((x) => !(isObject(x) && x.$patch === "replace")).map((x) => deepClone(x));
  }
  const key = node.patchMergeKey;
  if (key === undefined) {
    // A primitive list with the merge strategy (finalizers): a set union.
    const out = [...orig];
    for (const x of patch) if (!out.some((y) => deepEqual(x, y))) out.push(deepClone(x));
    return out;
  }
  const items = node.items();
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
    if (idx >= 0) out[idx] = mergeMap(out[idx] as JsonObject, item, items);
    else out.push(mergeMap({}, item, items));
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
