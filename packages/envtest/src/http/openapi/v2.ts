/**
 * `/openapi/v2` as kube-apiserver serves it: one Swagger 2.0 document with every built-in
 * definition of the served kinds (rebuilt from the catalog: the upstream definitions) and every
 * served custom resource version, plus a PATCH operation per kind declaring `fieldValidation`.
 * kubectl reads it for client-side validation (`apply -f` of a `kind: List`) and strategic-merge
 * patch metadata; it asks for protobuf (see gnostic.ts).
 */

import type { Registry } from "../../api/registry.js";
import { isObject, type JsonObject } from "../../api/types.js";
import { customDefinitionName, type PublishedSchema, renderRefs } from "./definitions.js";
import { patchParameters } from "./paths.js";

const ref = (name: string) => `#/definitions/${name}`;

/**
 * OpenAPI v2 cannot say what structural schemas can (nullable, int-or-string, the logical
 * combinators), so kube-apiserver publishes CRD schemas without them, and without defaults and
 * CEL rules, which v2 clients would not understand. Built-in definitions lose only the
 * `+default` values the catalog merged in: the v2 document never carried them.
 */
const CUSTOM_ONLY_V3 = ["nullable", "oneOf", "anyOf", "not", "allOf", "x-kubernetes-validations"];

function toV2(node: unknown, custom: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => toV2(n, custom));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "default" || (custom && CUSTOM_ONLY_V3.includes(k))) continue;
    if (k === "properties" && isObject(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toV2(s, custom)]));
    } else out[k] = k === "items" || k === "additionalProperties" ? toV2(v, custom) : v;
  }
  if (custom && (node.nullable === true || node["x-kubernetes-int-or-string"] === true))
    delete out.type;
  return out;
}

export function openApiV2(registry: Registry, schemas: Map<string, PublishedSchema>): JsonObject {
  const paths: JsonObject = {};
  for (const info of registry.all()) {
    for (const v of info.versions) {
      if (!v.served) continue;
      const prefix = info.group ? `/apis/${info.group}/${v.name}` : `/api/${v.name}`;
      const path = info.namespaced
        ? `${prefix}/namespaces/{namespace}/${info.resource}/{name}`
        : `${prefix}/${info.resource}/{name}`;
      const def = info.custom
        ? customDefinitionName(info.group, v.name, info.kind)
        : registry.kube.catalog.definitionName({
            group: info.group,
            version: v.name,
            kind: info.kind,
          });
      paths[path] = {
        patch: {
          consumes: [
            "application/json-patch+json",
            "application/merge-patch+json",
            ...(info.custom ? [] : ["application/strategic-merge-patch+json"]),
            "application/apply-patch+yaml",
          ],
          description: `partially update the specified ${info.kind}`,
          parameters: patchParameters().map(({ name, type }) => ({
            in: "query",
            name,
            type,
            uniqueItems: true,
          })),
          produces: ["application/json", "application/yaml"],
          responses: {
            "200": { description: "OK", ...(def ? { schema: { $ref: ref(def) } } : {}) },
          },
          schemes: ["https"],
          "x-kubernetes-action": "patch",
          "x-kubernetes-group-version-kind": {
            group: info.group,
            kind: info.kind,
            version: v.name,
          },
        },
        parameters: [
          {
            description: `name of the ${info.kind}`,
            in: "path",
            name: "name",
            required: true,
            type: "string",
            uniqueItems: true,
          },
        ],
      };
    }
  }
  const definitions: JsonObject = {};
  for (const name of [...schemas.keys()].sort()) {
    const s = schemas.get(name)!;
    const schema = renderRefs(toV2(s.schema, s.custom === true), ref) as JsonObject;
    if (s.gvk) schema["x-kubernetes-group-version-kind"] = [s.gvk];
    definitions[name] = schema;
  }
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: registry.kube.info.gitVersion },
    paths,
    definitions,
    securityDefinitions: {
      BearerToken: {
        description: "Bearer Token authentication",
        in: "header",
        name: "authorization",
        type: "apiKey",
      },
    },
    security: [{ BearerToken: [] }],
  };
}
