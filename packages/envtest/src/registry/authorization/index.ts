/**
 * The authorization.k8s.io group (`pkg/registry/authorization`): the access reviews, answered
 * from RBAC (auth/rbac.ts) and never stored. Without RBAC everyone may do everything, as kube's
 * AlwaysAllow authorizer answers, and as the admin may.
 */
import { errors } from "@opgen/apimachinery/status";
import type {
  KubeObject,
  ResourceDefinition,
  VirtualCreate,
  VirtualScope,
} from "../../api/types.js";
import type { DefinitionContext, GroupDefinitions } from "../context.js";

/** A review of `resource`, asked by the request's user. */
function review(ctx: DefinitionContext, resource: string): VirtualCreate {
  return (scope, body) => {
    const rbac = ctx.authorization === "rbac";
    const caller = rbac ? scope.user : { name: scope.user.name, groups: ["system:masters"] };
    const answer = ctx.rbac.review(resource, caller, body, !rbac);
    if (!answer) throw errors.notFoundPath();
    return { code: 201, body: answer };
  };
}

/**
 * A LocalSubjectAccessReview asks about resources (never URLs) in the namespace it is posted to
 * (`pkg/registry/authorization/localsubjectaccessreview` REST.Create).
 */
function localReviewBody(scope: VirtualScope, body: KubeObject): KubeObject {
  const spec = (body.spec ?? {}) as {
    resourceAttributes?: { namespace?: string };
    nonResourceAttributes?: unknown;
  };
  const ra = spec.resourceAttributes;
  if (spec.nonResourceAttributes !== undefined || !ra)
    throw errors.invalid("LocalSubjectAccessReview", "authorization.k8s.io", "", [
      spec.nonResourceAttributes !== undefined
        ? {
            type: "FieldValueInvalid",
            field: "spec.nonResourceAttributes",
            value: spec.nonResourceAttributes,
            detail: "disallowed on this kind of request",
          }
        : {
            type: "FieldValueRequired",
            field: "spec.resourceAttributes",
            detail: "exactly one of nonResourceAttributes or resourceAttributes must be specified",
          },
    ]);
  if (ra.namespace !== scope.namespace)
    throw errors.badRequest(
      `spec.resourceAttributes.namespace must match namespace: ${scope.namespace}`,
    );
  return { ...body, metadata: { ...(body.metadata ?? {}), namespace: scope.namespace! } };
}

export const authorization: GroupDefinitions = {
  group: "authorization.k8s.io",
  resources: (ctx): ResourceDefinition[] => [
    { resource: "selfsubjectaccessreviews", virtual: review(ctx, "selfsubjectaccessreviews") },
    { resource: "selfsubjectrulesreviews", virtual: review(ctx, "selfsubjectrulesreviews") },
    { resource: "subjectaccessreviews", virtual: review(ctx, "subjectaccessreviews") },
    {
      resource: "localsubjectaccessreviews",
      virtual: (scope, body) =>
        review(ctx, "localsubjectaccessreviews")(scope, localReviewBody(scope, body)),
    },
  ],
};
