/**
 * A metav1.LabelSelector's validation (k8s.io/apimachinery pkg/apis/meta/v1/validation
 * ValidateLabelSelector): label keys and values in matchLabels, and each matchExpression's
 * operator, key and values, with kube's field paths and messages.
 */
import { isQualifiedName, isValidLabelValue } from "../names/validation.js";
import type { FieldError } from "../status/field.js";

export interface LabelSelectorValidationOptions {
  /** Skips the label-value check of matchExpressions values (kube allows it on some updates). */
  allowInvalidLabelValueInSelector?: boolean;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** ValidateLabelName: a qualified name. */
function labelNameErrors(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((detail) => ({
    type: "FieldValueInvalid",
    field: path,
    value: name,
    detail,
  }));
}

/** Errors of `selector` at `path`; none for an absent selector. */
export function labelSelectorErrors(
  selector: unknown,
  path: string,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (!isObj(selector)) return [];
  const errs: FieldError[] = [];
  const labelsPath = `${path}.matchLabels`;
  for (const [key, value] of Object.entries(
    isObj(selector.matchLabels) ? selector.matchLabels : {},
  )) {
    errs.push(...labelNameErrors(key, labelsPath));
    for (const detail of isValidLabelValue(String(value)))
      errs.push({ type: "FieldValueInvalid", field: labelsPath, value: String(value), detail });
  }
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  exprs.forEach((raw, i) => {
    const expr = isObj(raw) ? raw : {};
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(expr.values) ? expr.values.map(String) : [];
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (!values.length)
          errs.push({
            type: "FieldValueRequired",
            field: `${at}.values`,
            detail: "must be specified when `operator` is 'In' or 'NotIn'",
          });
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length)
          errs.push({
            type: "FieldValueForbidden",
            field: `${at}.values`,
            detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          });
        break;
      default:
        errs.push({
          type: "FieldValueInvalid",
          field: `${at}.operator`,
          value: String(expr.operator ?? ""),
          detail: "not a valid selector operator",
        });
    }
    errs.push(...labelNameErrors(String(expr.key ?? ""), `${at}.key`));
    if (!opts.allowInvalidLabelValueInSelector)
      values.forEach((v, j) => {
        for (const detail of isValidLabelValue(v))
          errs.push({ type: "FieldValueInvalid", field: `${at}.values[${j}]`, value: v, detail });
      });
  });
  return errs;
}
