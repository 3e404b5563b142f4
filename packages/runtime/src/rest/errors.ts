/**
 * API errors: the `Status` object the API server returns on failure, wrapped in an Error with its
 * HTTP code and reason, and the predicates reconcilers branch on (apimachinery's `errors` package).
 */

/** The metav1.Status body of a failed request. */
export interface StatusBody {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ type?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
}

/** A request the API server answered with a non-2xx status (or a watch ERROR event). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    /** The HTTP status code. */
    readonly code: number,
    /** The Status reason, e.g. "NotFound", "Conflict", "AlreadyExists", "Expired". */
    readonly reason: string,
    message: string,
    readonly status?: StatusBody,
    /** The request that failed, as "VERB path". */
    readonly request?: string,
  ) {
    super(message);
  }

  /** Builds an ApiError from a response code and its (possibly non-JSON) body. */
  static fromResponse(code: number, body: string, request?: string): ApiError {
    let status: StatusBody | undefined;
    try {
      const parsed = JSON.parse(body) as StatusBody;
      if (parsed && typeof parsed === "object") status = parsed;
    } catch {
      // Proxies and load balancers answer with HTML or text; keep the code.
    }
    const reason = status?.reason || reasonForCode(code);
    const message = status?.message || body.slice(0, 200) || `HTTP ${code}`;
    return new ApiError(code, reason, message, status, request);
  }
}

function reasonForCode(code: number): string {
  switch (code) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 409:
      return "Conflict";
    case 410:
      return "Expired";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 504:
      return "Timeout";
    default:
      return code >= 500 ? "InternalError" : "Unknown";
  }
}

function apiError(err: unknown): ApiError | undefined {
  return err instanceof ApiError ? err : undefined;
}

/** The object does not exist (404). */
export function isNotFound(err: unknown): boolean {
  const e = apiError(err);
  return e !== undefined && (e.reason === "NotFound" || (e.code === 404 && e.reason === "Unknown"));
}

/** An optimistic-concurrency conflict or a conflicting apply (409 Conflict). */
export function isConflict(err: unknown): boolean {
  return apiError(err)?.reason === "Conflict";
}

/** A create hit an existing object (409 AlreadyExists). */
export function isAlreadyExists(err: unknown): boolean {
  return apiError(err)?.reason === "AlreadyExists";
}

/** The requested resourceVersion is too old (410 Gone / Expired). */
export function isGone(err: unknown): boolean {
  const e = apiError(err);
  return e !== undefined && (e.code === 410 || e.reason === "Expired" || e.reason === "Gone");
}

/** The request was throttled (429). */
export function isTooManyRequests(err: unknown): boolean {
  return apiError(err)?.code === 429;
}

/** The request was forbidden (403). */
export function isForbidden(err: unknown): boolean {
  return apiError(err)?.code === 403;
}

/** The object failed validation (422). */
export function isInvalid(err: unknown): boolean {
  return apiError(err)?.reason === "Invalid";
}

/**
 * Returns `undefined` for a NotFound error and rethrows anything else; made for
 * `client.get(...).catch(ignoreNotFound)`.
 */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
