/**
 * Label selectors with the grammar, semantics and error texts of k8s.io/apimachinery `pkg/labels`:
 * `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k>n`, `k<n` (gt/lt), comma
 * meaning AND. A tokenizer rather than a split on commas, so `in (a,b)` parses. The API server's
 * list filter and the runtime's cache filter both run this one parser.
 */
import { errors } from "../status/errors.js";

export type Operator =
  | "Exists"
  | "DoesNotExist"
  | "Equals"
  | "NotEquals"
  | "In"
  | "NotIn"
  | "GreaterThan"
  | "LessThan";

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

/** A parsed label selector: requirements ANDed together; empty matches everything. */
export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  empty(): boolean;
  /** The canonical string (labels.Selector.String()): requirements sorted by key. */
  toString(): string;
}

const qualifiedNameRe = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const dnsSubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const integerRe = /^-?\d+$/;

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

function valueError(v: string): string | undefined {
  if (v.length <= 63 && labelValueRe.test(v)) return undefined;
  return `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;
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

const BINARY: Record<string, Operator> = {
  "=": "Equals",
  "==": "Equals",
  "!=": "NotEquals",
  ">": "GreaterThan",
  "<": "LessThan",
};

/** Parses a label selector string; throws a 400 BadRequest ApiError with kube's message. */
export function parseLabelSelector(selector: string): LabelSelector {
  const reqs: Requirement[] = [];
  const toks = tokenize(selector);
  let i = 0;
  while (i < toks.length) {
    let operator: Operator | undefined;
    let key: string;
    const first = toks[i++]!;
    if (first.t === "op" && first.v === "!") {
      const k = toks[i++];
      if (k?.t !== "id") throw parseError("found '', expected: identifier");
      key = k.v;
      operator = "DoesNotExist";
    } else if (first.t === "id") {
      key = first.v;
    } else {
      throw parseError(`found '${first.v}', expected: !, identifier, or 'end of string'`);
    }
    const err = keyError(key);
    if (err) throw parseError(`<nil>: Invalid value: "${key}": ${err}`);
    const values: string[] = [];
    if (!operator) {
      const next = toks[i];
      if (!next || (next.t === "op" && next.v === ",")) {
        operator = "Exists";
      } else if (next.t === "op" && BINARY[next.v]) {
        i++;
        operator = BINARY[next.v]!;
        const val = toks[i];
        if (val && val.t === "id") {
          values.push(val.v);
          i++;
        } else {
          values.push("");
        }
        if (
          (operator === "GreaterThan" || operator === "LessThan") &&
          !integerRe.test(values[0]!)
        ) {
          throw parseError(
            `for 'Gt', 'Lt' operators, the value must be an integer: strconv.ParseInt: parsing "${values[0]}": invalid syntax`,
          );
        }
      } else if (next.t === "id" && (next.v === "in" || next.v === "notin")) {
        i++;
        operator = next.v === "in" ? "In" : "NotIn";
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
      const vErr =
        operator === "GreaterThan" || operator === "LessThan" ? undefined : valueError(v);
      if (vErr) throw parseError(`<nil>: Invalid value: "${v}": ${vErr}`);
    }
    reqs.push({ key, operator, values });
    const sep = toks[i];
    if (sep) {
      if (sep.t === "op" && sep.v === ",") i++;
      else throw parseError(`found '${sep.v}', expected: ',' or 'end of string'`);
    }
  }
  return selectorOf(reqs);
}

function matches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.operator) {
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "Equals":
    case "In":
      return has && r.values.includes(v!);
    case "NotEquals":
    case "NotIn":
      return !has || !r.values.includes(v!);
    case "GreaterThan":
    case "LessThan": {
      if (!has || !integerRe.test(v!)) return false;
      const n = Number(v);
      const want = Number(r.values[0]);
      return r.operator === "GreaterThan" ? n > want : n < want;
    }
  }
}

function requirementString(r: Requirement): string {
  const vals = () => [...r.values].sort().join(",");
  switch (r.operator) {
    case "Exists":
      return r.key;
    case "DoesNotExist":
      return `!${r.key}`;
    case "Equals":
      return `${r.key}=${r.values[0]}`;
    case "NotEquals":
      return `${r.key}!=${r.values[0]}`;
    case "In":
      return `${r.key} in (${vals()})`;
    case "NotIn":
      return `${r.key} notin (${vals()})`;
    case "GreaterThan":
      return `${r.key}>${r.values[0]}`;
    case "LessThan":
      return `${r.key}<${r.values[0]}`;
  }
}

function selectorOf(reqs: Requirement[]): LabelSelector {
  const sorted = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements: sorted,
    matches: (labels) => reqs.every((r) => matches(r, labels ?? {})),
    empty: () => reqs.length === 0,
    toString: () => sorted.map(requirementString).join(","),
  };
}

/** The selector matching exactly a label set (labels.SelectorFromSet), validated as kube does. */
export function selectorFromSet(set: Readonly<Record<string, string>>): LabelSelector {
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(set)) {
    const err = keyError(key);
    if (err) throw parseError(`<nil>: Invalid value: "${key}": ${err}`);
    const vErr = valueError(value);
    if (vErr) throw parseError(`<nil>: Invalid value: "${value}": ${vErr}`);
    reqs.push({ key, operator: "Equals", values: [value] });
  }
  return selectorOf(reqs);
}

/** A metav1.LabelSelector object. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

/**
 * metav1.LabelSelectorAsSelector: a selector object as a selector. `null`/`undefined` selects
 * nothing, `{}` everything, as in kube; an unknown operator or a values list of the wrong shape is
 * a 400 with kube's message.
 */
export function labelSelectorAsSelector(ls: LabelSelectorObject | null | undefined): LabelSelector {
  if (ls === null || ls === undefined) {
    return { requirements: [], matches: () => false, empty: () => false, toString: () => "<none>" };
  }
  const reqs: Requirement[] = [...selectorFromSet(ls.matchLabels ?? {}).requirements];
  for (const e of ls.matchExpressions ?? []) {
    const values = e.values ?? [];
    let operator: Operator;
    switch (e.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) {
          throw errors.badRequest(`for 'in', 'notin' operators, values set can't be empty`);
        }
        operator = e.operator;
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) {
          throw errors.badRequest(`values set must be empty for exists and does not exist`);
        }
        operator = e.operator;
        break;
      default:
        throw errors.badRequest(`"${e.operator}" is not a valid label selector operator`);
    }
    const err = keyError(e.key);
    if (err) throw parseError(`<nil>: Invalid value: "${e.key}": ${err}`);
    for (const v of values) {
      const vErr = valueError(v);
      if (vErr) throw parseError(`<nil>: Invalid value: "${v}": ${vErr}`);
    }
    reqs.push({ key: e.key, operator, values: [...values] });
  }
  return selectorOf(reqs);
}

/** The string form of a metav1.LabelSelector object (`""` for a missing one). */
export function formatLabelSelector(sel: unknown): string {
  if (!sel || typeof sel !== "object") return "";
  return labelSelectorAsSelector(sel as LabelSelectorObject).toString();
}

/** Label selector in string form or as a label set (`matchLabels`). */
export type LabelSelectorInput = string | Record<string, string>;

/** A selector from a string, a label set, or nothing (everything). */
export function parseSelector(input: LabelSelectorInput | undefined): LabelSelector {
  if (input === undefined) return selectorOf([]);
  return typeof input === "string" ? parseLabelSelector(input.trim()) : selectorFromSet(input);
}

/** A label set as a selector string, sorted for stable cache keys. */
export function toSelectorString(labels: Readonly<Record<string, string>>): string {
  return selectorFromSet(labels).toString();
}
