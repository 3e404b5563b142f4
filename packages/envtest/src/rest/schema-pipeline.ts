/**
 * The custom-resource decode pipeline of apiextensions' `unstructuredSchemaCoercer` and
 * `customresource/strategy.go`: prune unknown fields (honouring `fieldValidation`), drop
 * non-nullable nulls, apply defaults, then validate against the version's structural schema.
 * Also the read side: objects are served in the requested version with that version's defaults.
 */

import {
  applyDefaults,
  dropNonNullableNulls,
  prune,
  validateSchema,
} from "@opgen/apimachinery/schema";
import { errors, type FieldError } from "@opgen/apimachinery/status";
import { customResourceBodyErrors } from "@opgen/apimachinery/validation";
import {
  deepClone,
  groupVersion,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
  type Schema,
  storageVersion,
} from "../api/types.js";
import { builtinTypeError, canonicalizeValues } from "./builtin-types.js";

export type FieldValidation = "Strict" | "Warn" | "Ignore";

export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get("fieldValidation");
  if (v === null || v === "") return "Warn";
  if (v === "Strict" || v === "Warn" || v === "Ignore") return v;
  throw errors.badRequest(
    `fieldValidation parameter unsupported: ${v}, supported values are: Ignore, Warn, Strict`,
  );
}

/**
 * Prunes, defaults and returns the schema errors of a custom resource about to be written.
 * Unknown fields are warned about or rejected per `fieldValidation`. `keepNulls`: the object was
 * not decoded (server-side apply's result), so non-nullable nulls stay for validation.
 */
export function coerceCustomResource(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  obj: KubeObject,
  fieldValidation: FieldValidation,
  warnings: string[],
  duplicates: readonly string[] = [],
  keepNulls = false,
): void {
  const schema = version.schema;
  if (!schema) return;
  reportUnknown(info, version, prune(obj, schema, true), duplicates, fieldValidation, warnings);
  if (!keepNulls) dropNonNullableNulls(obj, schema);
  applyDefaults(obj, schema);
}

interface BuiltinDecoding {
  /** The catalog definition, e.g. `io.k8s.api.apps.v1.Deployment`. */
  definition: string;
  /** Its structural schema, expanded. */
  schema: Schema;
  /** The paths of `schema` that hold `+default` values, when any do. */
  defaults?: Schema;
}

const builtinDecodings = new WeakMap<ResourceVersionInfo, BuiltinDecoding | null>();

/**
 * What decoding a built-in kind's version needs from the serving minor's catalog, worked out once
 * per version; undefined for a kind the catalog has no definition of.
 */
function builtinDecoding(
  info: ResourceInfo,
  version: ResourceVersionInfo,
): BuiltinDecoding | undefined {
  let d = builtinDecodings.get(version);
  if (d === undefined) {
    const catalog = info.kube.catalog;
    const name = catalog.definitionName({
      group: info.group,
      version: version.name,
      kind: info.kind,
    });
    if (name) {
      const schema = catalog.expandSchema(name) as Schema;
      const defaults = defaultSkeleton(schema);
      d = { definition: name, schema, ...(defaults ? { defaults } : {}) };
    } else d = null;
    builtinDecodings.set(version, d);
  }
  return d ?? undefined;
}

/**
 * The part of a built-in schema that leads to `+default` values of the 1.32 catalog (a
 * container port's protocol, a volume source's fsType), for applyDefaults to walk only there.
 * Empty-string defaults are left out: most mark value fields whose "" Go's omitempty hides.
 */
function defaultSkeleton(node: Schema | undefined): Schema | undefined {
  if (!node) return undefined;
  const out: Schema = {};
  if (node.default !== undefined && node.default !== "") out.default = node.default;
  if (node.properties) {
    const props: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(node.properties)) {
      const sub = defaultSkeleton(v);
      if (sub) props[k] = sub;
    }
    if (Object.keys(props).length) out.properties = props;
  }
  const items = defaultSkeleton(node.items as Schema | undefined);
  if (items) out.items = items;
  if (typeof node.additionalProperties === "object") {
    const ap = defaultSkeleton(node.additionalProperties as Schema);
    if (ap) out.additionalProperties = ap;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Decodes a built-in object as kube-apiserver's strict decoder does, with the catalog's
 * defaults applied: fields the kind's schema
 * does not have are an error with `fieldValidation=Strict` (kubectl's default), a warning with
 * Warn, and dropped either way unless the request fails.
 */
export function decodeBuiltin(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  obj: KubeObject,
  fieldValidation: FieldValidation,
  warnings: string[],
  duplicates: readonly string[] = [],
  noEmpties = false,
): void {
  const decoding = builtinDecoding(info, version);
  if (!decoding) return;
  const { schema } = decoding;
  const typeError = builtinTypeError(info.kube.catalog, decoding.definition, obj);
  if (typeError)
    throw errors.badRequest(
      `${info.kind} in version "${version.name}" cannot be handled as a ${info.kind}: ${typeError}`,
    );
  canonicalizeValues(info.kube.catalog, decoding.definition, obj);
  reportUnknown(info, version, prune(obj, schema, true), duplicates, fieldValidation, warnings);
  if (!noEmpties) dropGoEmpties(obj, schema);
  if (decoding.defaults) applyDefaults(obj, decoding.defaults);
  // Defaulting and validation work on the stored version, as kube's work on the internal one.
  const storage = storageVersion(info);
  if (info.convert && version.name !== storage.name) {
    const converted = info.convert(
      { ...obj, apiVersion: groupVersion(info.group, version.name) },
      storage.name,
    );
    // The metadata object stays the same one: the caller holds it and fills system fields.
    const meta = obj.metadata;
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, converted);
    if (meta) {
      const annotations = converted.metadata?.annotations;
      if (annotations) meta.annotations = annotations;
      else delete meta.annotations;
      obj.metadata = meta;
    }
  }
}

/**
 * What a built-in object loses on its way through Go structs: nulls (nil pointers, maps and
 * slices) and empty maps and lists of optional fields, which `omitempty` leaves out when kube
 * serializes the object again. So `labels: {}` or `ports: []` are never stored or served, and a
 * patch that only empties an already absent map changes nothing. Empty structs (`resources: {}`)
 * stay, as Go writes them. Required fields keep their value for validation to judge.
 */
function isEmptyObject(v: object): boolean {
  for (const _ in v) return false;
  return true;
}

function dropGoEmpties(node: unknown, schema: Schema | undefined): void {
  if (!schema || typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) dropGoEmpties(item, schema.items as Schema | undefined);
    return;
  }
  const obj = node as Record<string, unknown>;
  const props = schema.properties;
  if (props) {
    for (const key in obj) {
      const sub = props[key];
      if (!sub) continue;
      const v = obj[key];
      if (v !== null && typeof v !== "object") continue;
      const empty =
        v === null ||
        (Array.isArray(v)
          ? v.length === 0
          : sub.additionalProperties !== undefined &&
            sub.additionalProperties !== false &&
            !sub.properties &&
            isEmptyObject(v));
      if (empty && !schema.required?.includes(key)) delete obj[key];
      else dropGoEmpties(v, sub);
    }
  } else if (typeof schema.additionalProperties === "object") {
    for (const v of Object.values(obj)) dropGoEmpties(v, schema.additionalProperties as Schema);
  }
}

function reportUnknown(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  pruned: readonly string[],
  duplicates: readonly string[],
  fieldValidation: FieldValidation,
  warnings: string[],
): void {
  if ((pruned.length === 0 && duplicates.length === 0) || fieldValidation === "Ignore") return;
  const problems = [
    ...duplicates.map((p) => `duplicate field "${p}"`),
    ...pruned.map((p) => `unknown field "${p}"`),
  ];
  if (fieldValidation === "Strict") {
    throw errors.badRequest(
      `${info.kind} in version "${version.name}" cannot be handled as a ${info.kind}: strict decoding error: ${problems.join(", ")}`,
    );
  }
  warnings.push(...problems);
}

/** Validation of the object body against the schema (metadata is validated separately). */
export function schemaErrors(
  version: ResourceVersionInfo,
  obj: KubeObject,
  only?: "status",
): FieldError[] {
  const schema = version.schema;
  if (!schema) return [];
  if (only === "status") {
    const sub = schema.properties?.status;
    return obj.status === undefined ? [] : validateSchema(obj.status, sub, "status");
  }
  return customResourceBodyErrors(obj, schema);
}

/** Converts a stored object to the requested version (conversion strategy None). */
export function fromStorage(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  stored: KubeObject,
): KubeObject {
  const out = info.convert ? info.convert(deepClone(stored), version.name) : deepClone(stored);
  out.apiVersion = groupVersion(info.group, version.name);
  out.kind = info.kind;
  if (info.custom && version.schema) {
    prune(out, version.schema, true);
    applyDefaults(out, version.schema);
  }
  return out;
}

/** A webhook-converted object made ready to serve in `version`: pruned and defaulted by its schema. */
export function fromConverted(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  converted: KubeObject,
): KubeObject {
  const out = deepClone(converted);
  out.apiVersion = groupVersion(info.group, version.name);
  out.kind = info.kind;
  if (version.schema) {
    prune(out, version.schema, true);
    applyDefaults(out, version.schema);
  }
  return out;
}

/** The apiVersion objects of this resource are stored in. */
export function storageApiVersion(info: ResourceInfo): string {
  return groupVersion(info.group, storageVersion(info).name);
}
