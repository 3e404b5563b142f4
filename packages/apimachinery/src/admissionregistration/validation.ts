/**
 * What kube-apiserver 1.32 refuses when a Mutating/ValidatingWebhookConfiguration is created
 * (k8s pkg/apis/admissionregistration/validation/validation.go with the create options: side
 * effects None/NoneOnDryRun only, a recognised AdmissionReview version, unique webhook names,
 * no invalid label values in selectors), in kube's order, with kube's field paths and messages
 * and list values printed as Go prints them. Run it on a defaulted object
 * (`defaultWebhookConfiguration`), as the server does.
 */
import { isDNS1035Label, isDNS1123Subdomain } from "../names/validation.js";
import { labelSelectorErrors } from "../selectors/validation.js";
import { type FieldError, field, goStrings } from "../status/field.js";
import { webhookClientConfigErrors } from "./client-config.js";
import type { WebhookConfigurationKind } from "./defaults.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

// Sorted as kube's sets.String.List() prints them.
const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const NO_SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const REINVOCATION = ["IfNeeded", "Never"];
const SCOPES = ["*", "Cluster", "Namespaced"];
/** The AdmissionReview versions kube-apiserver 1.32 speaks (AcceptedAdmissionReviewVersions). */
export const ACCEPTED_ADMISSION_REVIEW_VERSIONS: readonly string[] = ["v1", "v1beta1"];

export interface WebhookValidationOptions {
  /**
   * Validates a webhook's `matchConditions` (CEL, so left to a caller that has a CEL
   * environment: envtest). Without it match conditions are not checked.
   */
  matchConditions?: (conditions: unknown, path: string) => FieldError[];
}

/** utilvalidation.IsFullyQualifiedName. */
function fullyQualifiedNameErrors(name: string, path: string): FieldError[] {
  if (!name) return [field.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [field.invalid(path, name, errs.join(","))];
  if (name.split(".").length < 3)
    return [
      field.invalid(
        path,
        name,
        "should be a domain with at least three segments separated by dots",
      ),
    ];
  return [];
}

/** validateResources (subresources allowed). */
function resourceErrors(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!resources.length) errs.push(field.required(path));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let single = false;
  let plain = false;
  resources.forEach((r, i) => {
    if (r === "") {
      errs.push(field.required(`${path}[${i}]`));
      return;
    }
    if (r === "*") single = true;
    const slash = r.indexOf("/");
    if (slash < 0) {
      plain = r !== "*";
      return;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (wildcardSub.has(res))
      errs.push(
        field.invalid(`${path}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`),
      );
    if (wildcardRes.has(sub))
      errs.push(
        field.invalid(`${path}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`),
      );
    if (sub === "*") wildcardSub.add(res);
    if (res === "*") wildcardRes.add(sub);
  });
  if (resources.length > 1 && resources.includes("*/*"))
    errs.push(
      field.invalid(
        path,
        goStrings(resources),
        "if '*/*' is present, must not specify other resources",
      ),
    );
  if (single && plain)
    errs.push(
      field.invalid(
        path,
        goStrings(resources),
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  return errs;
}

/** validateRuleWithOperations and validateRule (webhooks' rules, policies' resource rules). */
export function ruleErrors(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule.operations);
  // Required, and "*" alone: the same rule for operations, API groups and API versions.
  const listErrors = (key: string, values: string[], what: string, elementType?: string) => {
    if (!values.length) errs.push(field.required(`${path}.${key}`));
    if (values.length > 1 && values.includes("*"))
      errs.push(
        field.invalid(
          `${path}.${key}`,
          goStrings(values, elementType),
          `if '*' is present, must not specify other ${what}`,
        ),
      );
  };
  listErrors("operations", ops, "operations", "admissionregistration.OperationType");
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op))
      errs.push(field.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  listErrors("apiGroups", strings(rule.apiGroups), "API groups");
  const versions = strings(rule.apiVersions);
  listErrors("apiVersions", versions, "API versions");
  versions.forEach((v, i) => {
    if (v === "") errs.push(field.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...resourceErrors(strings(rule.resources), `${path}.resources`));
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(String(rule.scope)))
    errs.push(field.notSupported(`${path}.scope`, String(rule.scope), SCOPES));
  return errs;
}

/** validateAdmissionReviewVersions with a recognised version required (create). */
function reviewVersionErrors(versions: readonly string[], path: string): FieldError[] {
  if (!versions.length)
    return [
      field.required(path, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(", ")}`),
    ];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(field.invalid(`${path}[${i}]`, v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(field.invalid(`${path}[${i}]`, v, e));
  });
  if (!versions.some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v)))
    errs.push(
      field.invalid(
        path,
        goStrings(versions),
        `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(", ")}`,
      ),
    );
  return errs;
}

/** validateMutatingWebhook / validateValidatingWebhook. */
function webhookErrors(hook: Obj, path: string, mutating: boolean, opts: WebhookValidationOptions) {
  const errs = fullyQualifiedNameErrors(
    typeof hook.name === "string" ? hook.name : "",
    `${path}.name`,
  );
  (Array.isArray(hook.rules) ? hook.rules : []).forEach((rule, i) => {
    errs.push(...ruleErrors(isObj(rule) ? rule : {}, `${path}.rules[${i}]`));
  });
  const policy = (key: string, allowed: readonly string[]) => {
    const v = hook[key];
    if (v !== undefined && v !== null && !allowed.includes(String(v)))
      errs.push(field.notSupported(`${path}.${key}`, String(v), allowed));
  };
  policy("failurePolicy", FAILURE_POLICIES);
  policy("matchPolicy", MATCH_POLICIES);
  if (hook.sideEffects === undefined || hook.sideEffects === null)
    errs.push(
      field.required(`${path}.sideEffects`, `must specify one of ${NO_SIDE_EFFECTS.join(", ")}`),
    );
  else policy("sideEffects", NO_SIDE_EFFECTS);
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === "number" && (timeout > 30 || timeout < 1))
    errs.push(
      field.invalid(
        `${path}.timeoutSeconds`,
        timeout,
        "the timeout value must be between 1 and 30 seconds",
      ),
    );
  errs.push(...labelSelectorErrors(hook.namespaceSelector, `${path}.namespaceSelector`));
  errs.push(...labelSelectorErrors(hook.objectSelector, `${path}.objectSelector`));
  if (mutating) policy("reinvocationPolicy", REINVOCATION);
  errs.push(...webhookClientConfigErrors(hook.clientConfig, `${path}.clientConfig`));
  if (opts.matchConditions)
    errs.push(...opts.matchConditions(hook.matchConditions, `${path}.matchConditions`));
  return errs;
}

/**
 * The webhooks' errors (everything but the object's metadata, which a server checks with every
 * object's): each webhook, then its admissionReviewVersions, then a repeated name.
 */
export function validateWebhooks(
  config: object,
  kind: WebhookConfigurationKind,
  opts: WebhookValidationOptions = {},
): FieldError[] {
  const mutating = kind === "MutatingWebhookConfiguration";
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const webhooks = (config as Obj).webhooks;
  (Array.isArray(webhooks) ? webhooks : []).forEach((raw, i) => {
    const hook = isObj(raw) ? raw : {};
    const path = `webhooks[${i}]`;
    errs.push(...webhookErrors(hook, path, mutating, opts));
    errs.push(
      ...reviewVersionErrors(
        strings(hook.admissionReviewVersions),
        `${path}.admissionReviewVersions`,
      ),
    );
    const name = typeof hook.name === "string" ? hook.name : "";
    if (name && names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    names.add(name);
  });
  return errs;
}

/**
 * Everything kube-apiserver refuses in a configuration on create: metadata.name a DNS subdomain
 * (the object-meta part a generator needs), then `validateWebhooks`.
 */
export function validateWebhookConfiguration(
  config: { kind: WebhookConfigurationKind; metadata?: object },
  opts: WebhookValidationOptions = {},
): FieldError[] {
  const meta: Obj = isObj(config.metadata) ? config.metadata : {};
  const name = typeof meta.name === "string" ? meta.name : "";
  const errs: FieldError[] = name
    ? isDNS1123Subdomain(name).map((detail) => field.invalid("metadata.name", name, detail))
    : [field.required("metadata.name", "name or generateName is required")];
  errs.push(...validateWebhooks(config, config.kind, opts));
  return errs;
}
