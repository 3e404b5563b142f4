/**
 * How pod-security-admission words its results: each failed check gives a reason ("host
 * namespaces") and an optional detail; a refusal joins them as `reason (detail), reason`, and the
 * namespace-label check lists only the reasons.
 */

export interface Violation {
  reason: string;
  detail?: string;
}

/** `"a", "b"`: each item wrapped in double quotes as is (no escaping, as kube's joinQuote). */
export function joinQuote(items: readonly string[]): string {
  return items.map((i) => `"${i}"`).join(", ");
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` or `containers "a", "b"`. */
export function containers(names: readonly string[]): string {
  return `${pluralize("container", "containers", names.length)} ${joinQuote(names)}`;
}

/** The sorted distinct values, as a Go string set lists them. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

const GO_ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\\": "\\\\",
  '"': '\\"',
};

/** Go's `%q` of a string (strconv.Quote) for the ASCII escapes annotation values can hold. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (GO_ESCAPES[ch]) out += GO_ESCAPES[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `reason (detail), reason, ...`: what follows `violates PodSecurity "<level>:<version>": `. */
export function forbiddenDetail(violations: readonly Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(", ");
}

/** `reason, reason`: the per-pod summary of a namespace label change. */
export function forbiddenReason(violations: readonly Violation[]): string {
  return violations.map((v) => v.reason).join(", ");
}
