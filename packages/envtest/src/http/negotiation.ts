/**
 * Output content negotiation as kube-apiserver decides it (apimachinery's
 * `endpoints/handlers/negotiation`): the client's `Accept` clauses are tried by quality, then by
 * specificity, then in the order written, and the first one the server can answer wins (JSON,
 * YAML and protobuf, in that order for wildcards), so a client-go protobuf client
 * (`application/vnd.kubernetes.protobuf,application/json`) gets protobuf. A watch needs a type
 * with a streaming form (not YAML); custom resources have no protobuf form of their own, so for
 * them a protobuf clause is passed over unless it converts to a meta.k8s.io kind (Table,
 * PartialObjectMetadata), whose messages exist.
 */
export const PROTOBUF = "application/vnd.kubernetes.protobuf";

export const JSON_TYPE = "application/json";
export const YAML_TYPE = "application/yaml";
export type OutputType = typeof JSON_TYPE | typeof YAML_TYPE | typeof PROTOBUF;

/** What the server answers in, in kube's order: what `*\/*` and `application/*` select first. */
export const SERVED_TYPES: readonly OutputType[] = [JSON_TYPE, YAML_TYPE, PROTOBUF];
/** The watch forms kube lists when it refuses a watch's `Accept`. */
export const STREAM_TYPES: readonly string[] = [
  `${JSON_TYPE};stream=watch`,
  `${PROTOBUF};stream=watch`,
];

interface Clause {
  type: string;
  subtype: string;
  params: Map<string, string>;
  q: number;
}

// Clients send a handful of distinct Accept headers, each on every request: parsed once each.
const parsed = new Map<string, readonly Clause[]>();
const PARSED_MAX = 64;
const CACHEABLE_LENGTH = 512;

/** The clauses of an Accept header, best first (quality, then specificity, then as written). */
export function parseAccept(header: string): readonly Clause[] {
  const known = parsed.get(header);
  if (known) return known;
  const clauses = parseClauses(header);
  if (header.length <= CACHEABLE_LENGTH) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(header, clauses);
  }
  return clauses;
}

function parseClauses(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(",")) {
    const [range, ...rest] = part.split(";");
    const mt = range!.trim().toLowerCase();
    if (!mt) continue;
    const slash = mt.indexOf("/");
    const type = slash < 0 ? mt : mt.slice(0, slash);
    const subtype = slash < 0 ? "*" : mt.slice(slash + 1);
    const params = new Map<string, string>();
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf("=");
      const k = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      const v = eq < 0 ? "" : p.slice(eq + 1).trim();
      if (k === "q") q = Number.isNaN(Number(v)) ? 0 : Number(v);
      else if (k) params.set(k, v);
    }
    clauses.push({ type, subtype, params, q });
  }
  const rank = (c: Clause) => (c.type === "*" ? 0 : c.subtype === "*" ? 1 : 2);
  // Array.prototype.sort is stable: equal clauses keep the client's order.
  return clauses.sort((a, b) => b.q - a.q || rank(b) - rank(a));
}

export interface NegotiationOptions {
  /** The resource has protobuf messages (built-ins; not custom resources). */
  protobuf: boolean;
}

const SERVED_PARTS: Record<OutputType, readonly [string, string]> = {
  [JSON_TYPE]: ["application", "json"],
  [YAML_TYPE]: ["application", "yaml"],
  [PROTOBUF]: ["application", "vnd.kubernetes.protobuf"],
};

function matches(c: Clause, served: OutputType): boolean {
  const [type, subtype] = SERVED_PARTS[served];
  return (
    (c.type === "*" && c.subtype === "*") ||
    (c.type === type && (c.subtype === "*" || c.subtype === subtype))
  );
}

/** The transform a clause asks for (`as=Table;g=meta.k8s.io;v=v1`), kube's allowed ones only. */
function allowsTransform(c: Clause): boolean {
  const as = c.params.get("as");
  if (as === undefined) return true;
  const g = c.params.get("g");
  const v = c.params.get("v");
  if (g !== "meta.k8s.io") return false;
  if (as === "Table") return v === "v1" || v === "v1beta1";
  return (
    (as === "PartialObjectMetadata" || as === "PartialObjectMetadataList") &&
    (v === "v1" || v === "v1beta1")
  );
}

/**
 * The type of the answer, or undefined when no clause can be served (a 406). An absent or empty
 * header is JSON.
 */
export function negotiateOutput(
  accept: string | undefined,
  opts: NegotiationOptions,
): OutputType | undefined {
  if (!accept?.trim()) return JSON_TYPE;
  for (const c of parseAccept(accept)) {
    for (const served of SERVED_TYPES) {
      if (!matches(c, served)) continue;
      const stream = c.params.get("stream");
      // `stream=watch` needs a streaming serializer: YAML has none.
      if (stream && (stream !== "watch" || served === YAML_TYPE)) continue;
      if (!allowsTransform(c)) continue;
      if (served === PROTOBUF && !opts.protobuf && !c.params.has("as")) continue;
      return served;
    }
  }
  return undefined;
}

/**
 * The type a Status error is written in: errors are negotiated without the resource's
 * restrictions (`ErrorNegotiated`), so protobuf clients get protobuf Statuses even from custom
 * resource endpoints, and a request nothing can answer gets JSON.
 */
export function errorOutput(accept: string | undefined): OutputType {
  return negotiateOutput(accept, { protobuf: true }) ?? JSON_TYPE;
}
