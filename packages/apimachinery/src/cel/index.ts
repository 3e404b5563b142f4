/**
 * `@opgen/apimachinery/cel`: CEL expressions compiled once, with the options envtest evaluates
 * CRD validation rules under (optional types on; variables other than those bound are dynamic),
 * so the generator refuses at the marker a rule envtest and kube-apiserver could not compile.
 * @marcbachmann/cel-js is an optional peer dependency: the CLI and envtest install it, an
 * operator does not carry it.
 */
import { Environment } from "@marcbachmann/cel-js";

const env = new Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });

/** A compiled expression: evaluate with the variables bound (`self`, `oldSelf`). */
export type CelProgram = (variables: Record<string, unknown>) => unknown;

const programs = new Map<string, CelProgram | Error>();

/** The compiled program, or the compile error, of an expression (cached). */
export function compileCel(expr: string): CelProgram | Error {
  let p = programs.get(expr);
  if (!p) {
    try {
      p = env.parse(expr) as unknown as CelProgram;
    } catch (e) {
      p = e instanceof Error ? e : new Error(String(e));
    }
    programs.set(expr, p);
  }
  return p;
}
