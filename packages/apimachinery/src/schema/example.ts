/**
 * Example objects from a CRD version's structural schema: the smallest object it accepts (the
 * sample `opgen create api` writes), or a given object completed with what the schema requires (a
 * test object that stays valid when a field becomes required). Required fields only, each with
 * its default, else its first enum value, else a value inside its bounds (minimum/maximum,
 * multipleOf, minLength/maxLength, a string its pattern matches, a value of its format), objects
 * with their required fields, lists with their minItems of distinct items. What cannot be derived
 * is named as a problem instead of guessed silently; the caller validates the result against the
 * schema (CEL rules included) to catch the rest.
 */
import { goRegexpError, goRegexpMatch } from "../regex/index.js";
import { patternExamples } from "./example-pattern.js";
import { deepClone, deepEqual, isObject, type JsonObject } from "./json.js";
import type { JSONSchemaProps } from "./types.js";

export interface ExampleProblem {
  /** The field path, as kube prints it (`spec.items[0].name`). */
  field: string;
  message: string;
}

/** One example per format kube-openapi checks; a few each, so list items can differ. */
const FORMAT_VALUES: Record<string, readonly string[]> = {
  "date-time": ["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z"],
  date: ["2025-01-01", "2025-01-02", "2025-01-03"],
  duration: ["1m", "2m", "3m"],
  email: ["user@example.com", "user2@example.com", "user3@example.com"],
  hostname: ["example.com", "example.org", "example.net"],
  ipv4: ["192.0.2.1", "192.0.2.2", "192.0.2.3"],
  ipv6: ["2001:db8::1", "2001:db8::2", "2001:db8::3"],
  cidr: ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"],
  mac: ["00:00:5e:00:53:01", "00:00:5e:00:53:02", "00:00:5e:00:53:03"],
  uuid: ["0b9e6e4c-1f2a-4c5d-8e7f-000000000001", "0b9e6e4c-1f2a-4c5d-8e7f-000000000002"],
  uuid3: ["0b9e6e4c-1f2a-3c5d-8e7f-000000000001", "0b9e6e4c-1f2a-3c5d-8e7f-000000000002"],
  uuid4: ["0b9e6e4c-1f2a-4c5d-8e7f-000000000001", "0b9e6e4c-1f2a-4c5d-8e7f-000000000002"],
  uuid5: ["0b9e6e4c-1f2a-5c5d-8e7f-000000000001", "0b9e6e4c-1f2a-5c5d-8e7f-000000000002"],
  byte: ["ZXhhbXBsZQ==", "ZXhhbXBsZTI=", "ZXhhbXBsZTM="],
  uri: ["https://example.com", "https://example.org", "https://example.net"],
  hexcolor: ["#336699", "#669933", "#993366"],
  rgbcolor: ["rgb(51, 102, 153)", "rgb(102, 153, 51)", "rgb(153, 51, 102)"],
};

/** Top-level fields an example never fills: the caller's (kind and version) or the test's. */
const ROOT_GIVEN = new Set(["apiVersion", "kind", "metadata"]);

/** The fields a sample fills: the required ones, and `spec` always (where users add theirs). */
export function exampleBody(root: JSONSchemaProps): {
  body: JsonObject;
  problems: ExampleProblem[];
} {
  const { object, problems } = completeExample(root, {});
  return { body: object, problems };
}

/**
 * `values` (an object, or part of one) completed into an object the schema accepts: every field
 * the schema requires that `values` leaves out is filled as in exampleBody, at any depth (inside
 * objects and list items `values` gives too), and `spec` is present; what `values` sets is kept
 * as given, so a value the schema refuses is refused by whoever validates the result. `values`
 * is not modified.
 */
export function completeExample(
  root: JSONSchemaProps,
  values: JsonObject,
): { object: JsonObject; problems: ExampleProblem[] } {
  const problems: ExampleProblem[] = [];
  const object = deepClone(values);
  const keys = new Set([...Object.keys(object), ...(root.required ?? [])]);
  if (root.properties?.spec) keys.add("spec");
  for (const key of keys) {
    if (ROOT_GIVEN.has(key)) continue;
    const schema = root.properties?.[key];
    if (schema) object[key] = completeValue(schema, object[key], key, problems, 0);
    else if (object[key] === undefined)
      problems.push({ field: key, message: "required but not declared in the schema" });
  }
  return { object, problems };
}

/** A given value with what its schema requires filled in where it is missing. */
function completeValue(
  schema: JSONSchemaProps,
  value: unknown,
  field: string,
  problems: ExampleProblem[],
  variant: number,
): unknown {
  if (value === undefined) return exampleValue(schema, field, problems, variant);
  if (isObject(value)) return fillObject(schema, value, field, problems, variant);
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    const distinct = distinctItems(schema);
    return value.map((item, i) =>
      completeValue(items, item, `${field}[${i}]`, problems, distinct ? i : variant),
    );
  }
  return value;
}

/**
 * A valid value for `schema` at `field`; `variant` > 0 asks for a different one (the n-th list
 * item of a set or map list), varying enums, numbers, strings and booleans.
 */
export function exampleValue(
  schema: JSONSchemaProps,
  field: string,
  problems: ExampleProblem[],
  variant = 0,
): unknown {
  if (schema.default !== undefined && variant === 0) return deepClone(schema.default);
  const choices = (schema.enum ?? []).filter((v) => v !== null);
  if (choices.length) return deepClone(choices[variant % choices.length]);
  if (schema["x-kubernetes-int-or-string"])
    return exampleNumber(schema, true, field, problems, variant);
  switch (schema.type) {
    case "object":
      return exampleObject(schema, field, problems, variant);
    case "array":
      return exampleArray(schema, field, problems);
    case "string":
      return exampleString(schema, field, problems, variant);
    case "integer":
      return exampleNumber(schema, true, field, problems, variant);
    case "number":
      return exampleNumber(schema, false, field, problems, variant);
    case "boolean":
      return variant % 2 === 1;
    default:
      // Untyped nodes only exist with x-kubernetes-preserve-unknown-fields: any object does.
      return {};
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function exampleObject(
  schema: JSONSchemaProps,
  field: string,
  problems: ExampleProblem[],
  variant: number,
): JsonObject {
  return fillObject(schema, {}, field, problems, variant);
}

/** `out` (changed in place) with its given fields completed and the required ones added. */
function fillObject(
  schema: JSONSchemaProps,
  out: JsonObject,
  field: string,
  problems: ExampleProblem[],
  variant: number,
): JsonObject {
  const additional =
    typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  for (const [key, value] of Object.entries(out)) {
    const child = schema.properties?.[key] ?? additional;
    if (child) out[key] = completeValue(child, value, join(field, key), problems, variant);
  }
  if (schema["x-kubernetes-embedded-resource"]) {
    // An embedded object must say what it is; a ConfigMap is the least surprising example.
    out.apiVersion ??= "v1";
    out.kind ??= "ConfigMap";
  }
  for (const key of schema.required ?? []) {
    if (out[key] !== undefined) continue;
    const child = schema.properties?.[key] ?? additional;
    if (child) out[key] = exampleValue(child, join(field, key), problems, variant);
    else if (schema["x-kubernetes-preserve-unknown-fields"]) out[key] = {};
    else
      problems.push({
        field: join(field, key),
        message: "required but not declared in the schema",
      });
  }
  const min = schema.minProperties ?? 0;
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (Object.keys(out).length >= min) break;
    if (!(key in out)) out[key] = exampleValue(child, join(field, key), problems);
  }
  for (let n = 1; Object.keys(out).length < min; n++) {
    const key = `key${n}`;
    if (additional) out[key] = exampleValue(additional, join(field, key), problems);
    else {
      problems.push({
        field,
        message: `needs at least ${min} properties and declares no more to fill`,
      });
      break;
    }
  }
  return out;
}

function exampleArray(
  schema: JSONSchemaProps,
  field: string,
  problems: ExampleProblem[],
): unknown[] {
  const n = schema.minItems ?? 0;
  const items: unknown[] = [];
  if (n === 0) return items;
  if (!schema.items) {
    problems.push({ field, message: `needs ${n} items and declares no item schema` });
    return items;
  }
  const distinct = distinctItems(schema);
  for (let i = 0; i < n; i++) {
    items.push(exampleValue(schema.items, `${field}[${i}]`, problems, distinct ? i : 0));
  }
  if (distinct && items.some((x, i) => items.findIndex((y) => deepEqual(x, y)) !== i)) {
    problems.push({ field, message: `no ${n} distinct items could be derived` });
  }
  return items;
}

/** Sets, map lists and uniqueItems refuse equal items: each item gets its own variant. */
function distinctItems(schema: JSONSchemaProps): boolean {
  return (
    schema.uniqueItems === true ||
    schema["x-kubernetes-list-type"] === "set" ||
    schema["x-kubernetes-list-type"] === "map"
  );
}

function exampleString(
  schema: JSONSchemaProps,
  field: string,
  problems: ExampleProblem[],
  variant: number,
): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const pattern =
    schema.pattern !== undefined && goRegexpError(schema.pattern) === undefined
      ? schema.pattern
      : undefined;
  const fits = (s: string) => {
    const len = [...s].length;
    return len >= min && len <= max && (pattern === undefined || goRegexpMatch(pattern, s));
  };
  const candidates: string[] = [];
  const formatted = schema.format ? FORMAT_VALUES[schema.format] : undefined;
  if (formatted) candidates.push(...formatted);
  else if (pattern !== undefined) candidates.push(...(patternExamples(pattern) ?? []));
  else {
    const letter = String.fromCharCode(97 + (variant % 26));
    for (const base of ["example", "example-2", "example-3"]) {
      candidates.push(base.length < min ? base + "x".repeat(min - base.length) : base);
    }
    candidates.push(letter.repeat(Math.max(min, 1)), letter.repeat(min));
  }
  const valid = [...new Set(candidates)].filter(fits);
  if (valid.length) return valid[variant % valid.length]!;
  const what = [
    formatted ? `format ${schema.format}` : "",
    pattern !== undefined ? `pattern '${pattern}'` : "",
    min || max !== Number.POSITIVE_INFINITY
      ? `length ${min}..${max === Number.POSITIVE_INFINITY ? "" : max}`
      : "",
  ]
    .filter(Boolean)
    .join(", ");
  problems.push({ field, message: `no value derived for ${what}` });
  return candidates[0] ?? "";
}

function exampleNumber(
  schema: JSONSchemaProps,
  integer: boolean,
  field: string,
  problems: ExampleProblem[],
  variant: number,
): number {
  const step = integer ? 1 : 0.5;
  let lo = schema.minimum;
  if (lo !== undefined && schema.exclusiveMinimum) lo += step;
  let hi = schema.maximum;
  if (hi !== undefined && schema.exclusiveMaximum) hi -= step;
  if (integer) {
    if (lo !== undefined) lo = Math.ceil(lo);
    if (hi !== undefined) hi = Math.floor(hi);
  }
  // 1 reads as "one of it" (replicas, size); bounds move it into range.
  let v = 1 + variant;
  if (lo !== undefined && v < lo) v = lo + variant;
  if (hi !== undefined && v > hi) v = hi - variant;
  const m = schema.multipleOf;
  if (m !== undefined && m > 0) {
    v = Math.ceil(v / m - 1e-9) * m;
    if (hi !== undefined && v > hi) v = Math.floor(hi / m + 1e-9) * m;
  }
  if ((lo !== undefined && v < lo) || (hi !== undefined && v > hi)) {
    problems.push({
      field,
      message: `no ${integer ? "integer" : "number"} within the bounds${m ? ` and a multiple of ${m}` : ""}`,
    });
  }
  return v;
}
