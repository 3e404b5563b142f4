/**
 * The per-request view a REST operation works with (RequestScope, defined with the resource it
 * names in api/resource.ts), and the parsing of its boolean query parameters.
 */
export type { RequestScope, UserInfo } from "../api/resource.js";

/** Go's strconv.ParseBool, as the apiserver parses boolean query parameters. */
export function parseBool(v: string | null): boolean {
  return v === "1" || v === "t" || v === "T" || v === "true" || v === "TRUE" || v === "True";
}
