/**
 * CEL `x-kubernetes-validations` (apiextensions `schema/cel/validation.go`), evaluated with
 * @marcbachmann/cel-js: each rule runs with `self` bound to the value at its schema node and,
 * for transition rules, `oldSelf` bound to the correlated old value (objects by key, map lists
 * by their keys); transition rules are skipped without an old value unless `optionalOldSelf`.
 * Integers are passed as CEL ints. A failed rule becomes a field error with the rule's
 * message, messageExpression or `failed rule: <rule>`, and its reason. A rule the evaluator
 * cannot run (the Kubernetes CEL extension libraries are not all there) is reported as a
 * warning and not enforced.
 */
import { Optional } from "@marcbachmann/cel-js";
import { compileCel } from "@opgen/apimachinery/cel";
import { schemaNode } from "@opgen/apimachinery/merge";
import type { ValidationRule } from "@opgen/apimachinery/schema";
import type { FieldError } from "@opgen/apimachinery/status";
import { isObject, type Schema } from "../api/types.js";
import { itemKey, listShape } from "../rest/managed-fields.js";

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  return (
    schema.properties?.[key] ??
    (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined)
  );
}

/** Converts JSON to CEL values: integers become ints (BigInt) unless the schema says number. */
export function toCel(v: unknown, schema: Schema | undefined): unknown {
  if (typeof v === "number") {
    return Number.isInteger(v) && schema?.type !== "number" ? BigInt(v) : v;
  }
  if (Array.isArray(v)) return v.map((x) => toCel(x, schema?.items));
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toCel(x, childSchema(schema, k));
    return out;
  }
  return v;
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
}

/** Evaluates every rule of `schema` over `value` (and `old` on updates). */
export function validateCel(
  value: unknown,
  old: unknown,
  schema: Schema | undefined,
  hasOld: boolean,
): CelOutcome {
  const out: CelOutcome = { errors: [], warnings: [] };
  if (schema) walk(value, old, hasOld, schema, "", out);
  return out;
}

function walk(
  value: unknown,
  old: unknown,
  hasOld: boolean,
  schema: Schema,
  path: string,
  out: CelOutcome,
): void {
  for (const rule of schema["x-kubernetes-validations"] ?? []) {
    const transition = /\boldSelf\b/.test(rule.rule);
    if (transition && !hasOld && !rule.optionalOldSelf) continue;
    const program = compileCel(rule.rule);
    if (program instanceof Error) {
      out.warnings.push(
        `x-kubernetes-validations rule at ${path || "<root>"} is not enforced by envtest: ${program.message.split("\n")[0]}`,
      );
      continue;
    }
    const ctx: Record<string, unknown> = { self: toCel(value, schema) };
    if (transition) {
      const oldCel = hasOld ? toCel(old, schema) : undefined;
      ctx.oldSelf = rule.optionalOldSelf
        ? hasOld
          ? Optional.of(oldCel)
          : Optional.none()
        : oldCel;
    }
    let result: unknown;
    try {
      result = program(ctx);
    } catch (e) {
      out.warnings.push(
        `x-kubernetes-validations rule ${JSON.stringify(rule.rule)} at ${path || "<root>"} is not enforced by envtest: ${String((e as Error).message).split("\n")[0]}`,
      );
      continue;
    }
    if (result === true) continue;
    let message = rule.message ?? `failed rule: ${rule.rule}`;
    if (rule.messageExpression) {
      const mp = compileCel(rule.messageExpression);
      if (!(mp instanceof Error)) {
        try {
          const m = mp(ctx);
          if (typeof m === "string" && m.trim() !== "") message = m;
        } catch {
          // Upstream falls back to message / "failed rule" when messageExpression fails.
        }
      }
    }
    out.errors.push(ruleError(rule, path, schema, message));
  }

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
