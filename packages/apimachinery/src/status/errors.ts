/**
 * The Status errors kube-apiserver answers with, by constructor (k8s.io/apimachinery
 * `pkg/api/errors`: NewNotFound, NewAlreadyExists, NewConflict, NewInvalid, NewForbidden, ...),
 * with its exact message templates.
 */
import { aggregateFieldErrors, type FieldError, fieldErrorBody } from "./field.js";
import { ApiError, type StatusCause, type StatusDetails } from "./status.js";

/** Identifies a resource in error messages: `widgets.example.com`, or `configmaps` for core. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** `resource.group`, or the bare resource for the core group (schema.GroupResource.String()). */
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
    const qualified = group ? `${kind}.${group}` : kind;
    return new ApiError(
      422,
      "Invalid",
      `${qualified} "${name}" is invalid: ${aggregateFieldErrors(errs)}`,
      {
        name,
        ...(group ? { group } : {}),
        kind,
        causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
      },
    );
  },
  /** Options objects (ListOptions, PatchOptions, ...) report invalid with an empty name. */
  invalidOptions(kind: string, errs: FieldError[]): ApiError {
    return errors.invalid(kind, "meta.k8s.io", "", errs);
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
  requestEntityTooLarge(message: string): ApiError {
    return new ApiError(413, "RequestEntityTooLarge", `Request entity too large: ${message}`);
  },
  internal(message: string): ApiError {
    return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  },
  /** 410 Expired: a resourceVersion too old to watch or list from. */
  expired(message: string): ApiError {
    return new ApiError(410, "Expired", message);
  },
  gone(message: string): ApiError {
    return new ApiError(410, "Gone", message);
  },
  unauthorized(): ApiError {
    return new ApiError(401, "Unauthorized", "Unauthorized");
  },
  /** The 404 for a path that names no resource at all. */
  notFoundPath(): ApiError {
    return new ApiError(404, "NotFound", "the server could not find the requested resource", {});
  },
  timeout(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(504, "Timeout", message, causes ? { causes } : undefined);
  },
  serviceUnavailable(message: string): ApiError {
    return new ApiError(503, "ServiceUnavailable", message);
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
};
