/**
 * The sizes kube-apiserver 1.32 assumes for the data a CRD rule sees, when it estimates the
 * rule's cost at CRD creation (`apiserver/pkg/cel/common/schemas.go` SchemaDeclType, the
 * `MaxElements` and `MinSerializedSize` of each declared type): a declared `maxLength`,
 * `maxItems` or `maxProperties` bounds a value (a string's `enum` does too, by its longest
 * value), and without one the bound is what fits in one 3 MiB request given the smallest JSON
 * an element can serialize to. A plain string's
 * `maxLength` counts 4 bytes per character; durations and timestamps have fixed bounds.
 */
import type { JSONSchemaProps } from "../schema/types.js";
import { escapeProperty } from "./schema-types.js";

/** kube's request size limit the estimates divide (`DefaultMaxRequestSizeBytes`, 3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** A schema node as the size estimator sees it: kube's DeclType, sizes only. */
export interface SizeDecl {
  /** The most characters, bytes, items or properties a value may have (0 for scalars). */
  maxElements: number;
  /** The smallest JSON a value serializes to, in bytes. */
  minSerializedSize: number;
  fields?: Map<string, SizeDecl>;
  elem?: SizeDecl;
  key?: SizeDecl;
}

// The fixed JSON sizes kube uses (`apiserver/pkg/cel/types.go`), quotes included.
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

const zeroIfNegative = (n: number) => Math.max(n, 0);
const isSchema = (v: unknown): v is JSONSchemaProps =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The longest string a schema allows per request when it declares no maxLength. */
function maxStringLengthPerRequest(s: JSONSchemaProps): number {
  if (s["x-kubernetes-int-or-string"] === true) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case "duration":
      return MAX_DURATION_SIZE_JSON;
    case "date":
      return JSON_DATE_SIZE;
    case "date-time":
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** kube's estimateMaxStringEnumLength: the longest string value, in bytes (Go's len). */
function longestEnumValue(values: unknown[]): number {
  let max = 0;
  for (const v of values) {
    if (typeof v === "string") max = Math.max(max, Buffer.byteLength(v, "utf8"));
  }
  return max;
}

const simple = (maxElements: number, minSerializedSize: number): SizeDecl => ({
  maxElements,
  minSerializedSize,
});

const STRING_KEY = simple(0, MIN_STRING_SIZE);

/** kube's WithTypeAndObjectMeta: a resource root always has apiVersion, kind and metadata. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties;
  const meta = p?.metadata;
  if (
    p?.kind?.type === "string" &&
    p.apiVersion?.type === "string" &&
    meta?.type === "object" &&
    meta.properties?.name?.type === "string" &&
    meta.properties.generateName?.type === "string"
  ) {
    return s;
  }
  const str: JSONSchemaProps = { type: "string" };
  return {
    ...s,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: { type: "object", properties: { name: str, generateName: str } },
    },
  };
}

/**
 * The size declaration of a structural schema node, or undefined where kube does not expose the
 * node to CEL (no type, an array without items); `root` for a resource root or an embedded
 * resource.
 */
export function sizeDecl(schema: JSONSchemaProps | undefined, root: boolean): SizeDecl | undefined {
  if (!schema) return undefined;
  if (schema["x-kubernetes-int-or-string"] === true) {
    return simple(MAX_REQUEST_SIZE_BYTES - 2, 1);
  }
  const s = root ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case "array": {
      if (!isSchema(s.items)) return undefined;
      const elem = sizeDecl(s.items, s.items["x-kubernetes-embedded-resource"] === true);
      if (!elem) return undefined;
      const max =
        typeof s.maxItems === "number"
          ? zeroIfNegative(s.maxItems)
          : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 1));
      return { maxElements: max, minSerializedSize: 2, elem };
    }
    case "object": {
      if (isSchema(s.additionalProperties)) {
        const ap = s.additionalProperties;
        const elem = sizeDecl(ap, ap["x-kubernetes-embedded-resource"] === true);
        if (!elem) return undefined;
        const max =
          typeof s.maxProperties === "number"
            ? zeroIfNegative(s.maxProperties)
            : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 6));
        return { maxElements: max, minSerializedSize: 2, key: STRING_KEY, elem };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, SizeDecl>();
      let min = 2; // {}
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        if (!isSchema(prop)) continue;
        const field = sizeDecl(prop, prop["x-kubernetes-embedded-resource"] === true);
        if (!field) continue;
        const escaped = escapeProperty(name);
        if (escaped) fields.set(escaped, field);
        // Required properties without a default are in every request: quotes, colon, comma.
        if (required.has(name) && prop.default === undefined) {
          min += name.length + field.minSerializedSize + 4;
        }
      }
      return { maxElements: 0, minSerializedSize: min, fields };
    }
    case "string":
      switch (s.format) {
        case "byte":
          return simple(
            typeof s.maxLength === "number"
              ? zeroIfNegative(s.maxLength)
              : maxStringLengthPerRequest(s),
            MIN_STRING_SIZE,
          );
        case "duration":
          return simple(maxStringLengthPerRequest(s), MIN_DURATION_SIZE_JSON);
        case "date":
          return simple(maxStringLengthPerRequest(s), JSON_DATE_SIZE);
        case "date-time":
          return simple(maxStringLengthPerRequest(s), MIN_DATETIME_SIZE_JSON);
        default:
          // maxLength counts characters; kube bounds bytes, up to 4 per character. Without
          // one, an enum bounds the string by its longest value, in bytes (kube 1.29 on).
          if (typeof s.maxLength === "number") {
            return simple(zeroIfNegative(s.maxLength) * 4, MIN_STRING_SIZE);
          }
          if (Array.isArray(s.enum) && s.enum.length > 0) {
            return simple(longestEnumValue(s.enum), MIN_STRING_SIZE);
          }
          return simple(maxStringLengthPerRequest(s), MIN_STRING_SIZE);
      }
    case "boolean":
      return simple(0, MIN_BOOL_SIZE);
    case "number":
    case "integer":
      return simple(0, MIN_NUMBER_SIZE);
    default:
      return undefined;
  }
}

/**
 * How many times data of this smallest size could repeat in one request: the number of times a
 * rule under unbounded lists or maps is assumed to run (`maxCardinality`).
 */
export function maxCardinality(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}
