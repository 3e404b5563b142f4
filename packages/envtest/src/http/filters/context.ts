/**
 * The request context the filter chain passes along (kube-apiserver's request-scoped values:
 * request info, the user, warnings), and the chain itself: each filter does its one job and calls
 * `next`, or answers (by throwing an ApiError) and stops the request there.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserInfo } from "../../rest/scope.js";
import type { RequestInfo } from "./request-info.js";

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: RequestInfo;
  /** Set by authentication, replaced by impersonation. */
  user?: UserInfo;
  /** Who authenticated, when the request runs as someone else. */
  authenticatedUser?: UserInfo;
  /** `Warning: 299` headers to send with the answer. */
  readonly warnings: string[];
}

export type Filter = (ctx: RequestContext, next: () => Promise<void>) => Promise<void>;

/** Runs `filters` in order around `handler`. */
export function chain(
  filters: readonly Filter[],
  handler: (ctx: RequestContext) => Promise<void>,
): (ctx: RequestContext) => Promise<void> {
  return (ctx) => {
    const run = (i: number): Promise<void> =>
      i < filters.length ? filters[i]!(ctx, () => run(i + 1)) : handler(ctx);
    return run(0);
  };
}
