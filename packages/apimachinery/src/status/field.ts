/**
 * Field errors as k8s.io/apimachinery's `pkg/util/validation/field` renders them: the error types,
 * the Go-style value rendering, and constructors with kube's detail texts, so a validation failure
 * reads the same from envtest, the generator and a cluster.
 */

export type FieldErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueTypeInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueDuplicate"
  | "FieldValueNotFound"
  | "InternalError";

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: "Required value",
  FieldValueInvalid: "Invalid value",
  FieldValueTypeInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  FieldValueDuplicate: "Duplicate value",
  FieldValueNotFound: "Not found",
  InternalError: "Internal error",
};

/** Marks a field error whose value must not be printed (field.Error's omitValue). */
export const OMIT_VALUE = Symbol("omitValue");

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
}

/** A value already rendered the way Go's `%#v` prints it (structs, typed maps). */
export class GoValue {
  constructor(readonly text: string) {}
}

export function goValue(text: string): GoValue {
  return new GoValue(text);
}

/**
 * A Go string slice as `%#v` prints it in a field error: `[]string{"a", "b"}`, or with a named
 * element type (`[]admissionregistration.OperationType{"*", "CREATE"}`).
 */
export function goStrings(values: readonly unknown[], elementType = "string"): GoValue {
  return new GoValue(
    `[]${elementType}{${values.map((v) => JSON.stringify(String(v))).join(", ")}}`,
  );
}

/** Renders a value as Go's field errors do: strings quoted, numbers and booleans bare. */
export function renderValue(v: unknown): string {
  if (v instanceof GoValue) return v.text;
  if (typeof v === "string") return JSON.stringify(v);
  // Go renders unsigned integers (resourceVersion's uint64) as hex.
  if (typeof v === "bigint") return `0x${v.toString(16)}`;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return `[]interface {}{${v.map(renderValue).join(", ")}}`;
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).map(
      ([k, val]) => `${JSON.stringify(k)}:${renderValue(val)}`,
    );
    return `map[string]interface {}{${entries.join(", ")}}`;
  }
  return String(v);
}

/** field.Error.ErrorBody(): the text after "<field>: ". */
export function fieldErrorBody(e: FieldError): string {
  let s: string;
  if (
    e.type === "FieldValueRequired" ||
    e.type === "FieldValueForbidden" ||
    e.type === "FieldValueTooLong" ||
    e.type === "InternalError" ||
    e.value === OMIT_VALUE
  ) {
    s = typeText[e.type];
  } else {
    s = `${typeText[e.type]}: ${renderValue(e.value)}`;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** field.Error.Error(): `<field>: <body>`. */
export function fieldErrorString(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

/** field.ErrorList.ToAggregate().Error(): one error bare, several in brackets, duplicates once. */
export function aggregateFieldErrors(errs: readonly FieldError[]): string {
  const parts = [...new Set(errs.map(fieldErrorString))];
  return parts.length === 1 ? parts[0]! : `[${parts.join(", ")}]`;
}

/** The constructors of `field`: `field.required("spec.x", "")`, ... with kube's detail texts. */
export const field = {
  required: (path: string, detail = ""): FieldError => ({
    type: "FieldValueRequired",
    field: path,
    detail,
  }),
  invalid: (path: string, value: unknown, detail = ""): FieldError => ({
    type: "FieldValueInvalid",
    field: path,
    value,
    detail,
  }),
  typeInvalid: (path: string, value: unknown, detail = ""): FieldError => ({
    type: "FieldValueTypeInvalid",
    field: path,
    value,
    detail,
  }),
  notSupported: (path: string, value: unknown, valid: readonly string[]): FieldError => ({
    type: "FieldValueNotSupported",
    field: path,
    value,
    detail:
      valid.length > 0 ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(", ")}` : "",
  }),
  forbidden: (path: string, detail = ""): FieldError => ({
    type: "FieldValueForbidden",
    field: path,
    detail,
  }),
  tooLong: (path: string, value: unknown, max: number): FieldError => ({
    type: "FieldValueTooLong",
    field: path,
    value,
    detail:
      max >= 0
        ? `may not be more than ${max} ${max === 1 ? "byte" : "bytes"}`
        : "value is too long",
  }),
  tooMany: (path: string, actual: number | undefined, max: number): FieldError => ({
    type: "FieldValueTooMany",
    field: path,
    value: actual ?? OMIT_VALUE,
    detail:
      max >= 0 ? `must have at most ${max} ${max === 1 ? "item" : "items"}` : "has too many items",
  }),
  duplicate: (path: string, value: unknown): FieldError => ({
    type: "FieldValueDuplicate",
    field: path,
    value,
  }),
  notFound: (path: string, value: unknown): FieldError => ({
    type: "FieldValueNotFound",
    field: path,
    value,
  }),
  internal: (path: string, err: Error | string): FieldError => ({
    type: "InternalError",
    field: path,
    detail: typeof err === "string" ? err : err.message,
  }),
};
