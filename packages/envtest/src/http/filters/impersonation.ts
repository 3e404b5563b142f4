/**
 * Impersonation (`endpoints/filters/impersonation.go`): `Impersonate-User`, `-Uid`, `-Group` and
 * `-Extra-<key>` headers make the rest of the chain run as another user, once the authenticated
 * user is allowed the `impersonate` verb on each (users or serviceaccounts, groups, uids,
 * userextras/<key>). A service-account username gets its account's groups when no group is given;
 * every impersonated non-anonymous user is also `system:authenticated`, as kube adds it.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { UserInfo } from "../../rest/scope.js";
import type { Attributes } from "./authorization.js";
import type { Filter } from "./context.js";

type Authorize = (attrs: Attributes) => string | undefined;

const SA_USER = /^system:serviceaccount:([^:]+):([^:]+)$/;

interface Requested {
  user?: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** The impersonation headers, each repeated header line kept apart (not comma-joined). */
function requested(headers: NodeJS.Dict<string[]>): Requested | undefined {
  const values = (name: string): string[] => headers[name] ?? [];
  const out: Requested = { groups: values("impersonate-group"), extra: {} };
  const user = values("impersonate-user")[0];
  const uid = values("impersonate-uid")[0];
  if (user !== undefined) out.user = user;
  if (uid !== undefined) out.uid = uid;
  for (const name of Object.keys(headers)) {
    if (!name.startsWith("impersonate-extra-")) continue;
    const key = decodeURIComponent(name.slice("impersonate-extra-".length)).toLowerCase();
    out.extra[key] = values(name);
  }
  const any =
    out.user !== undefined ||
    out.uid !== undefined ||
    out.groups.length > 0 ||
    Object.keys(out.extra).length > 0;
  return any ? out : undefined;
}

/** kube's Forbidden text for a denied impersonation, as for any resource. */
function forbidden(a: Attributes, reason: string): ApiError {
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const where = a.namespace ? ` in the namespace "${a.namespace}"` : " at the cluster scope";
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return new ApiError(
    403,
    "Forbidden",
    `${qualified} "${a.name ?? ""}" is forbidden: User "${a.user.name}" cannot impersonate resource "${resource}" in API group "${a.group}"${where}${reason ? `: ${reason}` : ""}`,
    {
      ...(a.name ? { name: a.name } : {}),
      ...(a.group ? { group: a.group } : {}),
      kind: a.resource,
    },
  );
}

export function impersonation(authorize: Authorize | undefined): Filter {
  return async (ctx, next) => {
    // Most requests impersonate no one: look at the parsed headers before building the
    // per-line view (headersDistinct is a second parse of every header).
    if (!Object.keys(ctx.req.headers).some((h) => h.startsWith("impersonate-"))) return next();
    const want = requested(ctx.req.headersDistinct);
    if (!want) return next();
    const requester = ctx.user!;
    if (want.user === undefined) {
      const asked = [
        ...want.groups.map((g) => `Impersonate-Group: ${g}`),
        ...(want.uid !== undefined ? [`Impersonate-Uid: ${want.uid}`] : []),
        ...Object.keys(want.extra).map((k) => `Impersonate-Extra-${k}`),
      ];
      throw errors.internal(`requested [${asked.join(" ")}] without impersonating a user`);
    }
    const base = {
      user: requester,
      verb: "impersonate",
      path: ctx.info.path,
      resourceRequest: true,
    };
    const checks: Attributes[] = [];
    const sa = SA_USER.exec(want.user);
    checks.push(
      sa
        ? { ...base, group: "", resource: "serviceaccounts", namespace: sa[1]!, name: sa[2]! }
        : { ...base, group: "", resource: "users", name: want.user },
    );
    for (const g of want.groups) checks.push({ ...base, group: "", resource: "groups", name: g });
    if (want.uid !== undefined) {
      checks.push({ ...base, group: "authentication.k8s.io", resource: "uids", name: want.uid });
    }
    for (const [key, vals] of Object.entries(want.extra)) {
      for (const v of vals) {
        checks.push({
          ...base,
          group: "authentication.k8s.io",
          resource: "userextras",
          subresource: key,
          name: v,
        });
      }
    }
    for (const attrs of checks) {
      const denied = authorize?.(attrs);
      if (denied !== undefined) throw forbidden(attrs, denied);
    }
    let groups = want.groups;
    if (sa && groups.length === 0)
      groups = ["system:serviceaccounts", `system:serviceaccounts:${sa[1]}`];
    if (want.user !== "system:anonymous") {
      if (!groups.includes("system:authenticated") && !groups.includes("system:unauthenticated")) {
        groups = [...groups, "system:authenticated"];
      }
    } else if (!groups.includes("system:unauthenticated")) {
      groups = [...groups, "system:unauthenticated"];
    }
    const user: UserInfo = {
      name: want.user,
      groups,
      ...(want.uid !== undefined ? { uid: want.uid } : {}),
      ...(Object.keys(want.extra).length > 0 ? { extra: want.extra } : {}),
    };
    ctx.authenticatedUser = requester;
    ctx.user = user;
    await next();
  };
}
