/**
 * OpenAPI v3 structural-schema validation of custom resources, rendered as kube-apiserver does
 * (kube-openapi validators mapped to field errors by apiextensions'
 * `kubeOpenAPIResultToFieldErrors`): the same reasons, field paths and message texts.
 */
import { goRegexpError, goRegexpMatch } from "../regex/index.js";
import { type FieldError, renderValue } from "../status/index.js";
import { deepEqual, isObject } from "./json.js";
import type { JSONSchemaProps } from "./types.js";

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** The type name kube-openapi reports for a JSON value. */
export function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  return "object";
}

function typeMatches(type: string, v: unknown): boolean {
  const actual = jsonTypeName(v);
  if (type === "number") return actual === "number" || actual === "integer";
  return actual === type;
}

const formats: Record<string, (s: string) => boolean> = {
  email: (s) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s),
  hostname: (s) =>
    s.length <= 255 &&
    /^[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/.test(
      s,
    ),
  ipv4: (s) =>
    /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s),
  ipv6: (s) => /^[0-9A-Fa-f:.]+$/.test(s) && s.includes(":"),
  cidr: (s) => /^[0-9A-Fa-f:.]+\/\d{1,3}$/.test(s),
  mac: (s) => /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/.test(s),
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) =>
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) =>
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  "date-time": (s) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s),
  duration: (s) => /^(-?\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+$/.test(s) || s === "0",
  byte: (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0,
  uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(s),
};

function fmtNum(n: number): string {
  return String(n);
}

/** Validates a value against a structural schema; `path` is the field path of `value`. */
export function validateSchema(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  path = "",
): FieldError[] {
  const errs: FieldError[] = [];
  if (schema) validateNode(value, schema, path, errs);
  return errs;
}

function validateNode(v: unknown, s: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const where = path || "body";
  const label = `${where} in body`;
  if (v === null) {
    // kube-openapi's type validator: null needs `nullable` (or no type); an object that keeps
    // unknown fields is still an object.
    if (s.nullable || (!s.type && !s["x-kubernetes-int-or-string"])) return;
    errs.push({
      type: "FieldValueTypeInvalid",
      field: path,
      value: "null",
      detail: `${label} must be of type ${s["x-kubernetes-int-or-string"] ? "integer,string" : s.type}: "null"`,
    });
    return;
  }
  if (s["x-kubernetes-int-or-string"]) {
    const t = jsonTypeName(v);
    if (t !== "integer" && t !== "string") {
      errs.push({
        type: "FieldValueTypeInvalid",
        field: path,
        value: t,
        detail: `${label} must be of type integer,string: "${t}"`,
      });
      return;
    }
  } else if (s.type && !typeMatches(s.type, v)) {
    const t = jsonTypeName(v);
    errs.push({
      type: "FieldValueTypeInvalid",
      field: path,
      value: t,
      detail: `${label} must be of type ${s.type}: "${t}"`,
    });
    return;
  }

  if (s.enum && !s.enum.some((e) => deepEqual(e, v))) {
    errs.push({
      type: "FieldValueNotSupported",
      field: path,
      value: v,
      detail: `supported values: ${s.enum.map(renderValue).join(", ")}`,
    });
  }

  if (typeof v === "number") validateNumber(v, s, path, label, errs);
  if (typeof v === "string") validateString(v, s, path, label, errs);
  if (Array.isArray(v)) validateArray(v, s, path, label, errs);
  if (isObject(v)) validateObject(v, s, path, label, errs);
  validateCombinators(v, s, path, label, errs);
}

/** Bounds and multipleOf. */
function validateNumber(
  v: number,
  s: JSONSchemaProps,
  path: string,
  label: string,
  errs: FieldError[],
): void {
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: `${label} should be less than ${s.exclusiveMaximum ? "" : "or equal to "}${fmtNum(s.maximum)}`,
      });
    }
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: `${label} should be greater than ${s.exclusiveMinimum ? "" : "or equal to "}${fmtNum(s.minimum)}`,
      });
    }
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0) {
    const q = v / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: `${label} should be a multiple of ${fmtNum(s.multipleOf)}`,
      });
    }
  }
}

/** Length (in runes), pattern and format. */
function validateString(
  v: string,
  s: JSONSchemaProps,
  path: string,
  label: string,
  errs: FieldError[],
): void {
  const len = [...v].length;
  if (s.maxLength !== undefined && len > s.maxLength) {
    errs.push({
      type: "FieldValueTooLong",
      field: path,
      value: v,
      detail: `may not be more than ${s.maxLength} bytes`,
    });
  }
  if (s.minLength !== undefined && len < s.minLength) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: v,
      detail: `${label} should be at least ${s.minLength} chars long`,
    });
  }
  if (s.pattern !== undefined) {
    // Go's regexp (RE2, linear time): a pattern Go rejects never reaches here, as the CRD
    // carrying it is refused; the generator reports it at the marker.
    if (goRegexpError(s.pattern) === undefined && !goRegexpMatch(s.pattern, v)) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: `${label} should match '${s.pattern}'`,
      });
    }
  }
  if (s.format && formats[s.format] && !formats[s.format]!(v)) {
    errs.push({
      type: "FieldValueTypeInvalid",
      field: path,
      value: v,
      detail: `${label} must be of type ${s.format}: ${JSON.stringify(v)}`,
    });
  }
}

/** Item counts, uniqueness, each item, and the list type's keys. */
function validateArray(
  v: unknown[],
  s: JSONSchemaProps,
  path: string,
  label: string,
  errs: FieldError[],
): void {
  if (s.maxItems !== undefined && v.length > s.maxItems) {
    errs.push({
      type: "FieldValueTooMany",
      field: path,
      value: v.length,
      detail: `must have at most ${s.maxItems} items`,
    });
  }
  if (s.minItems !== undefined && v.length < s.minItems) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: v.length,
      detail: `${label} should have at least ${s.minItems} items`,
    });
  }
  if (s.uniqueItems) {
    const dup = v.some((x, i) => v.findIndex((y) => deepEqual(x, y)) !== i);
    if (dup) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: `${label} shouldn't contain duplicates`,
      });
    }
  }
  if (s.items) {
    v.forEach((item, i) => {
      validateNode(item, s.items!, `${path}[${i}]`, errs);
    });
  }
  validateListType(v, s, path, errs);
}

/** Property counts, required properties, and each property by its schema. */
function validateObject(
  v: Record<string, unknown>,
  s: JSONSchemaProps,
  path: string,
  label: string,
  errs: FieldError[],
): void {
  const n = Object.keys(v).length;
  if (s.maxProperties !== undefined && n > s.maxProperties) {
    errs.push({
      type: "FieldValueTooMany",
      field: path,
      value: n,
      detail: `must have at most ${s.maxProperties} items`,
    });
  }
  if (s.minProperties !== undefined && n < s.minProperties) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: n,
      detail: `${label} should have at least ${s.minProperties} properties`,
    });
  }
  for (const r of s.required ?? []) {
    if (!Object.hasOwn(v, r) || v[r] === undefined) {
      errs.push({ type: "FieldValueRequired", field: join(path, r), value: "", detail: "" });
    }
  }
  const keys = Object.keys(v).sort();
  for (const key of keys) {
    const child =
      s.properties?.[key] ??
      (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
    if (!child) continue;
    // The root's and embedded objects' metadata are validated as ObjectMeta elsewhere.
    validateNode(v[key], child, join(path, key), errs);
  }
}

/** allOf, anyOf, oneOf and not. */
function validateCombinators(
  v: unknown,
  s: JSONSchemaProps,
  path: string,
  label: string,
  errs: FieldError[],
): void {
  for (const sub of s.allOf ?? []) validateNode(v, sub, path, errs);
  if (s.anyOf && !s.anyOf.some((sub) => validateSchema(v, sub, path).length === 0)) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: v,
      detail: `${label} must validate at least one schema (anyOf)`,
    });
  }
  if (s.oneOf && s.oneOf.filter((sub) => validateSchema(v, sub, path).length === 0).length !== 1) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: v,
      detail: `${label} must validate one and only one schema (oneOf)`,
    });
  }
  if (s.not && validateSchema(v, s.not, path).length === 0) {
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: v,
      detail: `${label} must not validate the schema (not)`,
    });
  }
}

function validateListType(
  v: unknown[],
  s: JSONSchemaProps,
  path: string,
  errs: FieldError[],
): void {
  const lt = s["x-kubernetes-list-type"];
  if (lt === "set") {
    v.forEach((x, i) => {
      if (v.findIndex((y) => deepEqual(x, y)) !== i) {
        errs.push({ type: "FieldValueDuplicate", field: `${path}[${i}]`, value: x });
      }
    });
  } else if (lt === "map") {
    const keys = s["x-kubernetes-list-map-keys"] ?? [];
    const seen: Record<string, unknown>[] = [];
    v.forEach((x, i) => {
      if (!isObject(x)) return;
      const k: Record<string, unknown> = {};
      for (const key of keys) {
        if (x[key] !== undefined) k[key] = x[key];
        else if (s.items?.properties?.[key]?.default !== undefined)
          k[key] = s.items.properties[key]!.default;
      }
      if (seen.some((y) => deepEqual(y, k))) {
        errs.push({ type: "FieldValueDuplicate", field: `${path}[${i}]`, value: k });
      } else seen.push(k);
    });
  }
}
