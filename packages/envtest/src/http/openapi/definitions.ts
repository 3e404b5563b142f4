/**
 * The schemas the OpenAPI documents publish: built-in definitions rebuilt from the server's catalog
 * (its structural facts plus its descriptions, which is the upstream swagger definition again),
 * and each served custom resource version's schema named as kube-apiserver names it
 * (`com.example.v1.Widget`). Both documents (v2 and v3) render these with their own `$ref`
 * form; `refsOf` gives the closure a group-version document must carry.
 */
import type { Catalog } from "@opgen/apimachinery/catalog";
import type { Registry } from "../../api/registry.js";
import type { JsonObject, ResourceInfo } from "../../api/types.js";
import { isObject } from "../../api/types.js";

export const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const LIST_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
/** Any kind's definition: they all describe apiVersion and kind in the same words. */
const TYPE_META_OWNER = "io.k8s.api.core.v1.ConfigMap";

/** How a document writes a reference to a definition. */
export type RefStyle = (name: string) => string;

export interface PublishedSchema {
  name: string;
  /** The schema, `$ref`s written `{ $ref: <definition name> }` until rendered. */
  schema: JsonObject;
  gvk?: { group: string; version: string; kind: string };
  /** A custom resource's schema (structural, apiextensions v1), not a built-in definition. */
  custom?: true;
}

/** A catalog node as OpenAPI writes it: descriptions back in place, the catalog's own keys off. */
function builtinNode(catalog: Catalog, node: unknown, owner: string, property?: string): unknown {
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  if (property !== undefined) {
    const d = catalog.description(owner, property);
    if (d) out.description = d;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-opgen-")) continue;
    if (key === "properties" && isObject(value)) {
      const props: JsonObject = {};
      for (const [p, v] of Object.entries(value)) props[p] = builtinNode(catalog, v, owner, p);
      out.properties = props;
    } else if (key === "items" || key === "additionalProperties") {
      out[key] = builtinNode(catalog, value, owner);
    } else out[key] = value;
  }
  return out;
}

/** A built-in definition by name (`io.k8s.api.core.v1.Pod`), descriptions included. */
function builtinSchema(catalog: Catalog, name: string): JsonObject | undefined {
  const def = catalog.definition(name);
  if (!def) return undefined;
  const out = builtinNode(catalog, def, name) as JsonObject;
  const d = catalog.description(name);
  return d ? { description: d, ...out } : out;
}

/** The definition name kube-apiserver gives a custom resource: the group reversed. */
export function customDefinitionName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

function customSchemas(catalog: Catalog, info: ResourceInfo): PublishedSchema[] {
  const out: PublishedSchema[] = [];
  for (const v of info.versions) {
    if (!v.served || !v.schema) continue;
    const gvk = { group: info.group, version: v.name, kind: info.kind };
    const schema = structuredClone(v.schema) as JsonObject;
    const props = (isObject(schema.properties) ? schema.properties : {}) as JsonObject;
    // As kube-apiserver publishes a CRD: TypeMeta described as for every kind, metadata the
    // real ObjectMeta.
    schema.properties = {
      apiVersion: {
        description: catalog.description(TYPE_META_OWNER, "apiVersion"),
        type: "string",
      },
      kind: { description: catalog.description(TYPE_META_OWNER, "kind"), type: "string" },
      ...props,
      metadata: { $ref: OBJECT_META },
    };
    const name = customDefinitionName(info.group, v.name, info.kind);
    out.push({ name, schema, gvk, custom: true });
    out.push({
      name: `${name.slice(0, -info.kind.length)}${info.listKind}`,
      schema: {
        type: "object",
        required: ["items"],
        properties: {
          apiVersion: { type: "string" },
          items: { type: "array", items: { $ref: name } },
          kind: { type: "string" },
          metadata: { $ref: LIST_META },
        },
      },
      gvk: { ...gvk, kind: info.listKind },
      custom: true,
    });
  }
  return out;
}

/** Every schema a server with this registry publishes, by definition name. */
export function publishedSchemas(registry: Registry): Map<string, PublishedSchema> {
  const out = new Map<string, PublishedSchema>();
  const catalog = registry.kube.catalog;
  const add = (name: string) => {
    if (out.has(name)) return;
    const schema = builtinSchema(catalog, name);
    if (!schema) return;
    out.set(name, { name, schema });
    for (const ref of refsOf(schema)) add(ref);
  };
  for (const info of registry.all()) {
    if (info.custom) {
      for (const s of customSchemas(catalog, info)) {
        out.set(s.name, s);
        for (const ref of refsOf(s.schema)) add(ref);
      }
      continue;
    }
    for (const v of info.versions) {
      for (const kind of [info.kind, info.listKind]) {
        const name = catalog.definitionName({ group: info.group, version: v.name, kind });
        if (name) add(name);
      }
    }
  }
  return out;
}

/** The definitions a schema refers to, directly. */
export function refsOf(node: unknown, acc = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsOf(n, acc);
  else if (isObject(node)) {
    if (typeof node.$ref === "string") acc.add(node.$ref);
    for (const [k, v] of Object.entries(node))
      if (k !== "$ref" && typeof v === "object") refsOf(v, acc);
  }
  return acc;
}

/** The named schemas and everything they refer to, transitively. */
export function closure(all: Map<string, PublishedSchema>, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !all.has(name)) return;
    seen.add(name);
    for (const ref of refsOf(all.get(name)!.schema)) visit(ref);
  };
  for (const r of roots) visit(r);
  return [...seen].sort();
}

/** A schema with its `$ref`s rendered for a document. */
export function renderRefs(node: unknown, ref: RefStyle): unknown {
  if (Array.isArray(node)) return node.map((n) => renderRefs(n, ref));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === "$ref" && typeof v === "string" ? ref(v) : renderRefs(v, ref);
  return out;
}
