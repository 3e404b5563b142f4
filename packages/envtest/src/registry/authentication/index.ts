/**
 * The authentication.k8s.io group (`pkg/registry/authentication`): SelfSubjectReview and
 * TokenReview, answered (auth/reviews.ts) and never stored.
 */

import type { ResourceDefinition } from "../../api/types.js";
import { selfSubjectReview, tokenReview } from "../../auth/reviews.js";
import type { GroupDefinitions } from "../context.js";

export const authentication: GroupDefinitions = {
  group: "authentication.k8s.io",
  resources: (ctx): ResourceDefinition[] => [
    {
      resource: "selfsubjectreviews",
      virtual: (scope) => ({ code: 201, body: selfSubjectReview(scope.user) }),
    },
    {
      resource: "tokenreviews",
      virtual: (_scope, body) => ({ code: 201, body: tokenReview(ctx.auth, body) }),
    },
  ],
};
