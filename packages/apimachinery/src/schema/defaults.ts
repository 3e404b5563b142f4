/**
 * Structural-schema defaulting (apiextensions `schema/defaulting/algorithm.go`): a property's
 * default applies only when its parent object exists and the property is absent, or null while
 * not nullable; defaults are deep-copied; list items and map values are defaulted per element.
 */
import { deepClone, isObject } from "./json.js";
import type { JSONSchemaProps } from "./types.js";

export function applyDefaults(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (isObject(value)) {
    const props = schema.properties ?? {};
    for (const [key, child] of Object.entries(props)) {
      if (child.default === undefined) continue;
      const cur = value[key];
      if (cur === undefined || (cur === null && !child.nullable))
        value[key] = deepClone(child.default);
    }
    for (const key of Object.keys(value)) {
      const child =
        props[key] ??
        (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (child) applyDefaults(value[key], child);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) applyDefaults(item, schema.items);
  }
}
