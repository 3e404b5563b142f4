/**
 * A custom resource judged against its CRD version's structural schema as kube-apiserver judges
 * a create: unknown fields pruned (and named, as `kubectl apply --validate=strict` refuses them),
 * non-nullable nulls dropped, defaults applied, then the body validated by the OpenAPI schema and,
 * when that passes, by the `x-kubernetes-validations` CEL rules (upstream runs CEL only on
 * schema-valid objects). Metadata is validated as ObjectMeta elsewhere, not by the schema.
 */
import { applyDefaults } from "../schema/defaults.js";
import { deepClone, type JsonObject } from "../schema/json.js";
import { dropNonNullableNulls, prune } from "../schema/prune.js";
import type { JSONSchemaProps } from "../schema/types.js";
import { validateSchema } from "../schema/validate.js";
import type { FieldError } from "../status/index.js";
import { validateCel } from "./cel.js";

/** The schema errors of an object's body: everything but metadata, apiVersion and kind. */
export function customResourceBodyErrors(obj: JsonObject, schema: JSONSchemaProps): FieldError[] {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  const bodySchema: JSONSchemaProps = { ...schema, properties: { ...(schema.properties ?? {}) } };
  delete bodySchema.properties!.metadata;
  delete bodySchema.properties!.apiVersion;
  delete bodySchema.properties!.kind;
  bodySchema.required = (schema.required ?? []).filter(
    (r) => r !== "metadata" && r !== "apiVersion" && r !== "kind",
  );
  return validateSchema(rest, bodySchema, "");
}

export interface CustomResourceProblems {
  /** Paths of fields the schema does not know (`spec.foo`), as strict decoding names them. */
  unknownFields: string[];
  /** Schema and CEL errors of the pruned, defaulted object. */
  errors: FieldError[];
}

/** What creating `obj` would be refused for; `obj` itself is left untouched. */
export function validateCustomResource(
  obj: JsonObject,
  schema: JSONSchemaProps,
): CustomResourceProblems {
  const copy = deepClone(obj);
  const unknownFields = prune(copy, schema, true);
  dropNonNullableNulls(copy, schema);
  applyDefaults(copy, schema);
  const errors = customResourceBodyErrors(copy, schema);
  if (errors.length === 0) errors.push(...validateCel(copy, undefined, schema, false).errors);
  return { unknownFields, errors };
}
