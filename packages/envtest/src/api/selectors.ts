/**
 * Label and field selectors with the grammar and errors of apimachinery's `pkg/labels` and
 * `pkg/fields`: `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k>n`, `k<n`,
 * comma meaning AND. A tokenizer, not a split on commas, so `in (a,b)` parses.
 */
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject, ResourceInfo } from "./types.js";

type Op = "exists" | "!" | "=" | "!=" | "in" | "notin" | ">" | "<";

interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

export type LabelSelector = (labels: Record<string, string> | undefined) => boolean;

const qualifiedNameRe = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const dnsSubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function keyError(key: string): string | undefined {
  const slash = key.indexOf("/");
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefix = slash >= 0 ? key.slice(0, slash) : "";
  if (slash >= 0 && (!prefix || prefix.length > 253 || !dnsSubdomainRe.test(prefix))) {
    return `prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
  }
  if (!name || name.length > 63 || !qualifiedNameRe.test(name)) {
    return `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
  }
  return undefined;
}

type Token = { t: "id"; v: string } | { t: "op"; v: string };

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const special = "!=<>(),";
  while (i < s.length) {
    const c = s[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (special.includes(c)) {
      const two = s.slice(i, i + 2);
      if (two === "==" || two === "!=") {
        out.push({ t: "op", v: two });
        i += 2;
      } else {
        out.push({ t: "op", v: c });
        i++;
      }
      continue;
    }
    let j = i;
    while (j < s.length && !special.includes(s[j]!) && s[j] !== " " && s[j] !== "\t") j++;
    out.push({ t: "id", v: s.slice(i, j) });
    i = j;
  }
  return out;
}

function parseError(msg: string): Error {
  return errors.badRequest(`unable to parse requirement: ${msg}`);
}

/** Parses a label selector string; throws 400 BadRequest on a syntax error. */
export function parseLabelSelector(selector: string): LabelSelector {
  const reqs: Requirement[] = [];
  const toks = tokenize(selector);
  let i = 0;
  const peek = () => toks[i];
  while (i < toks.length) {
    let op: Op | undefined;
    let key: string;
    const first = toks[i++]!;
    if (first.t === "op" && first.v === "!") {
      const k = toks[i++];
      if (k?.t !== "id") throw parseError("found '', expected: identifier");
      key = k.v;
      op = "!";
    } else if (first.t === "id") {
      key = first.v;
    } else {
      throw parseError(`found '${first.v}', expected: !, identifier, or 'end of string'`);
    }
    const err = keyError(key);
    if (err) throw parseError(`<nil>: Invalid value: "${key}": ${err}`);
    const values: string[] = [];
    if (!op) {
      const next = peek();
      if (!next || (next.t === "op" && next.v === ",")) {
        op = "exists";
      } else if (next.t === "op" && ["=", "==", "!=", ">", "<"].includes(next.v)) {
        i++;
        op = next.v === "==" ? "=" : (next.v as Op);
        const val = peek();
        if (val && val.t === "id") {
          values.push(val.v);
          i++;
        } else {
          values.push("");
        }
        if (op === ">" || op === "<") {
          if (!/^-?\d+$/.test(values[0]!)) {
            throw parseError(
              `for 'Gt', 'Lt' operators, the value must be an integer: strconv.ParseInt: parsing "${values[0]}": invalid syntax`,
            );
          }
        }
      } else if (next.t === "id" && (next.v === "in" || next.v === "notin")) {
        i++;
        op = next.v;
        const open = toks[i++];
        if (open?.t !== "op" || open.v !== "(") {
          throw parseError(`found '${open?.v ?? ""}', expected: '('`);
        }
        for (;;) {
          const v = toks[i++];
          if (!v) throw parseError("found '', expected: ',', ')' or identifier");
          if (v.t === "op" && v.v === ")") break;
          if (v.t === "op" && v.v === ",") {
            // `(a,,b)` or `(,a)`: an empty value between commas.
            values.push("");
            continue;
          }
          if (v.t !== "id") throw parseError(`found '${v.v}', expected: ',', ')' or identifier`);
          values.push(v.v);
          const sep = toks[i];
          if (sep && sep.t === "op" && sep.v === ",") i++;
        }
        if (values.length === 0) {
          throw parseError(`for 'in', 'notin' operators, values set can't be empty`);
        }
      } else {
        throw parseError(`found '${next.v}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    for (const v of values) {
      if (v.length > 63 || !labelValueRe.test(v)) {
        throw parseError(
          `<nil>: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        );
      }
    }
    reqs.push({ key, op, values });
    const sep = toks[i];
    if (sep) {
      if (sep.t === "op" && sep.v === ",") i++;
      else throw parseError(`found '${sep.v}', expected: ',' or 'end of string'`);
    }
  }
  return (labels) => reqs.every((r) => matches(r, labels ?? {}));
}

function matches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case "exists":
      return has;
    case "!":
      return !has;
    case "=":
    case "in":
      return has && r.values.includes(v!);
    case "!=":
    case "notin":
      return !has || !r.values.includes(v!);
    case ">":
    case "<": {
      if (!has || !/^-?\d+$/.test(v!)) return false;
      const n = Number(v);
      const want = Number(r.values[0]);
      return r.op === ">" ? n > want : n < want;
    }
  }
}

/** Formats a LabelSelector object (matchLabels/matchExpressions) as a selector string. */
export function formatLabelSelector(sel: unknown): string {
  if (!sel || typeof sel !== "object") return "";
  const s = sel as {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  const parts: string[] = [];
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) parts.push(`${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(",");
    if (e.operator === "In") parts.push(`${e.key} in (${vals})`);
    else if (e.operator === "NotIn") parts.push(`${e.key} notin (${vals})`);
    else if (e.operator === "Exists") parts.push(e.key);
    else if (e.operator === "DoesNotExist") parts.push(`!${e.key}`);
  }
  return parts.sort().join(",");
}

export type FieldSelector = (obj: KubeObject) => boolean;

/** Parses a field selector against the field labels the resource supports. */
export function parseFieldSelector(selector: string, info: ResourceInfo): FieldSelector {
  const terms: { key: string; neg: boolean; value: string }[] = [];
  for (const raw of splitTerms(selector)) {
    const term = raw.trim();
    if (!term) continue;
    const m = /^([^!=]+?)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!m) throw errors.badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    const key = m[1]!.trim();
    terms.push({ key, neg: m[2] === "!=", value: unescapeValue(m[3]!.trim()) });
  }
  const getters: ((o: KubeObject) => string | undefined)[] = [];
  for (const t of terms) {
    if (t.key === "metadata.name") getters.push((o) => o.metadata?.name);
    else if (t.key === "metadata.namespace" && info.namespaced) {
      getters.push((o) => o.metadata?.namespace);
    } else if (info.fieldLabels?.[t.key]) getters.push(info.fieldLabels[t.key]!);
    else if (info.custom) throw errors.badRequest(`field label not supported: ${t.key}`);
    else {
      throw errors.badRequest(
        `"${t.key}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
  }
  return (obj) =>
    terms.every((t, i) => {
      const v = getters[i]!(obj) ?? "";
      return t.neg ? v !== t.value : v === t.value;
    });
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
