/**
 * ValidatingAdmissionPolicies and their bindings as kube-apiserver 1.32 defaults and validates
 * them on write (`pkg/apis/admissionregistration/v1/defaults.go`, `validation/validation.go`
 * ValidateValidatingAdmissionPolicy, ValidateValidatingAdmissionPolicyBinding): every
 * expression compiled in the policy's CEL environment (`request` and `namespaceObject` typed as
 * kube declares them, `object`, `oldObject` and `params` dyn, `params` only with a paramKind), a
 * syntax or type error refused as 422 with cel-go's text, and the resource rules checked as
 * webhooks'. As in kube, no estimated cost is checked here (the runtime limits apply).
 */
import { ruleErrors } from "@opgen/apimachinery/admissionregistration";
import { CelCompileError, compileCelTyped } from "@opgen/apimachinery/cel";
import { isDNS1123Subdomain, isValidPathSegmentName } from "@opgen/apimachinery/names";
import { labelSelectorErrors } from "@opgen/apimachinery/selectors";
import { type FieldError, field, goStrings } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import { DECLARED } from "./declared-types.js";
import { POLICY_VARIABLES } from "./evaluate.js";

type Obj = JsonObject;
const obj = (v: unknown): Obj | undefined => (isObject(v) ? (v as Obj) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"];
const ACTIONS = ["Audit", "Deny", "Warn"];
const NOT_FOUND_ACTIONS = ["Allow", "Deny"];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

function defaultMatchResources(m: Obj | undefined): void {
  if (!m) return;
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  m.matchPolicy ??= "Equivalent";
  for (const key of ["resourceRules", "excludeResourceRules"]) {
    for (const r of list(m[key])) if (isObject(r)) (r as Obj).scope ??= "*";
  }
}

export function defaultPolicy(o: KubeObject): void {
  const spec = obj(o.spec);
  if (!spec) return;
  spec.failurePolicy ??= "Fail";
  defaultMatchResources(obj(spec.matchConstraints));
}

export function defaultBinding(o: KubeObject): void {
  const spec = obj(o.spec);
  if (!spec) return;
  defaultMatchResources(obj(spec.matchResources));
  const ref = obj(spec.paramRef);
  if (ref) ref.parameterNotFoundAction ??= "Deny";
}

/** compileValidatingPolicyExpression: a compile error or a wrong result type, as field errors. */
function expressionErrors(
  expr: string,
  path: string,
  variables: readonly string[],
  types: string[],
): FieldError[] {
  // request and namespaceObject typed as kube declares them; object, oldObject, params dyn.
  const program = compileCelTyped(
    expr,
    DECLARED,
    variables.filter((v) => !(v in DECLARED)),
  );
  if (program instanceof CelCompileError)
    return [field.invalid(path, expr, `compilation failed: ${program.detail}`)];
  if (types.length === 0 || program.type === "dyn" || types.includes(program.type)) return [];
  const detail =
    types.length === 1
      ? `must evaluate to ${types[0]}`
      : `must evaluate to one of [${types.join(" ")}]`;
  return [field.invalid(path, expr, detail)];
}

function matchResourcesErrors(m: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...labelSelectorErrors(m.namespaceSelector, `${path}.namespaceSelector`));
  errs.push(...labelSelectorErrors(m.objectSelector, `${path}.objectSelector`));
  const policy = m.matchPolicy;
  if (policy === undefined || policy === null) errs.push(field.required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(String(policy)))
    errs.push(field.notSupported(`${path}.matchPolicy`, String(policy), MATCH_POLICIES));
  for (const key of ["resourceRules", "excludeResourceRules"]) {
    list(m[key]).forEach((raw, i) => {
      const rule = obj(raw) ?? {};
      const p = `${path}.${key}[${i}]`;
      errs.push(...ruleErrors(rule, p));
      list(rule.resourceNames).forEach((n, j) => {
        for (const detail of isValidPathSegmentName(str(n)))
          errs.push(field.invalid(`${p}.resourceNames[${j}]`, n, detail));
      });
    });
  }
  return errs;
}

/** ValidateValidatingAdmissionPolicy (the spec; metadata is checked with every object's). */
export function validatePolicy(o: KubeObject): FieldError[] {
  const spec = obj(o.spec) ?? {};
  const errs: FieldError[] = [];
  const paramKind = obj(spec.paramKind);
  if (paramKind) {
    if (!str(paramKind.apiVersion)) errs.push(field.required("spec.paramKind.apiVersion"));
    if (!str(paramKind.kind)) errs.push(field.required("spec.paramKind.kind"));
  }
  const vars = paramKind ? POLICY_VARIABLES : POLICY_VARIABLES.filter((v) => v !== "params");
  const constraints = obj(spec.matchConstraints);
  if (!constraints) errs.push(field.required("spec.matchConstraints"));
  else {
    errs.push(...matchResourcesErrors(constraints, "spec.matchConstraints"));
    // At least one resource rule, to give the expressions their types.
    if (list(constraints.resourceRules).length === 0)
      errs.push(field.required("spec.matchConstraints.resourceRules"));
  }
  const names = new Set<string>();
  list(spec.matchConditions).forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const p = `spec.matchConditions[${i}]`;
    const name = str(c.name);
    if (!name) errs.push(field.required(`${p}.name`));
    else if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    names.add(name);
    if (!str(c.expression).trim()) errs.push(field.required(`${p}.expression`));
    else errs.push(...expressionErrors(str(c.expression), `${p}.expression`, vars, ["bool"]));
  });
  list(spec.variables).forEach((raw, i) => {
    const v = obj(raw) ?? {};
    const p = `spec.variables[${i}]`;
    const name = str(v.name);
    if (!name) errs.push(field.required(`${p}.name`, "name is not specified"));
    else if (!CEL_IDENTIFIER.test(name))
      errs.push(field.invalid(`${p}.name`, name, "name is not a valid CEL identifier"));
    if (!str(v.expression).trim())
      errs.push(field.required(`${p}.expression`, "expression is not specified"));
    else errs.push(...expressionErrors(str(v.expression), `${p}.expression`, vars, []));
  });
  const failurePolicy = spec.failurePolicy;
  if (failurePolicy === undefined || failurePolicy === null)
    errs.push(field.required("spec.failurePolicy"));
  else if (!FAILURE_POLICIES.includes(String(failurePolicy)))
    errs.push(field.notSupported("spec.failurePolicy", String(failurePolicy), FAILURE_POLICIES));
  const validations = list(spec.validations);
  const audits = list(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) {
    const why = "validations or auditAnnotations must contain at least one item";
    errs.push(
      field.required("spec.validations", why),
      field.required("spec.auditAnnotations", why),
    );
  }
  validations.forEach((raw, i) => {
    errs.push(...validationErrors(obj(raw) ?? {}, i, vars));
  });
  if (audits.length > 20) errs.push(field.tooMany("spec.auditAnnotations", audits.length, 20));
  const keys = new Set<string>();
  audits.forEach((raw, i) => {
    const a = obj(raw) ?? {};
    const p = `spec.auditAnnotations[${i}]`;
    const key = str(a.key);
    if (!key) errs.push(field.required(`${p}.key`));
    else if (keys.has(key)) errs.push(field.duplicate(`${p}.key`, key));
    keys.add(key);
    if (!str(a.valueExpression).trim())
      errs.push(field.required(`${p}.valueExpression`, "valueExpression is not specified"));
    else
      errs.push(
        ...expressionErrors(str(a.valueExpression), `${p}.valueExpression`, vars, [
          "string",
          "null_type",
        ]),
      );
  });
  return errs;
}

function validationErrors(v: Obj, i: number, vars: readonly string[]): FieldError[] {
  const p = `spec.validations[${i}]`;
  const errs: FieldError[] = [];
  const expression = str(v.expression);
  if (!expression.trim())
    errs.push(field.required(`${p}.expression`, "expression is not specified"));
  else errs.push(...expressionErrors(expression, `${p}.expression`, vars, ["bool"]));
  const messageExpression = str(v.messageExpression);
  if (messageExpression && !messageExpression.trim())
    errs.push(
      field.invalid(`${p}.messageExpression`, messageExpression, "must be non-empty if specified"),
    );
  else if (messageExpression)
    errs.push(...expressionErrors(messageExpression, `${p}.messageExpression`, vars, ["string"]));
  const message = str(v.message);
  if (message && !message.trim())
    errs.push(field.invalid(`${p}.message`, message, "message must be non-empty if specified"));
  else if (/[\n\r]/.test(message.trim()))
    errs.push(field.invalid(`${p}.message`, message, "message must not contain line breaks"));
  if (v.reason !== undefined && v.reason !== null && !REASONS.includes(String(v.reason)))
    errs.push(field.notSupported(`${p}.reason`, String(v.reason), REASONS));
  return errs;
}

/** ValidateValidatingAdmissionPolicyBinding (the spec). */
export function validateBinding(o: KubeObject): FieldError[] {
  const spec = obj(o.spec) ?? {};
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (!policyName) errs.push(field.required("spec.policyName"));
  else
    for (const detail of isDNS1123Subdomain(policyName))
      errs.push(field.invalid("spec.policyName", policyName, detail));
  const ref = obj(spec.paramRef);
  if (ref) errs.push(...paramRefErrors(ref));
  const m = obj(spec.matchResources);
  if (m) errs.push(...matchResourcesErrors(m, "spec.matchResources"));
  const actions = list(spec.validationActions).map(String);
  if (actions.length === 0)
    errs.push(
      field.required("spec.validationActions", "at least one validation action is required"),
    );
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    const p = `spec.validationActions[${i}]`;
    if (seen.has(a)) errs.push(field.duplicate(p, a));
    seen.add(a);
    if (!ACTIONS.includes(a)) errs.push(field.notSupported(p, a, ACTIONS));
  });
  if (seen.has("Deny") && seen.has("Warn"))
    errs.push(
      field.invalid(
        "spec.validationActions",
        goStrings(actions, "admissionregistration.ValidationAction"),
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
      ),
    );
  return errs;
}

function paramRefErrors(ref: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const p = "spec.paramRef";
  const name = str(ref.name);
  if (name) {
    for (const detail of isValidPathSegmentName(name))
      errs.push(field.invalid(`${p}.name`, name, detail));
    if (ref.selector)
      errs.push(field.forbidden(`${p}.name`, "name and selector are mutually exclusive"));
  }
  const ns = str(ref.namespace);
  for (const detail of ns ? isValidPathSegmentName(ns) : [])
    errs.push(field.invalid(`${p}.namespace`, ns, detail));
  const action = str(ref.parameterNotFoundAction);
  if (!action) errs.push(field.required(`${p}.parameterNotFoundAction`));
  else if (!NOT_FOUND_ACTIONS.includes(action))
    errs.push(field.notSupported(`${p}.parameterNotFoundAction`, action, NOT_FOUND_ACTIONS));
  if (ref.selector) errs.push(...labelSelectorErrors(ref.selector, `${p}.selector`));
  else if (!name) errs.push(field.required(p, "one of name or selector must be specified"));
  return errs;
}
