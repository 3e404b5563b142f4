/**
 * Go's net/url parsing, the one reading kube applies to URLs (webhook clientConfig URLs through
 * url.Parse; CEL's url() and the `uri` format through url.ParseRequestURI). Parsed by hand because
 * WHATWG URL (Node's) normalises what Go keeps (default ports, case, dot segments) and accepts or
 * refuses other strings ("example.com/x" is a path to Go).
 */

export interface GoUrl {
  /** Lower-cased, as Go stores it. */
  scheme: string;
  /** What follows `scheme:` when it does not start with "/" (`mailto:a` -> `a`). */
  opaque: string;
  /** `u.User.String()`; undefined without an `@` in the authority. */
  user?: string;
  host: string;
  /** The escaped path, as written. */
  path: string;
  rawQuery: string;
  fragment: string;
}

/** strings.Cut. */
function cut(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + sep.length)];
}

/**
 * url.Parse (`viaRequest` false: the fragment is split off first) or url.ParseRequestURI
 * (`viaRequest` true: an absolute URI or path, no fragment). An error is Go's url.Error text.
 */
export function parseGoUrl(raw: string, viaRequest = false): GoUrl | { error: string } {
  const [input, fragment] = viaRequest ? [raw, ""] : cut(raw, "#");
  const fail = (msg: string) => ({ error: `parse ${JSON.stringify(input)}: ${msg}` });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go refuses exactly these
  if (/[\x00-\x1f\x7f]/.test(input)) return fail("net/url: invalid control character in URL");
  if (input === "" && viaRequest) return fail("empty url");
  const url: GoUrl = { scheme: "", opaque: "", host: "", path: "", rawQuery: "", fragment };
  if (input === "*") return { ...url, path: "*" };
  if (input.startsWith(":")) return fail("missing protocol scheme");
  let rest = input;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (scheme) {
    url.scheme = scheme[1]!.toLowerCase();
    rest = rest.slice(scheme[0].length);
  }
  if (rest.endsWith("?") && rest.indexOf("?") === rest.length - 1) rest = rest.slice(0, -1);
  else [rest, url.rawQuery] = cut(rest, "?");
  if (!rest.startsWith("/")) {
    if (url.scheme) return { ...url, opaque: rest };
    if (viaRequest) return fail("invalid URI for request");
    if (cut(rest, "/")[0].includes(":"))
      return fail("first path segment in URL cannot contain colon");
  }
  if ((url.scheme || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    const afterSlashes = rest.slice(2);
    const slash = afterSlashes.indexOf("/");
    const authority = slash < 0 ? afterSlashes : afterSlashes.slice(0, slash);
    rest = slash < 0 ? "" : afterSlashes.slice(slash);
    const at = authority.lastIndexOf("@");
    if (at >= 0) url.user = authority.slice(0, at);
    const host = authority.slice(at + 1);
    if (/^\[/.test(host) ? !/^\[[0-9A-Fa-f:.]+(%[^\]]+)?\](:\d*)?$/.test(host) : /[[\]]/.test(host))
      return fail("invalid host");
    const port = /:([^:\]]*)$/.exec(host)?.[1];
    if (port !== undefined && !/^\d*$/.test(port))
      return fail(`invalid port ${JSON.stringify(`:${port}`)} after host`);
    url.host = host;
  }
  url.path = rest;
  return url;
}
