/**
 * Schemas of `@kubernetes/client-node` models (V1PodTemplateSpec, V1JobTemplateSpec,
 * V1ResourceRequirements ...), expanded the way controller-gen expands their Go originals.
 *
 * Source of truth: the models client-node ships, read without loading the library: each
 * `dist/gen/models/<Name>.d.ts` gives the fields, which are optional and their docs; the
 * `attributeTypeMap` in `<Name>.js` gives each field's JSON name, type and format (int32, int64,
 * date-time, byte, int-or-string). Both are generated from the Kubernetes OpenAPI document.
 *
 * What that source lacks, and so where the schema differs from controller-gen's (see
 * docs/markers.md): the Go markers of core types (`+listType`, `+listMapKey`, `+structType`,
 * `+default`, `+enum`) have no trace in client-node, so `x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys`, `x-kubernetes-map-type` and defaults such as `protocol: TCP` are
 * absent; descriptions are the OpenAPI ones (one paragraph per line) rather than the Go comments
 * line by line. resource.Quantity fields are typed `string` in client-node; the known ones
 * (QUANTITY_FIELDS) get controller-gen's Quantity schema back.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { ProjectSources } from "../../source/project-sources.js";
import { cloneSchema, RUNTIME_TYPES } from "./known-types.js";
import type { CoreTypeProvider } from "./walker-base.js";

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

/** Fields whose Go type is resource.Quantity (or a map of them), typed `string` in client-node. */
const QUANTITY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  V1ResourceRequirements: ["limits", "requests"],
  V1VolumeResourceRequirements: ["limits", "requests"],
  V1EmptyDirVolumeSource: ["sizeLimit"],
  V1PodSpec: ["overhead"],
  V1ResourceQuotaSpec: ["hard"],
  V1ResourceQuotaStatus: ["hard", "used"],
  V1NodeStatus: ["allocatable", "capacity"],
  V1PersistentVolumeSpec: ["capacity"],
  V1PersistentVolumeClaimStatus: ["allocatedResources", "capacity"],
  V1LimitRangeItem: ["default", "defaultRequest", "max", "maxLimitRequestRatio", "min"],
  V1ContainerStatus: ["allocatedResources"],
  V1ResourceFieldSelector: ["divisor"],
};

/** Models controller-gen does not expand. */
const OPAQUE: Readonly<Record<string, JSONSchemaProps>> = {
  // Embedded ObjectMeta is `type: object` unless crd:generateEmbeddedObjectMeta is set.
  V1ObjectMeta: { type: "object" },
};

function modelsDir(projectDir: string): string | undefined {
  for (const from of [join(projectDir, "package.json"), import.meta.url]) {
    try {
      const main = createRequire(from).resolve("@kubernetes/client-node");
      const dir = join(dirname(main), "gen", "models");
      if (existsSync(dir)) return dir;
    } catch {
      // Not installed from there; try the next place.
    }
  }
  return undefined;
}

function unescapeDoc(text: string): string {
  return text.replace(/\\(['"\\])/g, "$1");
}

export function clientNodeTypes(sources: ProjectSources): CoreTypeProvider {
  const dir = modelsDir(sources.projectDir);
  const cache = new Map<string, JSONSchemaProps | null>();
  const inProgress = new Set<string>();
  const t = sources.ts;

  function model(name: string): JSONSchemaProps | undefined {
    if (OPAQUE[name]) return cloneSchema(OPAQUE[name]);
    const cached = cache.get(name);
    if (cached !== undefined) return cached ? cloneSchema(cached) : undefined;
    if (!dir || !/^[A-Za-z0-9]+$/.test(name)) return undefined;
    const js = join(dir, `${name}.js`);
    const dts = join(dir, `${name}.d.ts`);
    if (!existsSync(js) || !existsSync(dts)) {
      cache.set(name, null);
      return undefined;
    }
    if (inProgress.has(name)) {
      // A recursive model (JSONSchemaProps): controller-gen cannot express it either.
      return { type: "object", "x-kubernetes-preserve-unknown-fields": true };
    }
    inProgress.add(name);
    const match = /\.attributeTypeMap = (\[[\s\S]*?\n\]);/.exec(readFileSync(js, "utf8"));
    const attributes = match ? (JSON.parse(match[1]!) as Attribute[]) : [];
    const file = sources.file(dts)!;
    const cls = file.sf.statements.find((s) => t.isClassDeclaration(s) && s.name?.text === name) as
      | import("ts-morph").ts.ClassDeclaration
      | undefined;
    const docs = new Map<string, { doc: string; optional: boolean }>();
    for (const m of cls?.members ?? []) {
      if (!t.isPropertyDeclaration(m) || !(t.isStringLiteral(m.name) || t.isIdentifier(m.name)))
        continue;
      if (m.modifiers?.some((x) => x.kind === t.SyntaxKind.StaticKeyword)) continue;
      docs.set(m.name.text, {
        doc: unescapeDoc(sources.jsDoc(file, m)?.description ?? ""),
        optional: !!m.questionToken,
      });
    }
    const properties: Record<string, JSONSchemaProps> = {};
    const required: string[] = [];
    const quantities = QUANTITY_FIELDS[name] ?? [];
    for (const a of attributes) {
      let schema = quantities.includes(a.name)
        ? quantitySchema(a.type)
        : typeSchema(a.type, a.format);
      if (!schema) schema = { "x-kubernetes-preserve-unknown-fields": true };
      const info = docs.get(a.name);
      if (info?.doc) schema.description = info.doc;
      properties[a.baseName] = schema;
      if (info && !info.optional) required.push(a.baseName);
    }
    const out: JSONSchemaProps = { type: "object" };
    const classDoc = cls ? unescapeDoc(sources.jsDoc(file, cls)?.description ?? "") : "";
    if (classDoc) out.description = classDoc;
    if (Object.keys(properties).length) out.properties = properties;
    if (required.length) out.required = required.sort();
    inProgress.delete(name);
    cache.set(name, out);
    return cloneSchema(out);
  }

  function quantitySchema(type: string): JSONSchemaProps {
    const q = cloneSchema(RUNTIME_TYPES.Quantity!);
    return type.startsWith("{") ? { type: "object", additionalProperties: q } : q;
  }

  function typeSchema(type: string, format: string): JSONSchemaProps | undefined {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) {
      const items = typeSchema(array[1]!, format);
      return items && { type: "array", items };
    }
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) {
      const value = typeSchema(map[1]!, format);
      return value && { type: "object", additionalProperties: value };
    }
    switch (type) {
      case "string":
        return format === "byte" ? { type: "string", format: "byte" } : { type: "string" };
      case "boolean":
        return { type: "boolean" };
      case "number":
        if (format === "int32" || format === "int64") return { type: "integer", format };
        return { type: "number" };
      case "Date":
        return { type: "string", format: "date-time" };
      case "IntOrString":
        return cloneSchema(RUNTIME_TYPES.IntOrString!);
      case "any":
      case "object":
        return { "x-kubernetes-preserve-unknown-fields": true };
      default:
        return model(type);
    }
  }

  return { schema: model };
}
