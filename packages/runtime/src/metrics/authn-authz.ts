/**
 * controller-runtime's `filters.WithAuthenticationAndAuthorization`: the metrics endpoint asks the
 * API server who the caller is (a TokenReview of the bearer token) and whether that user may `get`
 * the path (a SubjectAccessReview with nonResourceAttributes), with the same answers and texts:
 * 401 `Unauthorized`, 403 `Authorization denied for user <name>`, 500 when the API server could
 * not be asked. Decisions are cached as k8s.io/apiserver's delegating authenticator (1 min) and
 * authorizer (allow 5 min, deny 30 s) cache them, keyed by a hash of the token (never the token
 * itself), and reviews in flight are bounded. Tokens never reach the log.
 *
 * One deliberate difference: Go answers 500 "Authentication failed" for a token the TokenReview
 * rejects (bearertoken turns "not authenticated" into an error); here a rejected token is a 401
 * like a missing one, and 500 is kept for failures to reach the API server.
 */
import { createHash } from "node:crypto";
import type http from "node:http";
import { httpError } from "../internal/http-server.js";
import type { RestRequest } from "../internal/rest/http.js";
import type { Logger } from "../log/logger.js";
import { ExpiringCache } from "./expiring-cache.js";
import { ReviewLimiter, TooManyRequestsError } from "./limiter.js";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/** Wraps the metrics handler (controller-runtime's metricsserver.Filter). */
export type Filter = (log: Logger, handler: Handler) => Handler;

/** What the filter needs of the manager's REST client. */
export interface ReviewClient {
  request<T>(req: RestRequest): Promise<T>;
}

export interface AuthFilterOptions {
  /** How long a TokenReview answer is reused (default 60 000 ms, controller-runtime's CacheTTL). */
  tokenCacheTtlMs?: number;
  /** How long an allowed SubjectAccessReview is reused (default 300 000 ms). */
  allowCacheTtlMs?: number;
  /** How long a denied SubjectAccessReview is reused (default 30 000 ms). */
  denyCacheTtlMs?: number;
  /** Timeout of one review request (default 10 000 ms, TokenAccessReviewTimeout). */
  reviewTimeoutMs?: number;
  /** Reviews sent at once (default 8) and waiting (default 64); beyond them scrapes get 429. */
  maxConcurrentReviews?: number;
  maxPendingReviews?: number;
  /** Cached decisions kept per cache (default 1 024). */
  cacheSize?: number;
}

interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

interface TokenReviewStatus {
  status?: { authenticated?: boolean; user?: UserInfo; error?: string };
}

interface SubjectAccessReviewStatus {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

const defaults = {
  tokenCacheTtlMs: 60_000,
  allowCacheTtlMs: 300_000,
  denyCacheTtlMs: 30_000,
  reviewTimeoutMs: 10_000,
  maxConcurrentReviews: 8,
  maxPendingReviews: 64,
  cacheSize: 1024,
};

/** The bearer token of an `Authorization` header, as k8s.io/apiserver's bearertoken reads it. */
export function bearerToken(header: string | undefined): string | undefined {
  const parts = (header ?? "").trim().split(" ");
  if (parts.length < 2 || parts[0]?.toLowerCase() !== "bearer") return undefined;
  return parts[1] || undefined;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Builds the filter; `rest` is the manager's client, so reviews use its credentials. */
export function withAuthenticationAndAuthorization(
  rest: ReviewClient,
  options: AuthFilterOptions = {},
): Filter {
  const o = { ...defaults, ...options };
  const users = new ExpiringCache<UserInfo | null>(o.cacheSize);
  const decisions = new ExpiringCache<{ allowed: boolean; reason: string }>(o.cacheSize);
  const limiter = new ReviewLimiter(o.maxConcurrentReviews, o.maxPendingReviews);

  const authenticate = async (token: string): Promise<UserInfo | null> => {
    const key = sha256(token);
    const cached = users.get(key);
    if (cached !== undefined) return cached;
    return limiter.run(`token:${key}`, async () => {
      const review = await rest.request<TokenReviewStatus>({
        method: "POST",
        path: "/apis/authentication.k8s.io/v1/tokenreviews",
        body: {
          apiVersion: "authentication.k8s.io/v1",
          kind: "TokenReview",
          spec: { token },
        },
        timeoutMs: o.reviewTimeoutMs,
        retries: 2,
      });
      const user =
        review.status?.authenticated && review.status.user?.username ? review.status.user : null;
      users.set(key, user, o.tokenCacheTtlMs);
      return user;
    });
  };

  const authorize = async (user: UserInfo, verb: string, path: string) => {
    const spec = {
      user: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: user.groups ?? [],
      ...(user.extra ? { extra: user.extra } : {}),
      nonResourceAttributes: { path, verb },
    };
    const key = sha256(JSON.stringify(spec));
    const cached = decisions.get(key);
    if (cached) return cached;
    return limiter.run(`sar:${key}`, async () => {
      const review = await rest.request<SubjectAccessReviewStatus>({
        method: "POST",
        path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        body: { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec },
        timeoutMs: o.reviewTimeoutMs,
        retries: 2,
      });
      const allowed = review.status?.allowed === true && review.status.denied !== true;
      const decision = {
        allowed,
        reason: review.status?.reason || review.status?.evaluationError || "",
      };
      decisions.set(key, decision, allowed ? o.allowCacheTtlMs : o.denyCacheTtlMs);
      return decision;
    });
  };

  const tooMany = (res: http.ServerResponse) => {
    // kube-apiserver's answer when its in-flight limit is reached.
    res.setHeader("Retry-After", "1");
    httpError(res, 429, "Too many requests, please try again later.");
  };

  return (log, handler) => async (req, res) => {
    const token = bearerToken(req.headers.authorization);
    let user: UserInfo | null = null;
    if (token) {
      try {
        user = await authenticate(token);
      } catch (err) {
        if (err instanceof TooManyRequestsError) return tooMany(res);
        log.error("Authentication failed", err);
        return httpError(res, 500, "Authentication failed");
      }
    }
    if (!user) {
      log.debug("Authentication failed");
      return httpError(res, 401, "Unauthorized");
    }
    const verb = (req.method ?? "GET").toLowerCase();
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    let decision: { allowed: boolean; reason: string };
    try {
      decision = await authorize(user, verb, path);
    } catch (err) {
      if (err instanceof TooManyRequestsError) return tooMany(res);
      const msg = `Authorization for user ${user.username} failed`;
      log.error(msg, err);
      return httpError(res, 500, msg);
    }
    if (!decision.allowed) {
      const msg = `Authorization denied for user ${user.username}`;
      log.debug(`${msg}: ${decision.reason}`);
      return httpError(res, 403, msg);
    }
    await handler(req, res);
  };
}
