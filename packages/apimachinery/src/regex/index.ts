/**
 * `@opgen/apimachinery/regex`: regular expressions as kube-apiserver compiles them, with Go's
 * RE2 syntax and its linear-time matching (re2js, a port of RE2/J): lookarounds, backreferences
 * and repeat counts over 1000 are refused with Go's own message, and no pattern can take
 * exponential time. re2js is an optional peer dependency: the CLI and envtest install it, an
 * operator that never compiles a CRD pattern does not carry it.
 */
import { RE2JS } from "re2js";

const cache = new Map<string, RE2JS | string>();

function compiled(pattern: string): RE2JS | string {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      re = (e as Error).message;
    }
    cache.set(pattern, re);
  }
  return re;
}

/** Go's error for a pattern `regexp.Compile` rejects (`error parsing regexp: ...`), else undefined. */
export function goRegexpError(pattern: string): string | undefined {
  const re = compiled(pattern);
  return typeof re === "string" ? re : undefined;
}
