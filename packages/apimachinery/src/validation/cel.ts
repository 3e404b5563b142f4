/**
 * CEL `x-kubernetes-validations` (apiextensions `schema/cel/validation.go`), evaluated with
 * @marcbachmann/cel-js: each rule runs with `self` bound to the value at its schema node and,
 * for transition rules, `oldSelf` bound to the correlated old value (objects by key, map lists
 * by their keys); transition rules are skipped without an old value unless `optionalOldSelf`.
 * Integers are passed as CEL ints. A failed rule becomes a field error with the rule's
 * message, messageExpression or `failed rule: <rule>`, and its reason. Rules fail closed, as in
 * kube-apiserver: an evaluation error (no such key, division by zero, a bad regex, ...) rejects
 * the object with kube's wording, and evaluation is metered by the per-call cost limit and the
 * per-object budget, past which no further rule runs.
 */
import { Optional } from "@marcbachmann/cel-js";
import {
  CelCostLimitError,
  celEvalMessage,
  celValue,
  compileRule,
  evaluateCel,
  PER_CALL_COST_LIMIT,
  RUNTIME_COST_BUDGET,
} from "../cel/index.js";
import { itemKey, listShape, schemaNode } from "../merge/index.js";
import { isObject } from "../schema/json.js";
import type { JSONSchemaProps as Schema, ValidationRule } from "../schema/types.js";
import type { FieldError } from "../status/index.js";

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  return (
    schema.properties?.[key] ??
    (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined)
  );
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function ruleError(
  rule: ValidationRule,
  path: string,
  schema: Schema,
  message: string,
): FieldError {
  const field = rule.fieldPath ? join(path, rule.fieldPath.replace(/^\./, "")) : path;
  const typeName = schema.type ?? (schema["x-kubernetes-int-or-string"] ? "" : "object");
  switch (rule.reason) {
    case "FieldValueForbidden":
      return { type: "FieldValueForbidden", field, detail: message };
    case "FieldValueRequired":
      return { type: "FieldValueRequired", field, detail: message };
    case "FieldValueDuplicate":
      return { type: "FieldValueDuplicate", field, value: typeName };
    default:
      return { type: "FieldValueInvalid", field, value: typeName, detail: message };
  }
}

export interface CelOutcome {
  errors: FieldError[];
  warnings: string[];
  /** What is left of the object's cost budget; negative once it ran out (no more rules run). */
  budget: number;
}

/** Evaluates every rule of `schema` over `value` (and `old` on updates). */
export function validateCel(
  value: unknown,
  old: unknown,
  schema: Schema | undefined,
  hasOld: boolean,
  budget = RUNTIME_COST_BUDGET,
): CelOutcome {
  const out: CelOutcome = { errors: [], warnings: [], budget };
  if (schema) walk(value, old, hasOld, schema, "", out);
  return out;
}

/** ruleErrorString: the rule's message if it has one, else the rule. */
function ruleText(rule: ValidationRule): string {
  return rule.message?.trim() || rule.rule.trim();
}

function invalid(path: string, schema: Schema, detail: string): FieldError {
  const typeName = schema.type ?? (schema["x-kubernetes-int-or-string"] ? "" : "object");
  return { type: "FieldValueInvalid", field: path, value: typeName, detail };
}

const OUT_OF_BUDGET =
  "validation failed due to running out of cost budget, no further validation rules will be run";

/** Runs one program within the per-call limit and the object's remaining budget. */
function run(
  program: Exclude<ReturnType<typeof compileRule>, Error>,
  ctx: Record<string, unknown>,
  out: CelOutcome,
): { value: unknown } | { error: unknown } {
  try {
    const r = evaluateCel(program, ctx, Math.min(PER_CALL_COST_LIMIT, out.budget));
    out.budget -= r.cost;
    return { value: r.value };
  } catch (e) {
    return { error: e };
  }
}

function walk(
  value: unknown,
  old: unknown,
  hasOld: boolean,
  schema: Schema,
  path: string,
  out: CelOutcome,
): void {
  if (out.budget < 0 || value === null || value === undefined) return;
  for (const rule of schema["x-kubernetes-validations"] ?? []) {
    if (out.budget <= 0) {
      out.errors.push(invalid(path, schema, OUT_OF_BUDGET));
      out.budget = -1;
      return;
    }
    const transition = /\boldSelf\b/.test(rule.rule);
    if (transition && !hasOld && !rule.optionalOldSelf) continue;
    const scope = { schema, root: path === "" };
    const program = compileRule(rule.rule, scope, rule.optionalOldSelf === true);
    if (program instanceof Error) {
      // Only a CRD stored before its rules were checked can get here; kube reports it so.
      out.errors.push(invalid(path, schema, `rule compile error: ${program.detail}`));
      continue;
    }
    const ctx: Record<string, unknown> = { self: celValue(value, schema) };
    if (transition) {
      const oldCel = hasOld ? celValue(old, schema) : undefined;
      ctx.oldSelf = rule.optionalOldSelf
        ? hasOld
          ? Optional.of(oldCel)
          : Optional.none()
        : oldCel;
    }
    const result = run(program, ctx, out);
    if ("error" in result) {
      const e = result.error;
      if (e instanceof CelCostLimitError) {
        // Past the per-call limit with budget left is cel-go's limit; past the budget is kube's.
        const perCall = out.budget > PER_CALL_COST_LIMIT;
        out.errors.push(
          invalid(
            path,
            schema,
            perCall
              ? `'${e.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(rule)}`
              : OUT_OF_BUDGET,
          ),
        );
        out.budget = -1;
        return;
      }
      const message = celEvalMessage(e);
      out.errors.push(
        invalid(
          path,
          schema,
          message.startsWith("no such overload")
            ? `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule)}`
            : `${message} evaluating rule: ${ruleText(rule)}`,
        ),
      );
      continue;
    }
    if (result.value === true) continue;
    let message = rule.message ?? `failed rule: ${rule.rule}`;
    if (rule.messageExpression) {
      const mp = compileRule(rule.messageExpression, scope, rule.optionalOldSelf === true);
      if (!(mp instanceof Error)) {
        const m = run(mp, ctx, out);
        if ("error" in m && m.error instanceof CelCostLimitError) {
          out.errors.push(invalid(path, schema, OUT_OF_BUDGET));
          out.budget = -1;
          return;
        }
        // Upstream falls back to message / "failed rule" when messageExpression fails.
        if ("value" in m && typeof m.value === "string" && m.value.trim() !== "") message = m.value;
      }
    }
    out.errors.push(ruleError(rule, path, schema, message));
  }
  if (out.budget < 0) return;

  if (isObject(value)) {
    const o = isObject(old) ? old : undefined;
    for (const [k, v] of Object.entries(value)) {
      const cs = childSchema(schema, k);
      if (!cs) continue;
      walk(v, o?.[k], hasOld && !!o && Object.hasOwn(o, k), cs, join(path, k), out);
    }
  } else if (Array.isArray(value) && schema.items) {
    const shape = listShape(schemaNode(schema));
    const oldItems = Array.isArray(old) && hasOld ? old : [];
    value.forEach((item, i) => {
      let prev: unknown;
      let found = false;
      if (shape.type !== "atomic") {
        const key = itemKey(item, shape);
        const idx = oldItems.findIndex((x) => itemKey(x, shape) === key);
        if (idx >= 0) {
          prev = oldItems[idx];
          found = true;
        }
      }
      walk(item, prev, found, schema.items!, `${path}[${i}]`, out);
    });
  }
}
