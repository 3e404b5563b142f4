/**
 * Validation ratcheting (the `CRDValidationRatcheting` feature gate, which the server's version
 * profile says is on or off; the custom resource strategy asks it): on update, errors
 * about a value that the update did not change are dropped, so objects stored before a schema
 * or rule got stricter can still be updated elsewhere (status writes, labels, other fields).
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { deepEqual, isObject } from "../api/types.js";

/** The value at a field path like `spec.items[2].name` (undefined when absent). */
export function valueAtFieldPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[1] !== undefined) cur = isObject(cur) ? cur[m[1]] : undefined;
    else cur = Array.isArray(cur) ? cur[Number(m[2])] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Keeps only the errors whose value changed from `old` to `next`. */
export function ratchet(errs: FieldError[], next: unknown, old: unknown): FieldError[] {
  return errs.filter((e) => {
    if (!e.field) return true;
    // A required field's parent decides: if the parent object is unchanged, so is the absence.
    const path =
      e.type === "FieldValueRequired" ? e.field.replace(/(\.[^.[\]]+|\[\d+\])$/, "") : e.field;
    return !deepEqual(valueAtFieldPath(next, path), valueAtFieldPath(old, path));
  });
}
