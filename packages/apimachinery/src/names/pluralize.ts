/**
 * Pluralization as Kubebuilder and controller-gen do it (gobuffalo/flect v1.0.3), so a kind gets
 * the resource name a Go user of those tools would get: the word is split into camel-case parts
 * and only the last part is inflected (irregulars, then suffix rules in order, then `+s` unless it
 * already ends in `s`). Written here rather than taken from npm because no package reproduces
 * flect's rules; the `pluralize` package answers differently (`cronjobses`, `endpointses`).
 */
import { ACRONYMS, IRREGULAR, SUFFIX_RULES } from "./flect-data.js";

const PLURAL_TO_SINGULAR = new Set(Object.values(IRREGULAR));

interface Rule {
  suffix: string;
  fn: (s: string) => string;
}

/** Each rule also keeps its own output as is, so an already-plural word is left alone. */
const RULES: Rule[] = SUFFIX_RULES.flatMap(([suffix, repl]) => [
  { suffix, fn: (s: string) => s.slice(0, s.length - suffix.length) + repl },
  { suffix: repl, fn: (s: string) => s },
]);

const isAcronym = (s: string) => ACRONYMS.has(s.toUpperCase());
const isUpper = (c: string) => /\p{Lu}/u.test(c);
const isWordChar = (c: string) => /[\p{L}\p{N}\p{P}`]/u.test(c);
const isSpace = (c: string) => "_ :-/".includes(c) || /\s/u.test(c);

function push(parts: string[], s: string): void {
  let t = s.trim().replace(/^[_ :\-/]+|[_ :\-/]+$/g, "");
  if (isAcronym(t)) t = t.toUpperCase();
  if (t) parts.push(t);
}

/** flect's Ident parts: words split at spaces and lower→upper case changes, acronyms kept whole. */
export function wordParts(input: string): string[] {
  const s = input.trim();
  if (!s) return [];
  if (isAcronym(s)) return [s.toUpperCase()];
  const parts: string[] = [];
  let cur = "";
  let prev = "";
  for (const c of s) {
    if (isSpace(c) || (isUpper(c) && !isUpper(prev)) || (isUpper(c) && isAcronym(cur))) {
      push(parts, cur);
      cur = c;
    } else if (isWordChar(c)) {
      cur += c;
    } else {
      push(parts, cur);
      cur = "";
    }
    prev = c;
  }
  push(parts, cur);
  return parts;
}

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const replaceSuffix = (s: string, suffix: string, repl: string) =>
  (s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s) + repl;

/** flect.Pluralize: `CronJob` → `CronJobs`, `Policy` → `Policies`, `Endpoints` → `Endpoints`. */
export function pluralize(word: string): string {
  const parts = wordParts(word);
  const last = parts.at(-1) ?? "";
  if (!last) return "";
  if (isAcronym(last)) return word + (/s$/i.test(last) ? "es" : "s");
  const lower = last.toLowerCase();
  if (PLURAL_TO_SINGULAR.has(lower)) return word;
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) {
    return replaceSuffix(word, last, last === capitalize(last) ? capitalize(irregular) : irregular);
  }
  for (const rule of RULES) {
    if (lower.endsWith(rule.suffix)) return replaceSuffix(word, last, rule.fn(last));
  }
  return lower.endsWith("s") ? word : `${word}s`;
}

/** The plural controller-gen writes for a kind: `strings.ToLower(flect.Pluralize(kind))`. */
export function resourcePlural(kind: string): string {
  return pluralize(kind).toLowerCase();
}

/**
 * The plural Kubebuilder records for a kind (`flect.Pluralize(strings.ToLower(kind))`). Where it
 * differs from {@link resourcePlural}, Kubebuilder writes `+kubebuilder:resource:path=` so both
 * tools agree.
 */
export function kubebuilderPlural(kind: string): string {
  return pluralize(kind.toLowerCase());
}
