/**
 * `@opgen/apimachinery/jsonpath`: the JSONPath subset printer columns use (`.a.b`, `[0]`,
 * `[*]`, `[?(@.k=="v")]`, `['key']`), evaluated with missing keys allowed, as kubectl's and the
 * apiserver's `jsonpath.AllowMissingKeys(true)` do. The generator checks `@printcolumn` paths
 * with the same parser envtest evaluates them with.
 */
import { isObject } from "../schema/json.js";

export type Step =
  | { t: "field"; name: string }
  | { t: "index"; i: number }
  | { t: "all" }
  | { t: "filter"; path: string[]; op: "==" | "!="; value: string | number | boolean };

/** Parses a path; throws an Error saying what is wrong for one this grammar does not read. */
export function parseJsonPath(path: string): Step[] {
  let p = path.trim();
  if (p.startsWith("{") && p.endsWith("}")) p = p.slice(1, -1);
  if (p.startsWith("$")) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === ".") {
      i++;
      let j = i;
      while (j < p.length && p[j] !== "." && p[j] !== "[") j++;
      if (j > i) steps.push({ t: "field", name: p.slice(i, j) });
      i = j;
    } else if (c === "[") {
      const end = p.indexOf("]", i);
      if (end < 0) throw new Error(`unclosed [ in ${path}`);
      let inner = p.slice(i + 1, end);
      // Filters may contain ']' inside quotes; re-scan to the matching ')]'.
      let next = end + 1;
      if (inner.startsWith("?(")) {
        const close = p.indexOf(")]", i);
        inner = p.slice(i + 1, close + 1);
        next = close + 2;
      }
      i = next;
      if (inner === "*") steps.push({ t: "all" });
      else if (/^-?\d+$/.test(inner)) steps.push({ t: "index", i: Number(inner) });
      else if (/^'.*'$/.test(inner) || /^".*"$/.test(inner))
        steps.push({ t: "field", name: inner.slice(1, -1) });
      else if (inner.startsWith("?(")) {
        const m = /^\?\(@((?:\.[^=!\s]+)+)\s*(==|!=)\s*(.+)\)$/.exec(inner);
        if (!m) throw new Error(`unsupported filter ${inner}`);
        const raw = m[3]!.trim();
        let value: string | number | boolean;
        if (/^".*"$|^'.*'$/.test(raw)) value = raw.slice(1, -1);
        else if (raw === "true" || raw === "false") value = raw === "true";
        else value = Number(raw);
        steps.push({
          t: "filter",
          path: m[1]!.slice(1).split("."),
          op: m[2] as "==" | "!=",
          value,
        });
      } else throw new Error(`unsupported JSONPath segment [${inner}]`);
    } else {
      let j = i;
      while (j < p.length && p[j] !== "." && p[j] !== "[") j++;
      steps.push({ t: "field", name: p.slice(i, j) });
      i = j;
    }
  }
  return steps;
}

/** All values the path selects (empty when missing). */
export function evaluateJsonPath(obj: unknown, path: string): unknown[] {
  let cur: unknown[] = [obj];
  for (const s of parseJsonPath(path)) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (s.t === "field") {
        if (isObject(v) && v[s.name] !== undefined) next.push(v[s.name]);
      } else if (s.t === "index") {
        if (Array.isArray(v)) {
          const idx = s.i < 0 ? v.length + s.i : s.i;
          if (idx >= 0 && idx < v.length) next.push(v[idx]);
        }
      } else if (s.t === "all") {
        if (Array.isArray(v)) next.push(...v);
        else if (isObject(v)) next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        for (const item of v) {
          let x: unknown = item;
          for (const f of s.path) x = isObject(x) ? x[f] : undefined;
          const eq = x === s.value || (x !== undefined && String(x) === String(s.value));
          if (s.op === "==" ? eq : !eq) next.push(item);
        }
      }
    }
    cur = next;
  }
  return cur;
}
