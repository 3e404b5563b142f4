/**
 * Kubernetes' CEL URL library (`library/urls.go`): `url()`, `isURL()` and the `kubernetes.URL`
 * getters, with Go's `url.ParseRequestURI` rules (../../internal/go-url.ts): an absolute URI
 * (`scheme://...` or `scheme:/...`) or an absolute path; no fragment is split off.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { parseGoUrl } from "../../internal/go-url.js";
import { celError } from "./values.js";

const TYPE = "kubernetes.URL";

class CelURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly text: string,
  ) {}
  equals(other: unknown): boolean {
    return other instanceof CelURL && other.text === this.text;
  }
}

export function parseRequestURI(s: string): CelURL | string {
  const invalid = `parse ${JSON.stringify(s)}: invalid URI for request`;
  // Go refuses ASCII control characters and spaces anywhere in a request URI.
  if (s === "" || [...s].some((c) => c <= " " || c === "\x7f")) return invalid;
  const u = parseGoUrl(s, true);
  if ("error" in u) return u.error;
  // `scheme:opaque` (mailto:a) is no request URI.
  if (u.scheme && !s.slice(u.scheme.length + 1).startsWith("/")) return invalid;
  return new CelURL(u.scheme, u.host, u.path, u.rawQuery, s);
}

function url(s: string): CelURL {
  const u = parseRequestURI(s);
  if (typeof u === "string") throw celError(`URL parse error during conversion from string: ${u}`);
  return u;
}

function hostname(u: CelURL): string {
  const h = u.host;
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]"));
  const i = h.lastIndexOf(":");
  return i < 0 ? h : h.slice(0, i);
}

function port(u: CelURL): string {
  const h = u.host;
  const after = h.startsWith("[") ? h.slice(h.indexOf("]") + 1) : h;
  const i = after.lastIndexOf(":");
  return i < 0 ? "" : after.slice(i + 1);
}

function unescapeQuery(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** url.Values of Query(): pairs that fail to decode (or hold `;`) are dropped, as Go does. */
function query(u: CelURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of u.rawQuery.split("&")) {
    if (part === "" || part.includes(";")) continue;
    const eq = part.indexOf("=");
    const k = unescapeQuery(eq < 0 ? part : part.slice(0, eq));
    const v = unescapeQuery(eq < 0 ? "" : part.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

export function registerUrls(env: Environment): void {
  env.registerType(TYPE, CelURL);
  env.registerOperator(`${TYPE} == ${TYPE}`, (a: CelURL, b: CelURL) => a.equals(b));
  env.registerFunction(`url(string): ${TYPE}`, url);
  env.registerFunction(
    "isURL(string): bool",
    (s: string) => typeof parseRequestURI(s) !== "string",
  );
  env.registerFunction(`${TYPE}.getScheme(): string`, (u: CelURL) => u.scheme);
  env.registerFunction(`${TYPE}.getHost(): string`, (u: CelURL) => u.host);
  env.registerFunction(`${TYPE}.getHostname(): string`, hostname);
  env.registerFunction(`${TYPE}.getPort(): string`, port);
  env.registerFunction(`${TYPE}.getEscapedPath(): string`, (u: CelURL) => u.path);
  env.registerFunction(`${TYPE}.getQuery(): map<string, list<string>>`, query);
}
