/**
 * The metav1 `Status` object and `ApiError`, the one error type for a failed API request: thrown
 * by envtest's handlers (and answered with its Status body and code) and by the runtime's client
 * (built from the response a server sent), so both sides branch on the same reasons.
 */

/** metav1.StatusReason values (`""` is StatusReasonUnknown). */
export type StatusReason =
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Gone"
  | "Invalid"
  | "ServerTimeout"
  | "StoreReadError"
  | "Timeout"
  | "TooManyRequests"
  | "BadRequest"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "RequestEntityTooLarge"
  | "UnsupportedMediaType"
  | "InternalError"
  | "Expired"
  | "ServiceUnavailable"
  | (string & {});

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
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A Status body as a client may receive it: any field can be missing. */
export type StatusBody = Partial<Omit<Status, "kind" | "apiVersion" | "status">> & {
  kind?: string;
  apiVersion?: string;
  status?: string;
};

/** A failed API request: its Status, HTTP code, and (server side) extra response headers. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: Status;
  /** Extra response headers the server sends with it (e.g. Retry-After). */
  readonly headers: Record<string, string>;
  /** The request that failed, as "VERB path", when a client made it. */
  readonly request?: string;

  constructor(
    code: number,
    reason: StatusReason | undefined,
    message: string,
    details?: StatusDetails,
    headers: Record<string, string> = {},
    request?: string,
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
    if (request !== undefined) this.request = request;
  }

  /** The HTTP status code. */
  get code(): number {
    return this.status.code;
  }

  /** The Status reason (`""` when the server gave none). */
  get reason(): StatusReason {
    return this.status.reason ?? "";
  }

  get details(): StatusDetails | undefined {
    return this.status.details;
  }

  /** An ApiError carrying a Status body (e.g. a watch ERROR event's object). */
  static fromStatus(body: StatusBody, request?: string): ApiError {
    const code = body.code ?? 500;
    return new ApiError(
      code,
      body.reason || reasonForCode(code),
      body.message || `HTTP ${code}`,
      body.details,
      {},
      request,
    );
  }

  /** Builds an ApiError from a response code and its body, which may not be JSON (proxies). */
  static fromResponse(code: number, body: string, request?: string): ApiError {
    let status: StatusBody | undefined;
    try {
      const parsed = JSON.parse(body) as StatusBody;
      if (parsed && typeof parsed === "object") status = parsed;
    } catch {
      // Proxies and load balancers answer with HTML or text; keep the code.
    }
    return new ApiError(
      code,
      status?.reason || reasonForCode(code),
      status?.message || body.slice(0, 200) || `HTTP ${code}`,
      status?.details,
      {},
      request,
    );
  }
}

/** The reason kube's clients assume for a code when the body names none (errors.reasonForCode). */
export function reasonForCode(code: number): StatusReason {
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
    case 406:
      return "NotAcceptable";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 413:
      return "RequestEntityTooLarge";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      // client-go's NewGenericServerResponse: any other 5xx is an internal error.
      return code >= 500 ? "InternalError" : "";
  }
}
