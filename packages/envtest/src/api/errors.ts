/**
 * Kubernetes `Status` errors: the reasons, codes and message templates of apimachinery's
 * `pkg/api/errors` and the field-error rendering of `pkg/util/validation/field`, so clients see
 * byte-for-byte the texts a kube-apiserver sends.
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

export function fieldErrorString(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, unknown>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** An error that is answered with its `Status` body and HTTP code. */
export class ApiError extends Error {
  readonly status: Status;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: number,
    reason: string | undefined,
    message: string,
    details?: StatusDetails,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      ...(reason ? { reason } : {}),
      ...(details ? { details } : {}),
      code,
    };
    this.headers = headers;
  }

  get code(): number {
    return this.status.code;
  }
}

/** Identifies a resource in error messages: `widgets.example.com`, or `configmaps` for core. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function details(
  gr: GroupResource,
  name: string,
  extra: Partial<StatusDetails> = {},
): StatusDetails {
  return { name, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource, ...extra };
}

export const errors = {
  notFound(gr: GroupResource, name: string): ApiError {
    return new ApiError(
      404,
      "NotFound",
      `${qualifiedResource(gr)} "${name}" not found`,
      details(gr, name),
    );
  },
  alreadyExists(gr: GroupResource, name: string): ApiError {
    return new ApiError(
      409,
      "AlreadyExists",
      `${qualifiedResource(gr)} "${name}" already exists`,
      details(gr, name),
    );
  },
  conflict(gr: GroupResource, name: string, why: string): ApiError {
    return new ApiError(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
      details(gr, name),
    );
  },
  optimisticLock(gr: GroupResource, name: string): ApiError {
    return errors.conflict(
      gr,
      name,
      "the object has been modified; please apply your changes to the latest version and try again",
    );
  },
  forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): ApiError {
    const subject = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
    return new ApiError(
      403,
      "Forbidden",
      `${subject} is forbidden: ${why}`,
      details(gr, name, causes ? { causes } : {}),
    );
  },
  /** `kind` is the Kind and `group` the API group: Invalid names the kind, not the resource. */
  invalid(kind: string, group: string, name: string, errs: FieldError[]): ApiError {
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const e of errs) {
      const s = fieldErrorString(e);
      if (!seen.has(s)) {
        seen.add(s);
        parts.push(s);
      }
    }
    const agg = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
    const qualified = group ? `${kind}.${group}` : kind;
    return new ApiError(422, "Invalid", `${qualified} "${name}" is invalid: ${agg}`, {
      name,
      ...(group ? { group } : {}),
      kind,
      causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
    });
  },
  badRequest(message: string): ApiError {
    return new ApiError(400, "BadRequest", message);
  },
  methodNotAllowed(verb: string, gr: GroupResource): ApiError {
    return new ApiError(
      405,
      "MethodNotAllowed",
      `${verb} is not supported on resources of kind "${qualifiedResource(gr)}"`,
      { ...(gr.group ? { group: gr.group } : {}), kind: gr.resource },
    );
  },
  unsupportedMediaType(accepted: string[]): ApiError {
    return new ApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    );
  },
  notAcceptable(accepted: string[]): ApiError {
    return new ApiError(
      406,
      "NotAcceptable",
      `only the following media types are accepted: ${accepted.join(", ")}`,
    );
  },
  internal(message: string): ApiError {
    return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  },
  expired(message: string): ApiError {
    return new ApiError(410, "Expired", message);
  },
  unauthorized(): ApiError {
    return new ApiError(401, "Unauthorized", "Unauthorized");
  },
  notFoundPath(): ApiError {
    return new ApiError(404, "NotFound", "the server could not find the requested resource", {});
  },
  timeout(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(504, "Timeout", message, causes ? { causes } : undefined);
  },
  tooManyRequests(message: string, retryAfter: number): ApiError {
    return new ApiError(
      429,
      "TooManyRequests",
      message,
      { retryAfterSeconds: retryAfter },
      { "Retry-After": String(retryAfter) },
    );
  },
  /** Options objects (ListOptions, PatchOptions, …) report invalid with an empty name. */
  invalidOptions(kind: string, errs: FieldError[]): ApiError {
    return errors.invalid(kind, "meta.k8s.io", "", errs);
  },
};
