/**
 * kube-apiserver's max-in-flight limit (`--max-requests-inflight` 400 and
 * `--max-mutating-requests-inflight` 200 by default; `endpoints/filters/maxinflight.go`): beyond
 * them a request gets `429 Too many requests, please try again later.` with `Retry-After: 1`.
 * Long-running requests (watches) do not count, as upstream. It sits after impersonation and
 * before authorization, where kube-apiserver's chain has it.
 */
import { errors } from "@opgen/apimachinery/status";
import { isPublicPath } from "./authentication.js";
import type { Filter } from "./context.js";

export interface InFlightLimits {
  readOnly: number;
  mutating: number;
}

export const defaultInFlightLimits: InFlightLimits = { readOnly: 400, mutating: 200 };

export function maxInFlight(limits: InFlightLimits): Filter {
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (ctx, next) => {
    const { info } = ctx;
    if (info.verb === "watch" || isPublicPath(info.path)) return next();
    const kind = info.method === "GET" || info.method === "HEAD" ? "readOnly" : "mutating";
    if (inFlight[kind] >= limits[kind])
      throw errors.tooManyRequests("Too many requests, please try again later.", 1);
    inFlight[kind]++;
    try {
      await next();
    } finally {
      inFlight[kind]--;
    }
  };
}
