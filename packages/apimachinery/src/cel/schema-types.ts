/**
 * CEL types of a structural schema, as kube-apiserver declares `self` for a CRD rule
 * (`apiserver/pkg/cel/common/schemas.go` SchemaDeclType, `model.WithTypeAndObjectMeta`): objects
 * with properties are object types whose fields are the (escaped) property names, maps and lists
 * are typed by their items, `byte`/`duration`/`date`/`date-time` strings are bytes, durations and
 * timestamps; int-or-string, preserve-unknown-fields and embedded resources are dyn. Type
 * checking against it finds what kube finds at CRD creation (`undefined field`, mismatched
 * operands). `toCelValue` shapes a JSON value to those types for evaluation.
 */
import type { Environment } from "@marcbachmann/cel-js";
import type { JSONSchemaProps } from "../schema/types.js";
import { celEqual } from "./library/values.js";

const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

/** kube's property-name escaping (`__dash__`, `__dot__`, ...); undefined when not accessible. */
export function escapeProperty(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  const escaped = name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(escaped) ? escaped : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function isDyn(s: JSONSchemaProps): boolean {
  return (
    s["x-kubernetes-int-or-string"] === true ||
    s["x-kubernetes-preserve-unknown-fields"] === true ||
    s["x-kubernetes-embedded-resource"] === true
  );
}

/** Registers the object types of `schema` in `env` under `name`; returns the CEL type of self. */
export function declareSchemaType(
  env: Environment,
  schema: JSONSchemaProps | undefined,
  name: string,
  root: boolean,
): string {
  if (!schema || isDyn(schema)) return "dyn";
  switch (schema.type) {
    case "object": {
      if (schema.properties) {
        const fields: Record<string, string> = {};
        for (const [k, child] of Object.entries(schema.properties)) {
          const field = escapeProperty(k);
          if (field) fields[field] = declareSchemaType(env, child, `${name}.${field}`, false);
        }
        if (root) {
          // The resource root always has these, whatever the schema says of them.
          fields.apiVersion = "string";
          fields.kind = "string";
          const meta = `${name}.metadata`;
          env.registerType(meta, { fields: { name: "string", generateName: "string" } });
          fields.metadata = meta;
        }
        env.registerType(name, { fields });
        // Objects compare by value in CEL (self == oldSelf is how immutability is written).
        env.registerOperator(`${name} == ${name}`, celEqual);
        // As in cel-go, null is assignable to an object type: `self.x == null` type-checks.
        env.registerOperator(`${name} == null`, (a: unknown, b: unknown) => a === b);
        return name;
      }
      if (isObject(schema.additionalProperties)) {
        const value = declareSchemaType(
          env,
          schema.additionalProperties as JSONSchemaProps,
          `${name}.additionalProperties`,
          false,
        );
        return `map<string, ${value}>`;
      }
      return "dyn";
    }
    case "array":
      return `list<${declareSchemaType(env, schema.items as JSONSchemaProps | undefined, `${name}.items`, false)}>`;
    case "string":
      switch (schema.format) {
        case "byte":
          return "bytes";
        case "duration":
          return "google.protobuf.Duration";
        case "date":
        case "date-time":
          return "google.protobuf.Timestamp";
        default:
          return "string";
      }
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    default:
      return "dyn";
  }
}

/** The typed environment's conversions of formatted strings (set by the environment). */
export interface FormatConverters {
  duration(s: string): unknown;
}

/**
 * A JSON value as CEL sees it under `schema`: integers as int (bigint) unless the schema says
 * number, properties under their escaped names, formatted strings as timestamps, durations and
 * bytes.
 */
export function toCelValue(
  v: unknown,
  schema: JSONSchemaProps | undefined,
  formats: FormatConverters,
): unknown {
  if (typeof v === "number") {
    return Number.isInteger(v) && schema?.type !== "number" ? BigInt(v) : v;
  }
  if (typeof v === "string" && schema && !isDyn(schema) && schema.type === "string") {
    switch (schema.format) {
      case "byte":
        return new Uint8Array(Buffer.from(v, "base64"));
      case "duration":
        return formats.duration(v);
      case "date":
        return new Date(`${v}T00:00:00Z`);
      case "date-time":
        return new Date(v);
      default:
        return v;
    }
  }
  if (Array.isArray(v)) {
    return v.map((x) => toCelValue(x, schema?.items as JSONSchemaProps | undefined, formats));
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    const props = schema && !isDyn(schema) ? schema.properties : undefined;
    for (const [k, x] of Object.entries(v)) {
      const child =
        schema?.properties?.[k] ??
        (isObject(schema?.additionalProperties)
          ? (schema.additionalProperties as JSONSchemaProps)
          : undefined);
      const key = props ? (escapeProperty(k) ?? k) : k;
      out[key] = toCelValue(x, child, formats);
    }
    return out;
  }
  return v;
}
