/**
 * A webhook's `matchConditions` (GA since 1.30; `apiserver: pkg/admission/plugin/webhook/
 * matchconditions/matcher.go`): CEL expressions over `object`, `oldObject`, `request` and
 * `authorizer`, all of which must be true for the webhook to be called. An evaluation error
 * fails the request as Forbidden under `failurePolicy: Fail` and skips the webhook under Ignore.
 * `authorizer` is declared but not bound: an expression that calls it fails to evaluate.
 */
import {
  CelCompileError,
  celEvalMessage,
  celValue,
  compileCelWith,
  evaluateCel,
  PER_CALL_COST_LIMIT,
} from "@opgen/apimachinery/cel";
import type { FieldError } from "@opgen/apimachinery/status";
import { isObject, type JsonObject } from "../api/types.js";

export const MATCH_CONDITION_VARIABLES = ["object", "oldObject", "request", "authorizer"] as const;

export interface MatchCondition {
  name: string;
  expression: string;
}

/** true: all conditions hold; false: one is false; a string: why evaluation failed. */
export function evaluateMatchConditions(
  conditions: MatchCondition[],
  request: JsonObject,
): boolean | string {
  const vars = {
    object: celValue(request.object ?? null, undefined),
    oldObject: celValue(request.oldObject ?? null, undefined),
    request: celValue(request, undefined),
    authorizer: null,
  };
  const errors: string[] = [];
  for (const c of conditions) {
    const program = compileCelWith(c.expression, MATCH_CONDITION_VARIABLES);
    if (program instanceof CelCompileError) {
      errors.push(`expression '${c.name}' resulted in error: ${program.summary}`);
      continue;
    }
    try {
      const { value } = evaluateCel(program, vars, PER_CALL_COST_LIMIT);
      // A false condition decides at once, even when an earlier one failed to evaluate.
      if (value === false) return false;
      if (value !== true)
        errors.push(`expression '${c.name}' resulted in error: must evaluate to bool`);
    } catch (e) {
      errors.push(`expression '${c.name}' resulted in error: ${celEvalMessage(e)}`);
    }
  }
  return errors.length ? errors.join(", ") : true;
}

/** Validation of `matchConditions` at `field` (`validateMatchConditions`). */
export function matchConditionErrors(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  const errs: FieldError[] = [];
  const list = Array.isArray(value) ? value : [];
  if (list.length > 64) {
    errs.push({
      type: "FieldValueTooMany",
      field,
      value: list.length,
      detail: "must have at most 64 items",
    });
  }
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = (isObject(raw) ? raw : {}) as JsonObject;
    const f = `${field}[${i}]`;
    const name = typeof c.name === "string" ? c.name : "";
    if (!name) errs.push({ type: "FieldValueRequired", field: `${f}.name`, detail: "" });
    else if (names.has(name))
      errs.push({ type: "FieldValueDuplicate", field: `${f}.name`, value: name, detail: "" });
    names.add(name);
    const expr = typeof c.expression === "string" ? c.expression : "";
    if (!expr) {
      errs.push({ type: "FieldValueRequired", field: `${f}.expression`, detail: "" });
      return;
    }
    const program = compileCelWith(expr, MATCH_CONDITION_VARIABLES);
    if (program instanceof CelCompileError) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${f}.expression`,
        value: expr,
        detail: `compilation failed: ${program.detail}`,
      });
    } else if (program.type !== "bool" && program.type !== "dyn") {
      errs.push({
        type: "FieldValueInvalid",
        field: `${f}.expression`,
        value: expr,
        detail: `must evaluate to bool`,
      });
    }
  });
  return errs;
}
