/**
 * Fault injection for reliability tests: end every watch, expire watch history (the next watch
 * from an old resourceVersion gets 410 Expired), fail the next matching requests with a chosen
 * code (409/429/500/503, with Retry-After), or delay every request.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { Attributes } from "./http/handler.js";
import type { ApiServer } from "./server.js";

export interface FailNextOptions {
  /** API verb to match (get, list, watch, create, update, patch, delete, …); any if unset. */
  verb?: string;
  /** Resource (plural, optionally `plural/subresource`) to match; any if unset. */
  resource?: string;
  code: 409 | 429 | 500 | 503;
  /** How many requests fail (default 1). */
  count?: number;
  /** Seconds for the Retry-After header and details.retryAfterSeconds. */
  retryAfter?: number;
}

export interface Faults {
  /** Ends every open watch now; clients re-watch from their last resourceVersion. */
  dropWatches(): void;
  /** Forgets watch history: the next watch from an older resourceVersion gets 410 Expired. */
  expireHistory(): void;
  /** Fails the next `count` matching requests with `code`. */
  failNext(opts: FailNextOptions): void;
  /** Delays every request by `ms` (0 turns it off). */
  delay(ms: number): void;
  /** Removes pending failures and delays. */
  reset(): void;
}

interface Pending extends FailNextOptions {
  remaining: number;
}

function failure(p: Pending, a: Attributes): ApiError {
  const gr = { group: a.group, resource: a.resource };
  const name = a.name ?? "";
  switch (p.code) {
    case 409:
      return errors.optimisticLock(gr, name);
    case 429:
      return errors.tooManyRequests(
        "Too many requests, please try again later.",
        p.retryAfter ?? 1,
      );
    case 503:
      return new ApiError(
        503,
        "ServiceUnavailable",
        "the server is currently unable to handle the request",
        p.retryAfter !== undefined ? { retryAfterSeconds: p.retryAfter } : undefined,
        p.retryAfter !== undefined ? { "Retry-After": String(p.retryAfter) } : {},
      );
    default:
      return errors.internal("injected fault");
  }
}

export function createFaults(server: ApiServer): Faults {
  let pending: Pending[] = [];
  let delayMs = 0;
  server.before = async (a) => {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (!a.resourceRequest) return;
    const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const hit = pending.find(
      (p) =>
        p.remaining > 0 &&
        (!p.verb || p.verb === a.verb) &&
        (!p.resource || p.resource === res || p.resource === a.resource),
    );
    if (!hit) return;
    hit.remaining--;
    pending = pending.filter((p) => p.remaining > 0);
    throw failure(hit, a);
  };
  return {
    dropWatches: () => server.dropWatches(),
    expireHistory: () => server.store.compact(),
    failNext(opts) {
      pending.push({ ...opts, remaining: opts.count ?? 1 });
    },
    delay(ms) {
      delayMs = ms;
    },
    reset() {
      pending = [];
      delayMs = 0;
    },
  };
}
