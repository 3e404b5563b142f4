/**
 * One policy evaluated for one request, binding and param (`validating/validator.go`, `cel/
 * filter.go`, `cel/composition.go`): the match conditions, then each validation, its message
 * (messageExpression, else message, else `failed expression: <expression>`) and reason, then the
 * audit annotations, whose only effect a client can see is an error under `failurePolicy: Fail`.
 * Variables are evaluated lazily, at most once, when an expression first reads them. All the
 * expressions of one evaluation share kube's runtime cost budget, each within the per-call limit.
 */
import {
  CelCompileError,
  CelCostLimitError,
  type CelProgram,
  celEvalMessage,
  compileCelWith,
  evaluateCel,
  PER_CALL_COST_LIMIT,
  RUNTIME_COST_BUDGET,
} from "@opgen/apimachinery/cel";
import type { PolicySpec } from "./source.js";

/** The variables of a policy's expressions (`cel.NewCompositedCompiler` with the policy's options). */
export const POLICY_VARIABLES = [
  "object",
  "oldObject",
  "request",
  "params",
  "namespaceObject",
  "authorizer",
  "variables",
] as const;

/** kube's `celconfig.MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_BYTES = 5 * 1024;
const OUT_OF_BUDGET =
  "validation failed due to running out of cost budget, no further validation rules will be run";

export interface Decision {
  action: "Admit" | "Deny";
  message?: string;
  reason?: string;
  /** An audit annotation's error: denies whatever the binding's validationActions. */
  audit?: boolean;
}

/** The evaluation's inputs, already shaped as CEL values (`celValue`). */
export interface Bindings {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  params: unknown;
  namespaceObject: unknown;
  authorizer: unknown;
}

class OutOfBudget extends Error {}

/** Evaluates expressions against the bindings, charging one shared budget. */
class Evaluator {
  private remaining = RUNTIME_COST_BUDGET;
  readonly vars: Record<string, unknown>;

  constructor(bindings: Bindings, variables: PolicySpec["variables"]) {
    const lazy: Record<string, unknown> = {};
    this.vars = { ...bindings, variables: lazy };
    for (const v of variables) {
      let result: { value: unknown } | { error: string } | undefined;
      Object.defineProperty(lazy, v.name, {
        enumerable: true,
        get: () => {
          result ??= this.variable(v.name, v.expression);
          if ("error" in result) throw new Error(result.error);
          return result.value;
        },
      });
    }
  }

  private variable(name: string, expr: string): { value: unknown } | { error: string } {
    const program = compileCelWith(expr, POLICY_VARIABLES);
    if (program instanceof CelCompileError)
      return {
        error: `composited variable "${name}" fails to compile: compilation failed: ${program.detail}`,
      };
    try {
      return { value: this.run(program) };
    } catch (e) {
      if (e instanceof OutOfBudget) throw e;
      return { error: `composited variable "${name}" fails to evaluate: ${celEvalMessage(e)}` };
    }
  }

  private run(program: CelProgram): unknown {
    const limit = Math.min(PER_CALL_COST_LIMIT, this.remaining);
    try {
      const { value, cost } = evaluateCel(program, this.vars, limit);
      this.remaining -= cost;
      return value;
    } catch (e) {
      if (e instanceof CelCostLimitError && limit < PER_CALL_COST_LIMIT) throw new OutOfBudget();
      throw e;
    }
  }

  /** The value, or the error text kube reports for the expression. */
  evaluate(expr: string): { value: unknown } | { error: string } {
    const program = compileCelWith(expr, POLICY_VARIABLES);
    if (program instanceof CelCompileError)
      return { error: `compilation error: compilation failed: ${program.detail}` };
    try {
      return { value: this.run(program) };
    } catch (e) {
      if (e instanceof OutOfBudget) throw e;
      return { error: `expression '${expr}' resulted in error: ${celEvalMessage(e)}` };
    }
  }
}

/** The match conditions' verdict: true, false, or the aggregated errors. */
function matchConditions(ev: Evaluator, spec: PolicySpec): boolean | string {
  const errors: string[] = [];
  for (const c of spec.matchConditions) {
    const r = ev.evaluate(c.expression);
    // Only false excludes (kube's matcher): any other value lets the request through.
    if ("error" in r) errors.push(r.error);
    else if (r.value === false) return false;
  }
  if (errors.length === 0) return true;
  return errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]`;
}

function denialMessage(ev: Evaluator, v: PolicySpec["validations"][number]): string {
  if (v.messageExpression?.trim()) {
    const r = ev.evaluate(v.messageExpression);
    if ("value" in r && typeof r.value === "string") {
      const m = r.value.trim();
      // Too long or multi-line messages fall back, as kube's validator does.
      if (m && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES && !m.includes("\n")) return m;
    }
  }
  if (v.message?.trim()) return v.message.trim();
  return `failed expression: ${v.expression.trim()}`;
}

/** The policy's decisions for one binding and param (failure policy applied to errors). */
export function evaluatePolicy(spec: PolicySpec, bindings: Bindings): Decision[] {
  const onError = spec.failurePolicy === "Ignore" ? "Admit" : "Deny";
  const ev = new Evaluator(bindings, spec.variables);
  try {
    if (spec.matchConditions.length > 0) {
      const m = matchConditions(ev, spec);
      if (m === false) return [];
      if (typeof m === "string") return [{ action: onError, message: m }];
    }
    const decisions: Decision[] = spec.validations.map((v) => {
      const r = ev.evaluate(v.expression);
      if ("error" in r) return { action: onError, message: r.error };
      if (r.value === true) return { action: "Admit" };
      return { action: "Deny", reason: v.reason ?? "Invalid", message: denialMessage(ev, v) };
    });
    for (const a of spec.auditAnnotations) {
      const r = ev.evaluate(a.valueExpression);
      if ("error" in r) decisions.push({ action: onError, message: r.error, audit: true });
      else if (typeof r.value !== "string" && r.value !== null)
        decisions.push({
          action: onError,
          audit: true,
          message: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`,
        });
    }
    return decisions;
  } catch (e) {
    if (e instanceof OutOfBudget) return [{ action: onError, message: OUT_OF_BUDGET }];
    throw e;
  }
}

function celTypeName(v: unknown): string {
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "double";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  if (v instanceof Map || typeof v === "object") return "map";
  return typeof v;
}
