/**
 * What a request is about, resolved once from its method and URL (kube-apiserver's
 * RequestInfoFactory): a resource request's verb, group, version, resource, subresource, namespace
 * and name, or a non-resource path. Every filter and the handler read it; none parses the URL again.
 */
import type { IncomingMessage } from "node:http";
import { parseBool } from "../../rest/scope.js";
import { parseResourcePath, type ResourcePath, type Verb, verbOf } from "../request.js";

export interface RequestInfo {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** The resource parts, for a resource request. */
  readonly resource?: ResourcePath;
  /** The API verb (`get`, `list`, `watch`, ...), or undefined when the method does not apply. */
  readonly verb?: Verb;
}

export function requestInfo(req: IncomingMessage): RequestInfo {
  const url = new URL(req.url ?? "/", "https://localhost");
  const method = req.method ?? "GET";
  const resource = parseResourcePath(url.pathname);
  const verb = resource
    ? verbOf(method, resource, parseBool(url.searchParams.get("watch")))
    : undefined;
  return {
    method,
    path: url.pathname,
    query: url.searchParams,
    ...(resource ? { resource } : {}),
    ...(verb ? { verb } : {}),
  };
}

/** The authorization verb: the API verb of a resource request, the lower-cased method otherwise. */
export function authorizationVerb(info: RequestInfo): string {
  return info.verb ?? info.method.toLowerCase();
}
