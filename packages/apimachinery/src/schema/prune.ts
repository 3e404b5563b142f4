/**
 * Structural-schema pruning and null handling (apiextensions `schema/pruning` and
 * `PruneNonNullableNullsWithoutDefaults`): fields the schema does not declare are dropped unless
 * an enclosing node preserves unknown fields; the dropped paths are reported for
 * `fieldValidation` Warn/Strict.
 */
import { isObject, type JsonObject } from "./json.js";
import type { JSONSchemaProps } from "./types.js";

/** ObjectMeta's JSON fields: everything else under a root or embedded `metadata` is pruned. */
const objectMetaFields = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Prunes `value` in place against `schema`; returns the pruned field paths.
 * `root` marks the object root (apiVersion/kind/metadata implicit).
 */
export function prune(value: unknown, schema: JSONSchemaProps | undefined, root = true): string[] {
  const pruned: string[] = [];
  if (root && isObject(value)) {
    pruneMetadata(value, "", pruned);
    pruneObject(value, schema, "", pruned, new Set(["apiVersion", "kind", "metadata"]));
  } else {
    pruneValue(value, schema, "", pruned);
  }
  return pruned;
}

function pruneMetadata(obj: JsonObject, path: string, pruned: string[]): void {
  const meta = obj.metadata;
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!objectMetaFields.has(k)) {
      delete meta[k];
      pruned.push(join(join(path, "metadata"), k));
    }
  }
}

function pruneValue(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  path: string,
  pruned: string[],
): void {
  if (!schema) return;
  if (isObject(value)) {
    if (schema["x-kubernetes-embedded-resource"]) {
      pruneMetadata(value, path, pruned);
      pruneObject(value, schema, path, pruned, new Set(["apiVersion", "kind", "metadata"]));
    } else {
      pruneObject(value, schema, path, pruned, new Set());
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      pruneValue(item, schema.items, `${path}[${i}]`, pruned);
    });
  }
}

function pruneObject(
  obj: JsonObject,
  schema: JSONSchemaProps | undefined,
  path: string,
  pruned: string[],
  implicit: Set<string>,
): void {
  if (!schema) return;
  const props = schema.properties;
  const additional = schema.additionalProperties;
  const preserve = schema["x-kubernetes-preserve-unknown-fields"] === true;
  for (const key of Object.keys(obj)) {
    // apiVersion/kind/metadata of a root or embedded object are typed by ObjectMeta, not the schema.
    if (implicit.has(key)) continue;
    const child = props?.[key];
    if (child) {
      pruneValue(obj[key], child, join(path, key), pruned);
    } else if (isObject(additional)) {
      pruneValue(obj[key], additional, join(path, key), pruned);
    } else if (preserve || additional === true) {
      // Kept as is: no schema to recurse with.
    } else {
      delete obj[key];
      pruned.push(join(path, key));
    }
  }
}

/** Drops explicit nulls of non-nullable fields that have no default (before defaulting). */
export function dropNonNullableNulls(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const child =
        schema.properties?.[key] ??
        (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (!child) continue;
      if (value[key] === null) {
        if (!child.nullable && child.default === undefined) delete value[key];
      } else {
        dropNonNullableNulls(value[key], child);
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) dropNonNullableNulls(item, schema.items);
  }
}
