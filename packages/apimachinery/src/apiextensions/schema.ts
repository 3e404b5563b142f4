/**
 * A CRD version's `openAPIV3Schema` as apiextensions validates it (`validation.go`
 * ValidateCustomResourceDefinitionOpenAPISchema, the structural-schema rules and
 * `validateStructuralDefaults`): types known and present, list-map keys required or defaulted,
 * defaults pruned and valid against their own node, and the expressions each node carries
 * (expressions.ts).
 */

import { deepClone, deepEqual, isObject } from "../schema/json.js";
import { prune } from "../schema/prune.js";
import type { JSONSchemaProps as Schema } from "../schema/types.js";
import { validateSchema } from "../schema/validate.js";
import type { FieldError } from "../status/index.js";
import { schemaExpressionErrors } from "./expressions.js";
import type { RuleChecks } from "./types.js";

// The JSON schema types a CRD may declare (apiextensions validation's openapiTypes).
const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];

/**
 * Structural-schema rules, plus the checks on defaults (`apiext: validation.go
 * validateStructuralDefaults`): a default must be valid against its own node's schema once
 * pruned, and list-map keys must be required or defaulted. `dataPath` is the node's path in
 * objects (`spec.replicas`), used in the default's validation message.
 */
export function schemaStructuralErrors(
  s: Schema,
  path: string,
  errs: FieldError[],
  root: boolean,
  rules: RuleChecks | undefined,
  dataPath = "",
): void {
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
  if (!s.type && !intOrString && !preserve && !root) {
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.type`,
      detail: "must not be empty for specified object fields",
    });
  }
  if (root && s.type !== "object") {
    errs.push({
      type: "FieldValueInvalid",
      field: `${path}.type`,
      value: s.type ?? "",
      detail: "must be object at the root",
    });
  }
  if (s.type !== undefined && !OPENAPI_TYPES.includes(s.type)) {
    errs.push({
      type: "FieldValueNotSupported",
      field: `${path}.type`,
      value: s.type,
      detail: `supported values: ${OPENAPI_TYPES.map((t) => JSON.stringify(t)).join(", ")}`,
    });
  }
  errs.push(...schemaExpressionErrors(s, path, root, rules));
  if (s.type === "array" && !s.items) {
    errs.push({ type: "FieldValueRequired", field: `${path}.items`, detail: "must be specified" });
  }
  if (s.properties && isObject(s.additionalProperties)) {
    errs.push({
      type: "FieldValueForbidden",
      field: `${path}.additionalProperties`,
      detail: "additionalProperties and properties are mutual exclusive",
    });
  }
  if (s["x-kubernetes-list-type"] === "map" && !s["x-kubernetes-list-map-keys"]?.length) {
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.x-kubernetes-list-map-keys`,
      detail: "must not be empty if x-kubernetes-list-type is map",
    });
  }
  if (s["x-kubernetes-list-type"] === "map" && isObject(s.items)) {
    const item = s.items as Schema;
    for (const key of s["x-kubernetes-list-map-keys"] ?? []) {
      const prop = item.properties?.[key];
      if (!prop) {
        errs.push({
          type: "FieldValueRequired",
          field: `${path}.items.properties[${key}]`,
          detail:
            "entries in x-kubernetes-list-map-keys must correspond to required or defaulted properties",
        });
      } else if (!(item.required ?? []).includes(key) && prop.default === undefined) {
        errs.push({
          type: "FieldValueRequired",
          field: `${path}.items.properties[${key}]`,
          detail:
            "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        });
      }
    }
  }
  if (s.default !== undefined && !root) {
    const value = deepClone(s.default);
    if (isObject(value)) prune(value, s, false);
    if (!deepEqual(value, s.default)) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${path}.default`,
        value: s.default,
        detail: "must not have unknown fields",
      });
    } else {
      for (const e of validateSchema(value, s, dataPath)) {
        errs.push({ ...e, field: `${path}.default` });
      }
    }
  }
  for (const [k, child] of Object.entries(s.properties ?? {})) {
    if (isObject(child)) {
      schemaStructuralErrors(
        child as Schema,
        `${path}.properties[${k}]`,
        errs,
        false,
        rules,
        dataPath ? `${dataPath}.${k}` : k,
      );
    }
  }
  if (isObject(s.additionalProperties)) {
    schemaStructuralErrors(
      s.additionalProperties,
      `${path}.additionalProperties`,
      errs,
      false,
      rules,
      `${dataPath}[*]`,
    );
  }
  if (isObject(s.items))
    schemaStructuralErrors(
      s.items as Schema,
      `${path}.items`,
      errs,
      false,
      rules,
      `${dataPath}[*]`,
    );
}
