/**
 * OpenAPI v3 as kube-apiserver serves it: `/openapi/v3` lists one document per group version
 * with a hash, and each document carries a PATCH operation per kind declaring `fieldValidation`
 * (what kubectl's query-param verifier looks for before `apply`/`create -f`) and, under
 * `components.schemas`, the kinds' schemas and everything they refer to (what `kubectl explain`
 * reads). No strategic-merge request bodies are declared, so kubectl's client-side apply builds
 * its patches from the v2 document or its compiled-in types, as it does against a cluster.
 */
import { createHash } from "node:crypto";
import type { Registry } from "../../api/registry.js";
import { isObject, type JsonObject } from "../../api/types.js";
import { closure, customDefinitionName, type PublishedSchema, renderRefs } from "./definitions.js";
import { patchParameters } from "./paths.js";

const ref = (name: string) => `#/components/schemas/${name}`;

/**
 * The two apimachinery types that describe themselves differently to OpenAPI v3
 * (`OpenAPIV3OneOfTypes()` in k8s.io/apimachinery: intstr.IntOrString, resource.Quantity): a
 * `oneOf` of their JSON types instead of v2's `type: string`.
 */
const V3_ONE_OF: Record<string, string[]> = {
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": ["integer", "string"],
  "io.k8s.apimachinery.pkg.api.resource.Quantity": ["string", "number"],
};

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/**
 * kube-openapi's v3 form: a `$ref` with siblings (a description, a default) is wrapped in
 * `allOf`, since OpenAPI 3.0 ignores a reference's siblings.
 */
function wrapRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(wrapRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = wrapRefs(v);
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { ...rest, allOf: [{ $ref }] };
  }
  return out;
}

/** The definition names a group version's kinds publish. */
function rootsOf(registry: Registry, group: string, version: string): string[] {
  const out: string[] = [];
  for (const { info } of registry.resourcesIn(group, version)) {
    for (const kind of [info.kind, info.listKind]) {
      const name = info.custom
        ? customDefinitionName(group, version, kind)
        : registry.kube.catalog.definitionName({ group, version, kind });
      if (name) out.push(name);
    }
  }
  return out;
}

/** What the document depends on, cheaply: its hash changes exactly when the document does. */
function fingerprint(registry: Registry, group: string, version: string): string {
  const h = createHash("sha512");
  for (const { info, version: v } of registry.resourcesIn(group, version)) {
    h.update(`${info.resource}\0${info.kind}\0${info.namespaced}\0`);
    if (info.custom) h.update(JSON.stringify(v.schema ?? null));
  }
  return h.digest("hex").slice(0, 128).toUpperCase();
}

export function openApiRoot(registry: Registry): JsonObject {
  const paths: JsonObject = {};
  for (const g of registry.groups()) {
    for (const v of g.versions) {
      const p = gvPath(g.name, v);
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${fingerprint(registry, g.name, v)}` };
    }
  }
  return { paths };
}

export function openApiGroupVersion(
  registry: Registry,
  schemas: Map<string, PublishedSchema>,
  group: string,
  version: string,
): JsonObject | undefined {
  const entries = registry.resourcesIn(group, version);
  if (entries.length === 0) return undefined;
  const paths: JsonObject = {};
  const prefix = `/${gvPath(group, version)}`;
  for (const { info } of entries) {
    const path = info.namespaced
      ? `${prefix}/namespaces/{namespace}/${info.resource}/{name}`
      : `${prefix}/${info.resource}/{name}`;
    paths[path] = {
      patch: {
        "x-kubernetes-action": "patch",
        "x-kubernetes-group-version-kind": { group, version, kind: info.kind },
        parameters: patchParameters().map(({ name, type }) => ({
          name,
          in: "query",
          schema: { type, uniqueItems: true },
        })),
        responses: { "200": { description: "OK" } },
      },
    };
  }
  const components: JsonObject = {};
  for (const name of closure(schemas, rootsOf(registry, group, version))) {
    const s = schemas.get(name)!;
    const schema = wrapRefs(renderRefs(s.schema, ref)) as JsonObject;
    const oneOf = V3_ONE_OF[name];
    if (oneOf) {
      delete schema.type;
      schema.oneOf = oneOf.map((type) => ({ type }));
    }
    if (s.gvk) schema["x-kubernetes-group-version-kind"] = [s.gvk];
    components[name] = schema;
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: registry.kube.info.gitVersion },
    paths,
    components: { schemas: components },
  };
}
