/**
 * The fault-injection hook tests install (`env.faults`): it runs where kube-apiserver's
 * max-in-flight and priority-and-fairness filters sit, after authorization, so an injected 429 or
 * 500 answers an authorized request as an overloaded server would.
 */

import { isPublicPath } from "./authentication.js";
import { type Attributes, attributesOf } from "./authorization.js";
import type { Filter } from "./context.js";

export function faults(before: ((attrs: Attributes) => Promise<void>) | undefined): Filter {
  return async (ctx, next) => {
    // Health and version answer even under injected faults, as probes of a loaded server do.
    if (before && !isPublicPath(ctx.info.path)) await before(attributesOf(ctx.info, ctx.user!));
    await next();
  };
}
