/**
 * Kubernetes' CEL URL library (`library/urls.go`): `url()`, `isURL()` and the `kubernetes.URL`
 * getters, with Go's `url.ParseRequestURI` rules: an absolute URI (`scheme://...` or
 * `scheme:/...`) or an absolute path; no fragment is split off. Parsed by hand because WHATWG
 * URL (Node's) normalises what Go keeps (default ports, case, dot segments).
 */
import type { Environment } from "@marcbachmann/cel-js";
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
  let rest = s;
  let scheme = "";
  if (!s.startsWith("/")) {
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
    if (!m) return invalid;
    scheme = (m[1] as string).toLowerCase();
    rest = s.slice(m[0].length);
    if (!rest.startsWith("/")) return invalid;
  }
  let rawQuery = "";
  const q = rest.indexOf("?");
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = "";
  if (scheme && rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? "" : rest.slice(end);
    host = authority.slice(authority.lastIndexOf("@") + 1);
    if (
      /^\[/.test(host) ? !/^\[[0-9A-Fa-f:.]+(%[^\]]+)?\](:\d*)?$/.test(host) : /[[\]]/.test(host)
    ) {
      return `parse ${JSON.stringify(s)}: invalid host`;
    }
    const port = /:([^:\]]*)$/.exec(host)?.[1];
    if (port !== undefined && !/^\d*$/.test(port)) {
      return `parse ${JSON.stringify(s)}: invalid port ${JSON.stringify(`:${port}`)} after host`;
    }
  }
  return new CelURL(scheme, host, rest, rawQuery, s);
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
