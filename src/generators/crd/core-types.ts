/**
 * Schemas of `@kubernetes/client-node` models (V1PodTemplateSpec, V1JobTemplateSpec,
 * V1Container ...) as controller-gen writes their Go originals, from a Kubernetes minor's catalog
 * of `@opgen/apimachinery` (the version profile's): list types and map keys, map and struct types (`atomic`), required
 * fields, formats (int32, int64, date-time, byte, int-or-string, Quantity) and defaults
 * (`protocol: TCP`, ...), all derived from the real API data.
 *
 * Two types are written as controller-gen writes them rather than expanded: an embedded
 * ObjectMeta is `type: object` (controller-gen expands it only with crd:generateEmbeddedObjectMeta),
 * and metav1.Condition carries the validations of its Go markers (the OpenAPI data has none).
 * Descriptions are the OpenAPI document's (each Go comment paragraph on one line) where
 * controller-gen keeps the Go comment's line breaks: docs/markers.md says so.
 */
import type { Catalog } from "@opgen/apimachinery/catalog";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { kubeVersion } from "@opgen/apimachinery/version";
import { cloneSchema, RUNTIME_TYPES } from "./known-types.js";
import type { CoreTypeProvider } from "./walker-base.js";

const REPLACED: Readonly<Record<string, JSONSchemaProps>> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": RUNTIME_TYPES.ObjectMeta!,
  "io.k8s.apimachinery.pkg.apis.meta.v1.Condition": RUNTIME_TYPES.Condition!,
};

/** controller-gen sorts `required` (byte order); the OpenAPI data keeps the Go field order. */
function sortRequired(schema: JSONSchemaProps): JSONSchemaProps {
  if (schema.required) schema.required.sort();
  for (const child of Object.values(schema.properties ?? {})) sortRequired(child);
  if (schema.items && !Array.isArray(schema.items)) sortRequired(schema.items as JSONSchemaProps);
  if (typeof schema.additionalProperties === "object") sortRequired(schema.additionalProperties);
  return schema;
}

/** The client-node models of a minor's catalog (the default profile's until projects pick one). */
export function catalogTypes(catalog: Catalog = kubeVersion().catalog): CoreTypeProvider {
  const cache = new Map<string, JSONSchemaProps | null>();
  return {
    minor: catalog.minor,
    schema(model) {
      let schema = cache.get(model);
      if (schema === undefined) {
        const name = catalog.definitionOfModel(model);
        schema = name
          ? sortRequired(
              catalog.expandSchema(name, {
                descriptions: true,
                replace: REPLACED,
                controllerGen: true,
              }),
            )
          : null;
        cache.set(model, schema);
      }
      return schema ? cloneSchema(schema) : undefined;
    },
  };
}
