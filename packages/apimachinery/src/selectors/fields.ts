/**
 * Field selectors with the grammar and errors of k8s.io/apimachinery `pkg/fields`: terms joined by
 * unescaped commas, each `field=value`, `field==value` or `field!=value`, with `\,` `\=` `\\`
 * escapes in values. Which fields a resource supports is the caller's business (envtest's strategies,
 * the runtime's cache); this module parses and matches.
 */
import { errors } from "../status/errors.js";

export interface FieldRequirement {
  readonly field: string;
  readonly operator: "=" | "!=";
  readonly value: string;
}

/** A parsed field selector: requirements ANDed together; empty matches everything. */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  /** Matches a value getter; an absent field reads as the empty string, as on the server. */
  matches(get: (field: string) => string | undefined): boolean;
  empty(): boolean;
  toString(): string;
}

/** Parses a field selector; throws a 400 BadRequest ApiError with kube's message. */
export function parseFieldSelector(selector: string): FieldSelector {
  const reqs: FieldRequirement[] = [];
  for (const raw of splitTerms(selector)) {
    const term = raw.trim();
    if (!term) continue;
    const m = /^([^!=]+?)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!m) throw errors.badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    reqs.push({
      field: m[1]!.trim(),
      operator: m[2] === "!=" ? "!=" : "=",
      value: unescapeValue(m[3]!.trim()),
    });
  }
  return {
    requirements: reqs,
    matches: (get) =>
      reqs.every((r) => {
        const v = get(r.field) ?? "";
        return r.operator === "!=" ? v !== r.value : v === r.value;
      }),
    empty: () => reqs.length === 0,
    toString: () => reqs.map((r) => `${r.field}${r.operator}${escapeValue(r.value)}`).join(","),
  };
}

function splitTerms(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === ",") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function unescapeValue(v: string): string {
  return v.replace(/\\(.)/g, "$1");
}

/** fields.EscapeValue: `\`, `,` and `=` escaped with a backslash. */
export function escapeValue(v: string): string {
  return v.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** The value of a dotted field path (`metadata.name`, `spec.nodeName`) of an object as a string. */
export function fieldValue(obj: unknown, path: string): string | undefined {
  let cur: unknown = obj;
  for (const seg of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  if (cur === undefined || cur === null) return undefined;
  return typeof cur === "object" ? JSON.stringify(cur) : String(cur);
}
