/**
 * What a reconciler branches on (apierrors.IsNotFound, IsConflict, ...): predicates over any thrown
 * value, true only for an ApiError of that reason (or, where kube does, of that code).
 */
import { ApiError, type StatusReason } from "./status.js";

function apiError(err: unknown): ApiError | undefined {
  return err instanceof ApiError ? err : undefined;
}

/** The reason of an ApiError, `""` for anything else (errors.ReasonForError). */
export function reasonForError(err: unknown): StatusReason {
  return apiError(err)?.reason ?? "";
}

function is(err: unknown, reason: StatusReason, code: number): boolean {
  const e = apiError(err);
  if (!e) return false;
  // kube falls back to the code only when the server gave no known reason.
  return e.reason === reason || (e.code === code && (e.reason === "" || e.reason === "Unknown"));
}

/** The object does not exist (404 NotFound). */
export const isNotFound = (err: unknown): boolean => is(err, "NotFound", 404);
/** An optimistic-concurrency or apply conflict (409 Conflict). */
export const isConflict = (err: unknown): boolean => is(err, "Conflict", 409);
/** A create hit an existing object (409 AlreadyExists). */
export const isAlreadyExists = (err: unknown): boolean => apiError(err)?.reason === "AlreadyExists";
/** The object failed validation (422 Invalid). */
export const isInvalid = (err: unknown): boolean => is(err, "Invalid", 422);
/** The request was forbidden (403). */
export const isForbidden = (err: unknown): boolean => is(err, "Forbidden", 403);
/** The request was not authenticated (401). */
export const isUnauthorized = (err: unknown): boolean => is(err, "Unauthorized", 401);
/** The request was malformed (400). */
export const isBadRequest = (err: unknown): boolean => is(err, "BadRequest", 400);
/** The request was throttled (429). */
export const isTooManyRequests = (err: unknown): boolean => is(err, "TooManyRequests", 429);
/** The server timed out (504 Timeout). */
export const isTimeout = (err: unknown): boolean => is(err, "Timeout", 504);
/** The server is unavailable (503). */
export const isServiceUnavailable = (err: unknown): boolean => is(err, "ServiceUnavailable", 503);
/** The resourceVersion is too old to list or watch from (410 Expired). */
export const isResourceExpired = (err: unknown): boolean => apiError(err)?.reason === "Expired";

/** 410: the requested resourceVersion is gone, whether the reason says Gone or Expired. */
export function isGone(err: unknown): boolean {
  const e = apiError(err);
  return e !== undefined && (e.code === 410 || e.reason === "Expired" || e.reason === "Gone");
}

/**
 * Returns `undefined` for a NotFound error and rethrows anything else; made for
 * `client.get(...).catch(ignoreNotFound)`.
 */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
