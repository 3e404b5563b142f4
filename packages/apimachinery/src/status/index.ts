/**
 * `@opgen/apimachinery/status`: the metav1 Status, the one ApiError, kube's error constructors and
 * messages, field errors, and the predicates clients branch on.
 */
export { errors, type GroupResource, qualifiedResource } from "./errors.js";
export {
  aggregateFieldErrors,
  type FieldError,
  type FieldErrorType,
  field,
  fieldErrorBody,
  fieldErrorString,
  GoValue,
  goStrings,
  goValue,
  OMIT_VALUE,
  renderValue,
} from "./field.js";
export {
  ignoreNotFound,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isResourceExpired,
  isServiceUnavailable,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  reasonForError,
} from "./predicates.js";
export {
  ApiError,
  reasonForCode,
  type Status,
  type StatusBody,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
} from "./status.js";
