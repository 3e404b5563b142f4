/**
 * The expressions a CRD schema carries, checked when the CRD is created or updated as
 * apiextensions' `ValidateCustomResourceDefinitionOpenAPISchema` does: every `pattern` must
 * compile with Go's regexp, and every `x-kubernetes-validations` rule (and messageExpression)
 * must compile in the Kubernetes CEL environment, so a CRD kube-apiserver refuses is refused
 * here, and no rule that cannot run is ever stored (CEL fails closed).
 */
import { goRegexpError } from "../regex/index.js";
import type { JSONSchemaProps as Schema, ValidationRule } from "../schema/types.js";
import { type FieldError, goValue } from "../status/index.js";
import type { RuleChecks } from "./types.js";

const REASONS = [
  "FieldValueDuplicate",
  "FieldValueForbidden",
  "FieldValueInvalid",
  "FieldValueRequired",
];

/** Go's `%#v` of an apiextensions.ValidationRule, the value kube reports a bad rule with. */
function ruleValue(r: ValidationRule): ReturnType<typeof goValue> {
  // Pointers print as addresses in Go; any address is as good as the cluster's.
  const ptr = (type: string, set: boolean) => `(*${type})(${set ? "0xc000a1b2c0" : "nil"})`;
  return goValue(
    `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule ?? "")}, Message:${JSON.stringify(r.message ?? "")}, MessageExpression:${JSON.stringify(r.messageExpression ?? "")}, Reason:${ptr("apiextensions.FieldValueErrorReason", r.reason !== undefined)}, FieldPath:${JSON.stringify(r.fieldPath ?? "")}, OptionalOldSelf:${ptr("bool", r.optionalOldSelf !== undefined)}}`,
  );
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** Whether `fieldPath` (`.a.b`, `['x']`) names a field of `schema`, as ValidFieldPath checks. */
function validFieldPath(schema: Schema, path: string): boolean {
  let node: Schema | undefined = schema;
  const tokens = path.match(/\.[^.[\]]+|\['(?:[^'\\]|\\.)*'\]/g);
  if (!tokens || tokens.join("") !== path) return false;
  for (const t of tokens) {
    const name = t.startsWith(".") ? t.slice(1) : t.slice(2, -2).replace(/\\(.)/g, "$1");
    if (!node) return false;
    if (node.properties) node = node.properties[name];
    else if (node.additionalProperties && typeof node.additionalProperties === "object")
      node = node.additionalProperties as Schema;
    else return false;
  }
  return node !== undefined;
}

/**
 * Errors for the expressions on one schema node at `path`. Rules are compiled with `rules`, the
 * CEL half of the validator (rules.ts), which a caller without it must not need.
 */
export function schemaExpressionErrors(
  s: Schema,
  path: string,
  root: boolean,
  rules: RuleChecks | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const compileRule: RuleChecks["compile"] = (expr, scope, optionalOldSelf) => {
    if (!rules) throw new Error("x-kubernetes-validations need @opgen/apimachinery/apiextensions");
    return rules.compile(expr, scope, optionalOldSelf);
  };
  if (typeof s.pattern === "string" && s.pattern.length > 0) {
    const err = goRegexpError(s.pattern);
    if (err) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${path}.pattern`,
        value: s.pattern,
        detail: `must be a valid regular expression, but isn't: ${err}`,
      });
    }
  }
  (s["x-kubernetes-validations"] ?? []).forEach((r, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const rule = (r.rule ?? "").trim();
    const message = (r.message ?? "").trim();
    const messageExpression = (r.messageExpression ?? "").trim();
    if (!rule) {
      errs.push({
        type: "FieldValueRequired",
        field: `${at}.rule`,
        detail: "rule is not specified",
      });
    } else if (r.message !== undefined && r.message.length > 0 && !message) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.message`,
        value: r.message,
        detail: "message must be non-empty if specified",
      });
    } else if (hasNewlines(message)) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.message`,
        value: r.message,
        detail: "message must not contain line breaks",
      });
    } else if (hasNewlines(rule) && !message && !messageExpression) {
      errs.push({
        type: "FieldValueRequired",
        field: `${at}.message`,
        detail: "message must be specified if rule contains line breaks",
      });
    }
    if (r.messageExpression !== undefined && r.messageExpression.length > 0 && !messageExpression) {
      errs.push({
        type: "FieldValueRequired",
        field: `${at}.messageExpression`,
        detail: "messageExpression must be non-empty if specified",
      });
    }
    if (r.reason !== undefined && !REASONS.includes(r.reason)) {
      errs.push({
        type: "FieldValueNotSupported",
        field: `${at}.reason`,
        value: r.reason,
        detail: `supported values: ${REASONS.map((x) => JSON.stringify(x)).join(", ")}`,
      });
    }
    if (r.fieldPath !== undefined && r.fieldPath.length > 0) {
      const fp = r.fieldPath.trim();
      if (!fp) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.fieldPath`,
          value: r.fieldPath,
          detail: "fieldPath must be non-empty if specified",
        });
      } else if (hasNewlines(r.fieldPath)) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.fieldPath`,
          value: r.fieldPath,
          detail: "fieldPath must not contain line breaks",
        });
      } else if (!validFieldPath(s, fp)) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.fieldPath`,
          value: r.fieldPath,
          detail: "fieldPath must be a valid path",
        });
      }
    }
    if (rule) {
      const compiled = compileRule(r.rule, { schema: s, root }, r.optionalOldSelf === true);
      if (compiled instanceof Error) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.rule`,
          value: ruleValue(r),
          detail: `compilation failed: ${compiled.detail}`,
        });
      } else if (compiled.type !== "bool" && compiled.type !== "dyn") {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.rule`,
          value: ruleValue(r),
          detail: "cel expression must evaluate to a bool",
        });
      }
    }
    if (messageExpression) {
      const compiled = compileRule(
        r.messageExpression as string,
        { schema: s, root },
        r.optionalOldSelf === true,
      );
      if (compiled instanceof Error) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.messageExpression`,
          value: ruleValue(r),
          detail: `messageExpression compilation failed: ${compiled.detail}`,
        });
      } else if (compiled.type !== "string" && compiled.type !== "dyn") {
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.messageExpression`,
          value: ruleValue(r),
          detail: "must evaluate to a string",
        });
      }
    }
  });
  return errs;
}
