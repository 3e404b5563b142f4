/**
 * The JSON Patch (RFC 6902) a defaulting webhook answers with: the operations that turn the object
 * the API server sent into the defaulted one. Both sides are plain JSON (the defaulted object goes
 * through JSON once, so `undefined` fields vanish as they would on the wire), and the diff is of the
 * request's own object, so only what the defaulter changed is patched: no removals of fields a type
 * does not model, no additions of empty structs (the noise controller-runtime filters out after the
 * fact, §3.4 of the webhooks reference).
 *
 * Why fast-json-patch: its `compare` yields correct patches (checked in test/unit/webhook-patch.test.ts:
 * nested objects, arrays that grow, shrink or change, keys with `/` and `~`, type changes) with
 * no dependencies of its own; it is CommonJS, so it is reached through its default export.
 */
import fastJsonPatch from "fast-json-patch";

export interface JsonPatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  value?: unknown;
  from?: string;
}

/** The operations turning `original` into `current` (empty when they are equal). */
export function createJsonPatch(original: object, current: object): JsonPatchOperation[] {
  const after = JSON.parse(JSON.stringify(current)) as object;
  return fastJsonPatch.compare(original, after) as JsonPatchOperation[];
}
