/**
 * The per-request view a REST operation works with: which resource and version, which object,
 * the query options and the caller. Built by the HTTP router, consumed by the REST verbs.
 */
import type { ResourceInfo, ResourceVersionInfo } from "../api/types.js";

export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

export interface RequestScope {
  info: ResourceInfo;
  version: ResourceVersionInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
  query: URLSearchParams;
  user: UserInfo;
  /** fieldManager query parameter, or the User-Agent product name. */
  manager: string;
  /** Warnings to send back as `Warning: 299` headers. */
  warnings: string[];
  /** Fields the JSON body repeated (`spec.replicas`), for strict decoding. */
  duplicateFields?: readonly string[];
  /** The body's text had no null, `{}` or `[]`: nothing for decoding to drop. */
  noEmpties?: boolean;
  /**
   * The caller serializes a write's result at once and never changes it (the HTTP handler): the
   * stored object itself may be returned, as reads do (see view()), saving a deep copy per write.
   */
  readOnlyResult?: boolean;
}

/** Go's strconv.ParseBool, as the apiserver parses boolean query parameters. */
export function parseBool(v: string | null): boolean {
  return v === "1" || v === "t" || v === "T" || v === "true" || v === "TRUE" || v === "True";
}
