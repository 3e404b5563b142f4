/**
 * Redaction of log values: a copy of what a line carries with credentials replaced by
 * "[redacted]", at any depth. What counts as a credential:
 *
 * - a value under a key that names one (token, password, secret, authorization, cookie, api key,
 *   private or client key, key data, credentials; case and separators ignored), unless the key
 *   names a *reference* to one (`secretName`, `tokenSecretRef`, `passwordFile`,
 *   `imagePullSecrets`, `expirationSeconds`...), whose value is a name, a path or a number. Only
 *   strings and byte arrays are replaced, at any depth below such a key except under reference
 *   keys (`secret: { secretName }` keeps the name); a number or a boolean such as
 *   `automountServiceAccountToken` says nothing secret. A credential-named key is redacted
 *   wherever it is, annotations included;
 * - the values of a Secret's `data` and `stringData` (the keys stay: they help debugging and are
 *   not secret). A Secret is recognised by `kind: "Secret"`, or without a kind by a `data` or
 *   `stringData` map next to a Secret `type` (`Opaque`, `kubernetes.io/...`). A ConfigMap's
 *   `data` is configuration and is kept, so `data` is not redacted on its own name;
 * - the value of a `{ name, value }` pair whose name names a credential (container `env`,
 *   kubeconfig `exec.env`);
 * - inside any string (messages and error messages included): a PEM private key, the password
 *   of a URL (`postgres://app:pw@db`), what follows
 *   `Authorization:` or `Authorization=` (its scheme kept), a `Bearer` token, anything shaped
 *   like a JWT;
 * - in a Secret, kubectl's last-applied-configuration annotation (a copy of the whole Secret).
 *
 * A kubeconfig is covered by these rules: `token`, `password`, `client-key-data` (client-node's
 * `keyData`), `auth-provider.config` `id-token`/`refresh-token`/`access-token`/`client-secret`,
 * `exec.env` secrets. `client-certificate-data` and `certificate-authority-data` are public
 * certificates and are kept.
 *
 * Cost is bounded whatever is logged: beyond `maxDepth` levels a value becomes "[too deep]",
 * after `maxNodes` values the rest become "[truncated]", strings are cut at `maxString`
 * characters, and a cycle shows as "[circular]". Input is never mutated.
 */

export const redacted = "[redacted]";

export interface RedactLimits {
  maxDepth: number;
  maxNodes: number;
  maxString: number;
}

export const defaultRedactLimits: RedactLimits = {
  maxDepth: 32,
  maxNodes: 10_000,
  maxString: 64 * 1024,
};

// Compared after lower-casing and dropping "-", "_", "." and spaces, so `client-key-data`,
// `clientKeyData`, `X-Api-Key` and `PRIVATE_KEY` all meet the same rule.
const credential =
  /pass(word|wd|phrase)|pass$|secret|token|authorization|bearer|credential|cookie|apikey|privatekey|clientkey|keydata|sessionid|signature$/;
// Names of things that point at a credential rather than hold one.
const reference =
  /(name|names|ref|refs|reference|namespace|file|path|dir|url|uri|secrets|seconds|ttl|type|kind|audience|audiences|expiration|expirationtimestamp|count|length|enabled|required|mode|policy)$/;

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, "");
}

// Log lines repeat the same few hundred keys: classify each once (bounded, so hostile keys
// cannot grow it).
const classified = new Map<string, number>();
const CREDENTIAL = 1;
const REFERENCE = 2;

function classify(key: string): number {
  let c = classified.get(key);
  if (c === undefined) {
    const k = normalize(key);
    c = (credential.test(k) ? CREDENTIAL : 0) | (reference.test(k) ? REFERENCE : 0);
    if (classified.size < 4096) classified.set(key, c);
  }
  return c;
}

/** Whether a value under `key` is a credential. */
export function isCredentialKey(key: string): boolean {
  return classify(key) === CREDENTIAL;
}

function isReferenceKey(key: string): boolean {
  return (classify(key) & REFERENCE) !== 0;
}

// A header written into text: `Authorization: Basic dXNl...`, `authorization=abc`.
const headerInText =
  /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)([A-Za-z]+\s+)?[^\s"',;]+/gi;
// `Bearer <token>` anywhere. A token has 8+ characters and is not a plain word, so prose such as
// "bearer authentication" is left alone.
const bearer = /\b(bearer)\s+([A-Za-z0-9\-._~+/]{8,}=*)/gi;
const pem = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END \1PRIVATE KEY-----|$)/g;
// The password of a URL's user info: `postgres://app:pw@db`, a kubeconfig `proxy-url`.
const urlPassword = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]+@/gi;
const jwt = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** `s` with PEM private keys, URL passwords, header credentials, bearer tokens and JWTs replaced, cut at `max` characters. */
export function scrubString(s: string, max = defaultRedactLimits.maxString): string {
  const cut = s.length > max ? `${s.slice(0, max)}...[${s.length - max} more characters]` : s;
  if (!/bearer|authorization|eyJ|PRIVATE KEY-----|:\/\//i.test(cut)) return cut;
  return cut
    .replace(pem, redacted)
    .replace(urlPassword, (_m, head: string) => `${head}${redacted}@`)
    .replace(
      headerInText,
      (_m, name: string, sep: string, scheme = "") => `${name}${sep}${scheme}${redacted}`,
    )
    .replace(bearer, (m, scheme: string, token: string) =>
      /^[A-Za-z]+$/.test(token) && token.length < 20 ? m : `${scheme} ${redacted}`,
    )
    .replace(jwt, redacted);
}

const secretType = /^(Opaque$|kubernetes\.io\/|bootstrap\.kubernetes\.io\/|helm\.sh\/)/;

function isSecret(obj: Record<string, unknown>): boolean {
  if (obj.kind === "Secret") return true;
  if (obj.kind !== undefined) return false;
  return (
    typeof obj.type === "string" &&
    secretType.test(obj.type) &&
    (isPlainMap(obj.data) || isPlainMap(obj.stringData))
  );
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isBytes(v: unknown): v is ArrayBufferView | ArrayBuffer {
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
}

/** A redacted copy of `value`, safe to serialise as JSON. */
export function redact(value: unknown, limits: RedactLimits = defaultRedactLimits): unknown {
  return walk(value, false, 0, limits, { nodes: 0, ancestors: new Set() });
}

/** Redacts each field of a log line (the top level is the line's own key/value pairs). */
export function redactFields(
  fields: Record<string, unknown>,
  limits: RedactLimits = defaultRedactLimits,
): Record<string, unknown> {
  return redact(fields, limits) as Record<string, unknown>;
}

interface State {
  nodes: number;
  /** The objects on the path from the root: meeting one again is a cycle. */
  ancestors: Set<object>;
}

/**
 * `hide` is set under a credential key: every string and byte array below it is replaced, except
 * under keys that name a reference (`secret: { secretName }` keeps the name), while numbers and
 * booleans stay (a mode, a flag).
 */
function walk(value: unknown, hide: boolean, depth: number, lim: RedactLimits, st: State): unknown {
  if (++st.nodes > lim.maxNodes) return "[truncated]";
  switch (typeof value) {
    case "string":
      return hide ? redacted : scrubString(value, lim.maxString);
    case "bigint":
      return value.toString();
    case "function":
    case "symbol":
      return undefined;
    case "object":
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (isBytes(value)) return hide ? redacted : `[${value.byteLength} bytes]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= lim.maxDepth) return "[too deep]";
  if (st.ancestors.has(value)) return "[circular]";
  st.ancestors.add(value);
  try {
    if (value instanceof Error) return walkError(value, hide, depth, lim, st);
    if (Array.isArray(value)) return walkArray(value, hide, depth, lim, st);
    if (value instanceof Map || isHeaders(value)) {
      const obj: Record<string, unknown> = {};
      for (const [k, v] of value.entries()) obj[String(k)] = v;
      return walkObject(obj, hide, depth, lim, st);
    }
    const obj = value as Record<string, unknown>;
    if (typeof obj.toJSON === "function") {
      // The form JSON.stringify would write (a Quantity, a URL...), then redacted like the rest.
      const json = (obj.toJSON as () => unknown)();
      if (json !== value) return walk(json, hide, depth + 1, lim, st);
    }
    return walkObject(obj, hide, depth, lim, st);
  } finally {
    st.ancestors.delete(value);
  }
}

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";

function walkObject(
  obj: Record<string, unknown>,
  hide: boolean,
  depth: number,
  lim: RedactLimits,
  st: State,
): Record<string, unknown> {
  const secret = isSecret(obj);
  const envSecret = typeof obj.name === "string" && "value" in obj && isCredentialKey(obj.name);
  const out: Record<string, unknown> = {};
  for (const k in obj) {
    if (!Object.hasOwn(obj, k)) continue;
    if (st.nodes >= lim.maxNodes) {
      out[k] = "[truncated]";
      break;
    }
    const v = obj[k];
    if (secret && (k === "data" || k === "stringData") && isPlainMap(v)) {
      // Every value, whatever its key: a Secret key named "ca-path" still holds secret bytes.
      const keys = Object.keys(v);
      st.nodes += keys.length;
      out[k] = Object.fromEntries(keys.map((key) => [key, redacted]));
      continue;
    }
    const hideChild = hide
      ? !isReferenceKey(k)
      : isCredentialKey(k) || (envSecret && k === "value");
    const w = walk(v, hideChild, depth + 1, lim, st);
    if (w !== undefined) out[k] = w;
  }
  // kubectl's last-applied annotation of a Secret is the whole Secret, data included.
  const annotations = (out.metadata as { annotations?: Record<string, unknown> } | undefined)
    ?.annotations;
  if (secret && annotations && typeof annotations[lastApplied] === "string") {
    annotations[lastApplied] = redacted;
  }
  return out;
}

function walkArray(
  arr: unknown[],
  hide: boolean,
  depth: number,
  lim: RedactLimits,
  st: State,
): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < arr.length; i++) {
    if (st.nodes >= lim.maxNodes) {
      out.push(`[truncated: ${arr.length - i} more items]`);
      break;
    }
    out.push(walk(arr[i], hide, depth + 1, lim, st) ?? null);
  }
  return out;
}

function walkError(
  err: Error,
  hide: boolean,
  depth: number,
  lim: RedactLimits,
  st: State,
): unknown {
  // An Error's message and name are not enumerable: JSON.stringify would write `{}`.
  const out: Record<string, unknown> = {
    message: hide ? redacted : scrubString(err.message, lim.maxString),
  };
  if (err.name && err.name !== "Error") out.name = err.name;
  // `cause` is an own but non-enumerable property: carry it explicitly, redacted like the rest.
  const own: Record<string, unknown> = { ...err };
  if (err.cause !== undefined) own.cause = err.cause;
  const rest = walkObject(own, hide, depth, lim, st);
  delete rest.name;
  return Object.assign(out, rest);
}

interface HeadersLike {
  entries(): IterableIterator<[string, string]>;
  get(name: string): string | null;
  has(name: string): boolean;
}

function isHeaders(v: object): v is HeadersLike {
  return typeof Headers !== "undefined" && v instanceof Headers;
}
