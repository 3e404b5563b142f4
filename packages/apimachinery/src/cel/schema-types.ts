/**
 * CEL types of a structural schema, as kube-apiserver declares `self` for a CRD rule
 * (`apiserver/pkg/cel/common/schemas.go` SchemaDeclType, `model.WithTypeAndObjectMeta`): objects
 * are object types whose fields are the (escaped) declared property names (preserve-unknown-fields
 * or not; embedded resources add apiVersion, kind and metadata), maps and lists are typed by their
 * items, `byte`/`duration`/`date`/`date-time` strings are bytes, durations and timestamps;
 * int-or-string is dyn. Type
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
  return s["x-kubernetes-int-or-string"] === true;
}

const RESOURCE_FIELDS = new Set(["kind", "apiVersion", "metadata"]);

/** The fields of each object type declared for a schema, by type name. */
export type ObjectFields = Map<string, Record<string, string>>;

const propType = (s: JSONSchemaProps | undefined, name: string): unknown =>
  s?.properties?.[name]?.type;

/** kube's WithTypeAndObjectMeta: whether a resource root already declares what it adds. */
function hasTypeAndObjectMeta(s: JSONSchemaProps): boolean {
  const meta = s.properties?.metadata;
  return (
    propType(s, "kind") === "string" &&
    propType(s, "apiVersion") === "string" &&
    meta?.type === "object" &&
    propType(meta, "name") === "string" &&
    propType(meta, "generateName") === "string"
  );
}

/**
 * Registers the object types of `schema` in `env` under `name`; returns the CEL type of the
 * node, or undefined where kube does not expose it to CEL (no type and not int-or-string, an
 * array or map of such). `x-kubernetes-preserve-unknown-fields` changes nothing: only declared
 * properties are fields (kube: "we don't support validation rules on data that we don't have
 * schema information for"), and an embedded resource is an object with `apiVersion`, `kind`
 * and `metadata.name`/`generateName` besides its declared properties.
 */
function declType(
  env: Environment,
  schema: JSONSchemaProps | undefined,
  name: string,
  root: boolean,
  types: ObjectFields,
  escapeNames = true,
): string | undefined {
  if (!schema) return undefined;
  if (isDyn(schema)) return "dyn";
  switch (schema.type) {
    case "object": {
      if (isObject(schema.additionalProperties)) {
        const ap = schema.additionalProperties as JSONSchemaProps;
        const value = declType(
          env,
          ap,
          `${name}.additionalProperties`,
          ap["x-kubernetes-embedded-resource"] === true,
          types,
          escapeNames,
        );
        return value === undefined ? undefined : `map<string, ${value}>`;
      }
      const fields: Record<string, string> = {};
      const addMeta = root && !hasTypeAndObjectMeta(schema);
      for (const [k, child] of Object.entries(schema.properties ?? {})) {
        const field = escapeNames ? escapeProperty(k) : k;
        // A root without kube's own kind, apiVersion and metadata gets them instead.
        if (!field || (addMeta && RESOURCE_FIELDS.has(k))) continue;
        const t = declType(
          env,
          child,
          `${name}.${field}`,
          child["x-kubernetes-embedded-resource"] === true,
          types,
          escapeNames,
        );
        if (t !== undefined) fields[field] = t;
      }
      if (addMeta) {
        // A resource root always has these, whatever the schema says of them.
        fields.apiVersion = "string";
        fields.kind = "string";
        const meta = `${name}.metadata`;
        const metaFields = { name: "string", generateName: "string" };
        env.registerType(meta, { fields: metaFields });
        types.set(meta, metaFields);
        env.registerOperator(`${meta} == ${meta}`, celEqual);
        env.registerOperator(`${meta} == null`, (a: unknown, b: unknown) => a === b);
        fields.metadata = meta;
      }
      env.registerType(name, { fields });
      types.set(name, fields);
      // Objects compare by value in CEL (self == oldSelf is how immutability is written).
      env.registerOperator(`${name} == ${name}`, celEqual);
      // As in cel-go, null is assignable to an object type: `self.x == null` type-checks.
      env.registerOperator(`${name} == null`, (a: unknown, b: unknown) => a === b);
      return name;
    }
    case "array": {
      const items = isObject(schema.items) ? (schema.items as JSONSchemaProps) : undefined;
      const item = declType(
        env,
        items,
        `${name}.items`,
        items?.["x-kubernetes-embedded-resource"] === true,
        types,
        escapeNames,
      );
      return item === undefined ? undefined : `list<${item}>`;
    }
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
      return undefined;
  }
}

/**
 * Registers the object types of `schema` in `env` under `name`; returns the CEL type of self
 * (dyn where kube would not expose the node: rules there see an untyped value). `escapeNames` false
 * keeps property names as they are (kube's hand-declared types: `request.namespace`).
 */
export function declareSchemaType(
  env: Environment,
  schema: JSONSchemaProps | undefined,
  name: string,
  root: boolean,
  types: ObjectFields = new Map(),
  escapeNames = true,
): string {
  const embedded = schema?.["x-kubernetes-embedded-resource"] === true;
  return declType(env, schema, name, root || embedded, types, escapeNames) ?? "dyn";
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
