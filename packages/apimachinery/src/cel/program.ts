/**
 * Compiling and running CRD validation expressions as kube-apiserver does: parse and type-check
 * in the Kubernetes environment (an error is reported in cel-go's `ERROR: <input>:line:col:`
 * form with the source line and a caret), `matches` bound to RE2, evaluation metered.
 */

import { installMeter, metered } from "./cost.js";
import { kubernetesEnvironment } from "./environment.js";
import { RE2_MATCHES } from "./library/regex.js";

/**
 * A compiled expression: evaluate with the variables bound (`self`, `oldSelf`); `type` is its
 * checked result type (`bool`, `string`, ..., `dyn` when it depends on `self`).
 */
export type CelProgram = ((variables: Record<string, unknown>) => unknown) & { type: string };

/**
 * A rule kube-apiserver would not compile; `detail` is cel-go's rendering of the issue (with the
 * source line and a caret), `summary` the issue alone and `column` where it is (1-based).
 */
export class CelCompileError extends Error {
  override readonly name = "CelCompileError";
  constructor(
    readonly detail: string,
    readonly summary: string,
    readonly column: number,
  ) {
    super(detail);
  }
}

const env = kubernetesEnvironment();
installMeter(env);
const functionNames = new Set(env.getDefinitions().functions.map((f) => f.name));

interface AstNode {
  op: string;
  args: unknown;
}

const isNode = (v: unknown): v is AstNode =>
  typeof v === "object" && v !== null && typeof (v as AstNode).op === "string";

/** Points every `matches` call at the RE2 implementation (cel-js's own backtracks). */
function bindMatches(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) bindMatches(n);
    return;
  }
  if (!isNode(node)) return;
  const args = node.args;
  if ((node.op === "rcall" || node.op === "call") && Array.isArray(args) && args[0] === "matches") {
    args[0] = RE2_MATCHES;
  }
  if (Array.isArray(args)) bindMatches(args);
  else if (isNode(args)) bindMatches(args);
  else if (args && typeof args === "object") bindMatches(Object.values(args));
}

function position(expr: string, offset: number): { line: number; col: number; text: string } {
  const before = expr.slice(0, offset);
  const line = before.split("\n").length;
  const start = before.lastIndexOf("\n") + 1;
  const end = expr.indexOf("\n", start);
  return { line, col: offset - start + 1, text: expr.slice(start, end < 0 ? undefined : end) };
}

/** cel-go's message for what cel-js reports (only where the meaning is the same). */
function celGoMessage(e: Error & { code?: string }): string {
  const first = e.message.split("\n")[0] ?? e.message;
  if (e.code === "unknown_variable") {
    return `undeclared reference to '${first.replace(/^Unknown variable: /, "")}' (in container '')`;
  }
  if (e.code === "no_matching_overload") {
    const m = /for '(?:[\w.<>, ]+\.)?(\w+)\(/.exec(first);
    if (m && !functionNames.has(m[1] as string)) {
      return `undeclared reference to '${m[1] === RE2_MATCHES ? "matches" : m[1]}' (in container '')`;
    }
  }
  if (e.name === "ParseError") return `Syntax error: ${first}`;
  return first.replaceAll(RE2_MATCHES, "matches");
}

function compileError(expr: string, e: Error & { range?: { start: number } }): CelCompileError {
  const message = celGoMessage(e);
  let offset = e.range?.start ?? 0;
  // cel-go points a call's issues at its opening parenthesis.
  const call = /^undeclared reference to '(\w+)'/.exec(message)?.[1];
  if (call) {
    const at = expr.indexOf(`${call}(`, offset);
    if (at >= 0) offset = at + call.length;
  }
  const { line, col, text } = position(expr, offset);
  return new CelCompileError(
    `ERROR: <input>:${line}:${col}: ${message}\n | ${text}\n | ${".".repeat(col - 1)}^`,
    message,
    col,
  );
}

const programs = new Map<string, CelProgram | CelCompileError>();
const CACHE_LIMIT = 4096;

/** The compiled program, or the compile error, of an expression (cached). */
export function compileCel(expr: string): CelProgram | CelCompileError {
  let p = programs.get(expr);
  if (!p) {
    try {
      const parsed = env.parse(expr) as unknown as ((v: Record<string, unknown>) => unknown) & {
        ast: unknown;
        check(): { valid: boolean; error?: Error };
      };
      bindMatches(parsed.ast);
      const checked = parsed.check() as { valid: boolean; type?: string; error?: Error };
      p = checked.valid
        ? Object.assign(parsed, { type: checked.type ?? "dyn" })
        : compileError(expr, checked.error as Error);
    } catch (e) {
      p = compileError(expr, e instanceof Error ? e : new Error(String(e)));
    }
    if (programs.size >= CACHE_LIMIT) programs.delete(programs.keys().next().value as string);
    programs.set(expr, p);
  }
  return p;
}

/** cel-go's text for an evaluation error (`no such key: x`, `division by zero`, ...). */
export function celEvalMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const first = (e.message.split("\n")[0] ?? e.message).replaceAll(RE2_MATCHES, "matches");
  const code = (e as { code?: string }).code;
  if (code === "no_such_key") return first.replace(/^No such key: /, "no such key: ");
  if (code === "no_matching_overload")
    return `no such overload: ${first.replace(/^found no matching overload for /, "")}`;
  return first;
}

/** Evaluates under a cost limit; throws CelCostLimitError past it, or the evaluation error. */
export function evaluateCel(
  program: CelProgram,
  variables: Record<string, unknown>,
  limit: number,
): { value: unknown; cost: number } {
  return metered(limit, () => program(variables));
}
