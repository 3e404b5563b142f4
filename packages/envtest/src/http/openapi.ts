/**
 * A minimal OpenAPI v3 synthesized from the registry: one document per group version with a
 * PATCH operation per kind that declares `fieldValidation`, which is what kubectl's query-param
 * verifier looks for before `apply`/`create -f` with default validation. Deliberately no
 * strategic-merge request bodies and no component schemas (see apiserver-spec §2.5): kubectl
 * then builds client-side apply patches from its compiled-in types, as against real clusters.
 * Custom resources' schemas are included as components, for `kubectl explain`.
 */
import { createHash } from "node:crypto";
import type { Registry } from "../api/registry.js";
import type { JsonObject } from "../api/types.js";

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openApiRoot(registry: Registry): JsonObject {
  const paths: JsonObject = {};
  for (const g of registry.groups()) {
    for (const v of g.versions) {
      const p = gvPath(g.name, v);
      const hash = createHash("sha256")
        .update(JSON.stringify(openApiGroupVersion(registry, g.name, v)))
        .digest("hex")
        .slice(0, 32)
        .toUpperCase();
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` };
    }
  }
  return { paths };
}

export function openApiGroupVersion(
  registry: Registry,
  group: string,
  version: string,
): JsonObject | undefined {
  const entries = registry.resourcesIn(group, version);
  if (entries.length === 0) return undefined;
  const paths: JsonObject = {};
  const schemas: JsonObject = {};
  const prefix = `/${gvPath(group, version)}`;
  for (const { info, version: v } of entries) {
    if (info.custom && v.schema) {
      // CRD schemas let `kubectl explain` describe custom resources; no request bodies are
      // declared, so kubectl keeps building client-side apply patches as JSON merge patches.
      const reversed = group.split(".").reverse().join(".");
      schemas[`${reversed}.${version}.${info.kind}`] = {
        ...v.schema,
        "x-kubernetes-group-version-kind": [{ group, kind: info.kind, version }],
      };
    }
    const path = info.namespaced
      ? `${prefix}/namespaces/{namespace}/${info.resource}/{name}`
      : `${prefix}/${info.resource}/{name}`;
    paths[path] = {
      patch: {
        "x-kubernetes-action": "patch",
        "x-kubernetes-group-version-kind": { group, version, kind: info.kind },
        parameters: [
          { name: "dryRun", in: "query", schema: { type: "string", uniqueItems: true } },
          { name: "fieldManager", in: "query", schema: { type: "string", uniqueItems: true } },
          { name: "fieldValidation", in: "query", schema: { type: "string", uniqueItems: true } },
          { name: "force", in: "query", schema: { type: "boolean", uniqueItems: true } },
        ],
        responses: { "200": { description: "OK" } },
      },
    };
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: "v1.32.0" },
    paths,
    ...(Object.keys(schemas).length ? { components: { schemas } } : {}),
  };
}
