/**
 * Authorization (`endpoints/filters/authorization.go`): the request's attributes (user, verb,
 * resource or path) go to the authorizer (envtest's RBAC when enabled, allow-all otherwise); a
 * denial is kube's 403 text. The public health and version endpoints are always allowed, as the
 * `system:public-info-viewer` binding allows them on a cluster.
 */
import { ApiError } from "@opgen/apimachinery/status";
import type { Attributes } from "../../auth/attributes.js";
import type { UserInfo } from "../../rest/scope.js";
import { isPublicPath } from "./authentication.js";
import type { Filter } from "./context.js";
import { authorizationVerb } from "./request-info.js";

export type { Attributes };

/** The authorization attributes of the request in `ctx`. */
export function attributesOf(
  info: import("./request-info.js").RequestInfo,
  user: UserInfo,
): Attributes {
  const rp = info.resource;
  if (!rp) {
    return {
      user,
      verb: authorizationVerb(info),
      group: "",
      resource: "",
      path: info.path,
      resourceRequest: false,
    };
  }
  return {
    user,
    verb: authorizationVerb(info),
    group: rp.group,
    resource: rp.resource,
    ...(rp.subresource ? { subresource: rp.subresource } : {}),
    ...(rp.namespace !== undefined ? { namespace: rp.namespace } : {}),
    ...(rp.name !== undefined ? { name: rp.name } : {}),
    path: info.path,
    resourceRequest: true,
  };
}

/** The 403 kube-apiserver answers when the authorizer denies `a` (its message names verb, resource and scope). */
export function forbidden(a: Attributes, reason: string): ApiError {
  if (!a.resourceRequest) {
    return new ApiError(
      403,
      "Forbidden",
      `forbidden: User "${a.user.name}" cannot ${a.verb} path "${a.path}"`,
      {},
    );
  }
  // The Forbidden subject names the resource without its subresource (NewForbidden).
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const where =
    a.namespace !== undefined ? ` in the namespace "${a.namespace}"` : " at the cluster scope";
  return new ApiError(
    403,
    "Forbidden",
    `${subject} is forbidden: User "${a.user.name}" cannot ${a.verb} resource "${a.resource}${a.subresource ? `/${a.subresource}` : ""}" in API group "${a.group}"${where}${reason ? `: ${reason}` : ""}`,
    {
      ...(a.name ? { name: a.name } : {}),
      ...(a.group ? { group: a.group } : {}),
      kind: a.resource,
    },
  );
}

export function authorization(
  authorize: ((a: Attributes) => string | undefined) | undefined,
): Filter {
  return async (ctx, next) => {
    if (!isPublicPath(ctx.info.path)) {
      const attrs = attributesOf(ctx.info, ctx.user!);
      const denied = authorize?.(attrs);
      if (denied !== undefined) throw forbidden(attrs, denied);
    }
    await next();
  };
}
