/**
 * Label and field selectors: parses the selector syntax the API server accepts
 * (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) so lists served from the cache filter exactly as the
 * server would.
 */

type Requirement =
  | { key: string; op: "in"; values: string[] }
  | { key: string; op: "notin"; values: string[] }
  | { key: string; op: "exists" }
  | { key: string; op: "!exists" };

/** A parsed selector; `matches` tests a label (or field) map. */
export interface Selector {
  readonly source: string;
  matches(labels: Record<string, string> | undefined): boolean;
  empty(): boolean;
}

/** Label selector in string form or as `matchLabels`. */
export type LabelSelectorInput = string | Record<string, string>;

/** Parses a selector; throws on malformed input rather than silently matching everything. */
export function parseSelector(input: LabelSelectorInput | undefined): Selector {
  const source = typeof input === "object" ? toSelectorString(input) : (input ?? "").trim();
  const reqs = source ? parseRequirements(source) : [];
  return {
    source,
    empty: () => reqs.length === 0,
    matches(labels) {
      const l = labels ?? {};
      return reqs.every((r) => {
        const has = Object.hasOwn(l, r.key);
        switch (r.op) {
          case "exists":
            return has;
          case "!exists":
            return !has;
          case "in":
            return has && r.values.includes(l[r.key] as string);
          case "notin":
            return !has || !r.values.includes(l[r.key] as string);
          default:
            return false;
        }
      });
    },
  };
}

/** Renders `matchLabels` as a selector string (sorted for stable cache keys). */
export function toSelectorString(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(",");
}

function parseRequirements(src: string): Requirement[] {
  const out: Requirement[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of src) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts) {
    const p = raw.trim();
    if (!p) throw new Error(`invalid selector "${src}": empty requirement`);
    let m = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(p);
    if (m) {
      const values = (m[3] as string)
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      out.push({ key: m[1] as string, op: m[2] as "in" | "notin", values });
      continue;
    }
    m = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(p);
    if (m) {
      const op = m[2] === "!=" ? "notin" : "in";
      out.push({ key: m[1] as string, op, values: [m[3] as string] });
      continue;
    }
    m = /^(!?)([^\s!=(),]+)$/.exec(p);
    if (m) {
      out.push({ key: m[2] as string, op: m[1] ? "!exists" : "exists" });
      continue;
    }
    throw new Error(`invalid selector "${src}": cannot parse "${p}"`);
  }
  return out;
}

/** The value of a dotted field path (e.g. "metadata.name", "spec.nodeName") as a string. */
export function fieldValue(obj: unknown, path: string): string | undefined {
  let cur: unknown = obj;
  for (const seg of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  if (cur === undefined || cur === null) return undefined;
  return typeof cur === "object" ? JSON.stringify(cur) : String(cur);
}

/**
 * A field selector evaluated against objects (`metadata.name=x,status.phase!=Running`); only
 * equality forms exist for fields.
 */
export function parseFieldSelector(input: string | undefined): {
  source: string;
  matches(obj: unknown): boolean;
} {
  const source = (input ?? "").trim();
  const sel = parseSelector(source);
  const keys = source ? source.split(",").map((p) => (p.split(/!=|==|=/)[0] as string).trim()) : [];
  return {
    source,
    matches(obj) {
      const values: Record<string, string> = {};
      for (const k of keys) {
        const v = fieldValue(obj, k);
        // The server treats an absent field as the empty string.
        values[k] = v ?? "";
      }
      return sel.matches(values);
    },
  };
}
