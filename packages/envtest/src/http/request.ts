/**
 * URL parsing for the Kubernetes REST layout (`/api/v1/...`, `/apis/<g>/<v>/...`,
 * `namespaces/<ns>/<resource>/<name>/<subresource>`, the deprecated `/watch/` prefix) and the
 * verb each method/path pair maps to.
 */

export interface ResourcePath {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** The deprecated /watch/ prefix was used. */
  watchPrefix: boolean;
}

export type Verb =
  | "get"
  | "list"
  | "watch"
  | "create"
  | "update"
  | "patch"
  | "delete"
  | "deletecollection";

/** Parses the resource part of a path; undefined when the path is not a resource path. */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  let segs = pathname.split("/").filter((s) => s !== "");
  // Most paths carry no escapes: decoding each segment is then work for nothing.
  if (pathname.includes("%")) {
    try {
      segs = segs.map(decodeURIComponent);
    } catch {
      // Malformed percent-encoding names no resource.
      return undefined;
    }
  }
  let group: string;
  let version: string;
  let rest: string[];
  if (segs[0] === "api" && segs.length >= 3) {
    group = "";
    version = segs[1]!;
    rest = segs.slice(2);
  } else if (segs[0] === "apis" && segs.length >= 4) {
    group = segs[1]!;
    version = segs[2]!;
    rest = segs.slice(3);
  } else {
    return undefined;
  }
  let watchPrefix = false;
  if (rest[0] === "watch") {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  const isCoreNamespaces = group === "" && rest[0] === "namespaces";
  if (
    rest[0] === "namespaces" &&
    rest.length >= 3 &&
    !(isCoreNamespaces && rest.length === 3 && (rest[2] === "status" || rest[2] === "finalize"))
  ) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (!takesSubpath(subresource, extra)) return undefined;
    return {
      group,
      version,
      namespace,
      resource: resource!,
      ...(name !== undefined ? { name } : {}),
      ...(subresource !== undefined ? { subresource } : {}),
      watchPrefix,
    };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource || !takesSubpath(subresource, extra)) return undefined;
  return {
    group,
    version,
    resource,
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
    watchPrefix,
  };
}

/**
 * Only `proxy` takes segments after the subresource (`pods/web/proxy/healthz`): kube hands them
 * to the backend as the request's path.
 */
function takesSubpath(subresource: string | undefined, extra: string[]): boolean {
  return extra.length === 0 || subresource === "proxy";
}

/** The API verb of a request (`watch` for GET collection with ?watch). */
export function verbOf(method: string, path: ResourcePath, watch: boolean): Verb | undefined {
  const item = path.name !== undefined;
  switch (method) {
    case "GET":
    case "HEAD":
      // A proxied request's query is its backend's: ?watch is no watch of the object.
      if (path.subresource === "proxy") return path.watchPrefix ? "watch" : "get";
      if (watch || path.watchPrefix) return "watch";
      return item ? "get" : "list";
    case "POST":
      // POST to an object is a create only on a subresource (`.../token`, `.../eviction`).
      return item && path.subresource === undefined ? undefined : "create";
    case "PUT":
      return item ? "update" : undefined;
    case "PATCH":
      return item ? "patch" : undefined;
    case "DELETE":
      return item ? "delete" : "deletecollection";
    default:
      return undefined;
  }
}
