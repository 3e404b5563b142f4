/**
 * Regular expressions in CEL with Go's RE2 semantics and linear time: `matches` (cel-js's own
 * uses JavaScript's backtracking RegExp, so compiled rules are rewritten to this one; see
 * ../program.ts), and Kubernetes' regex library `find` and `findAll`.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { goRegexpError, goRegexpFind, goRegexpFindAll, goRegexpMatch } from "../../regex/index.js";
import { celError } from "./values.js";

/** The name compiled rules call instead of cel-js's built-in `matches`. */
export const RE2_MATCHES = "matchesRE2";

function checked(pattern: string): string {
  const err = goRegexpError(pattern);
  if (err) throw celError(err);
  return pattern;
}

export function registerRegex(env: Environment): void {
  env.registerFunction(`string.${RE2_MATCHES}(string): bool`, (s: string, p: string) =>
    goRegexpMatch(checked(p), s),
  );
  env.registerFunction(`${RE2_MATCHES}(string, string): bool`, (s: string, p: string) =>
    goRegexpMatch(checked(p), s),
  );
  env.registerFunction(
    "string.find(string): string",
    (s: string, p: string) => goRegexpFind(checked(p), s) ?? "",
  );
  env.registerFunction("string.findAll(string): list<string>", (s: string, p: string) =>
    goRegexpFindAll(checked(p), s),
  );
  env.registerFunction(
    "string.findAll(string, int): list<string>",
    (s: string, p: string, n: bigint) => goRegexpFindAll(checked(p), s, Number(n)),
  );
}
