/** RFC 7386 JSON merge patch: objects merge recursively, null deletes, everything else replaces. */
import { deepClone, isObject } from "../api/types.js";

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return deepClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
