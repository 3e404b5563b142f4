/**
 * `@opgen/apimachinery/regex`: regular expressions as kube-apiserver compiles them, with Go's
 * RE2 syntax and its linear-time matching (re2js, a port of RE2/J): lookarounds, backreferences
 * and repeat counts over 1000 are refused with Go's own message, and no pattern can take
 * exponential time, so a hostile CRD pattern or CEL `matches()` cannot stall a server. re2js is
 * an optional peer dependency: the CLI and envtest install it, an operator that never compiles a
 * CRD pattern does not carry it.
 */
import { RE2JS } from "re2js";

// Bounded: patterns come from CRDs and CEL rules, which a client controls.
const CACHE_LIMIT = 4096;
const cache = new Map<string, RE2JS | string>();

function compiled(pattern: string): RE2JS | string {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      re = (e as Error).message;
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, re);
  }
  return re;
}

/** Go's error for a pattern `regexp.Compile` rejects (`error parsing regexp: ...`), else undefined. */
export function goRegexpError(pattern: string): string | undefined {
  const re = compiled(pattern);
  return typeof re === "string" ? re : undefined;
}

/** A compiled Go regular expression; throws Go's compile error for a pattern Go rejects. */
function mustCompile(pattern: string): RE2JS {
  const re = compiled(pattern);
  if (typeof re === "string") throw new SyntaxError(re);
  return re;
}

/** Go's `regexp.MatchString`: whether the pattern matches anywhere in `s` (unanchored). */
export function goRegexpMatch(pattern: string, s: string): boolean {
  return mustCompile(pattern).test(s);
}

/** Go's `FindString`: the leftmost match, or undefined. */
export function goRegexpFind(pattern: string, s: string): string | undefined {
  const m = mustCompile(pattern).matcher(s);
  return m.find() ? (m.group() ?? "") : undefined;
}

/**
 * Go's `FindAllString(s, n)`: up to `n` successive matches (all when n < 0). Go ignores an empty
 * match abutting the preceding match, where re2js (after Java) reports it.
 */
export function goRegexpFindAll(pattern: string, s: string, n = -1): string[] {
  const out: string[] = [];
  if (n === 0) return out;
  const m = mustCompile(pattern).matcher(s);
  let prevEnd = -1;
  while (m.find()) {
    const start = m.start();
    const end = m.end();
    if (start === end && start === prevEnd) continue;
    prevEnd = end;
    out.push(m.group() ?? "");
    if (n > 0 && out.length >= n) break;
  }
  return out;
}
