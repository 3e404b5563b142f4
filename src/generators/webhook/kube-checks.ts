/**
 * What kube-apiserver 1.32 refuses when a Mutating/ValidatingWebhookConfiguration is created
 * (k8s pkg/apis/admissionregistration/validation/validation.go with the create options:
 * side effects None/NoneOnDryRun only, a recognised AdmissionReview version, unique webhook
 * names; k8s.io/apiserver pkg/util/webhook/validation.go for URLs and Service paths), so
 * `opgen manifests` refuses it at the marker instead of `kubectl apply` refusing the file.
 * Messages keep kube's wording after the field path; match conditions (CEL) are left to the server.
 */
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from "@opgen/apimachinery/names";

/** A problem of one webhook (`index`) or of the configuration itself (`index` undefined). */
export interface KubeProblem {
  index?: number;
  message: string;
}

const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const REINVOCATION = ["IfNeeded", "Never"];
const REVIEW_VERSIONS = ["v1", "v1beta1"];

const quote = (v: unknown) => JSON.stringify(v);
const invalid = (field: string, value: unknown, detail: string) =>
  `${field}: Invalid value: ${quote(value)}: ${detail}`;
const notSupported = (field: string, value: unknown, allowed: readonly string[]) =>
  `${field}: Unsupported value: ${quote(value)}: supported values: ${allowed.map((a) => quote(a)).join(", ")}`;
const required = (field: string, detail = "") =>
  `${field}: Required value${detail ? `: ${detail}` : ""}`;

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** utilvalidation.IsFullyQualifiedName. */
function fullyQualifiedName(name: string): string[] {
  if (!name) return [required("name")];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [invalid("name", name, errs.join(","))];
  if (name.split(".").length < 3)
    return [
      invalid("name", name, "should be a domain with at least three segments separated by dots"),
    ];
  return [];
}

function wildcardAmong(field: string, values: readonly string[], what: string): string[] {
  return values.length > 1 && values.includes("*")
    ? [invalid(field, values, `if '*' is present, must not specify other ${what}`)]
    : [];
}

/** validateResources (subresources allowed). */
function resourceErrors(resources: readonly string[]): string[] {
  const errs: string[] = [];
  if (!resources.length) errs.push(required("rules[0].resources"));
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let single = false;
  let plain = false;
  resources.forEach((r, i) => {
    const field = `rules[0].resources[${i}]`;
    if (r === "") {
      errs.push(required(field));
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
    if (wildSub.has(res))
      errs.push(invalid(field, r, `if '${res}/*' is present, must not specify ${r}`));
    if (wildRes.has(sub))
      errs.push(invalid(field, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === "*") wildSub.add(res);
    if (res === "*") wildRes.add(sub);
  });
  if (resources.length > 1 && resources.includes("*/*"))
    errs.push(
      invalid(
        "rules[0].resources",
        resources,
        "if '*/*' is present, must not specify other resources",
      ),
    );
  if (single && plain)
    errs.push(
      invalid(
        "rules[0].resources",
        resources,
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  return errs;
}

function ruleErrors(rule: Obj): string[] {
  const errs: string[] = [];
  const ops = strings(rule.operations);
  if (!ops.length) errs.push(required("rules[0].operations"));
  errs.push(...wildcardAmong("rules[0].operations", ops, "operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op))
      errs.push(notSupported(`rules[0].operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (!groups.length) errs.push(required("rules[0].apiGroups"));
  errs.push(...wildcardAmong("rules[0].apiGroups", groups, "API groups"));
  const versions = strings(rule.apiVersions);
  if (!versions.length) errs.push(required("rules[0].apiVersions"));
  errs.push(...wildcardAmong("rules[0].apiVersions", versions, "API versions"));
  versions.forEach((v, i) => {
    if (v === "") errs.push(required(`rules[0].apiVersions[${i}]`));
  });
  errs.push(...resourceErrors(strings(rule.resources)));
  return errs;
}

/** metav1validation.ValidateLabelSelector (invalid label values not allowed, as on create). */
function selectorErrors(field: string, selector: unknown): string[] {
  if (selector === undefined || selector === null) return [];
  const errs: string[] = [];
  const sel = selector as Obj;
  for (const [key, value] of Object.entries((sel.matchLabels ?? {}) as Obj)) {
    for (const e of isQualifiedName(key)) errs.push(invalid(`${field}.matchLabels`, key, e));
    for (const e of isValidLabelValue(String(value)))
      errs.push(invalid(`${field}.matchLabels`, value, e));
  }
  const exprs = Array.isArray(sel.matchExpressions) ? (sel.matchExpressions as Obj[]) : [];
  exprs.forEach((expr, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    const values = strings(expr.values);
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (!values.length)
          errs.push(
            required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length)
          errs.push(
            `${at}.values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
          );
        break;
      default:
        errs.push(invalid(`${at}.operator`, expr.operator, "not a valid selector operator"));
    }
    for (const e of isQualifiedName(String(expr.key ?? "")))
      errs.push(invalid(`${at}.key`, expr.key, e));
    values.forEach((v, j) => {
      for (const e of isValidLabelValue(v)) errs.push(invalid(`${at}.values[${j}]`, v, e));
    });
  });
  return errs;
}

const FORM = "; desired format: https://host[/path]";

/** webhook.ValidateWebhookURL with https forced. */
function urlErrors(raw: string): string[] {
  const field = "clientConfig.url";
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return [required(field, `url must be a valid URL${FORM}`)];
  }
  const errs: string[] = [];
  if (u.protocol !== "https:")
    errs.push(
      invalid(field, u.protocol.replace(/:$/, ""), `'https' is the only allowed URL scheme${FORM}`),
    );
  if (!u.host) errs.push(invalid(field, u.host, `host must be provided${FORM}`));
  if (u.username || u.password)
    errs.push(invalid(field, u.username, "user information is not permitted in the URL"));
  if (u.hash) errs.push(invalid(field, u.hash.slice(1), "fragments are not permitted in the URL"));
  if (u.search)
    errs.push(invalid(field, u.search.slice(1), "query parameters are not permitted in the URL"));
  return errs;
}

/** webhook.ValidateWebhookService (port defaulted to 443 first, as the server defaults it). */
function serviceErrors(service: Obj): string[] {
  const field = "clientConfig.service";
  const errs: string[] = [];
  if (!service.name) errs.push(required(`${field}.name`, "service name is required"));
  if (!service.namespace)
    errs.push(required(`${field}.namespace`, "service namespace is required"));
  const port = service.port === undefined ? 443 : Number(service.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errs.push(
      invalid(`${field}.port`, port, "port is not valid: must be between 1 and 65535, inclusive"),
    );
  const path = typeof service.path === "string" ? service.path : undefined;
  if (path === undefined || path === "/" || path === "") return errs;
  if (path === "//")
    return [...errs, invalid(`${field}.path`, path, "segment[0] may not be empty")];
  if (!path.startsWith("/")) errs.push(invalid(`${field}.path`, path, "must start with a '/'"));
  let rest = path.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (!step) errs.push(invalid(`${field}.path`, path, `segment[${i}] may not be empty`));
    else
      for (const e of isDNS1123Subdomain(step))
        errs.push(invalid(`${field}.path`, path, `segment[${i}]: ${e}`));
  });
  return errs;
}

/** validateAdmissionReviewVersions with a recognised version required. */
function reviewVersionErrors(versions: readonly string[]): string[] {
  const field = "admissionReviewVersions";
  if (!versions.length)
    return [required(field, `must specify one of ${REVIEW_VERSIONS.join(", ")}`)];
  const errs: string[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(`${field}[${i}]`, v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(invalid(`${field}[${i}]`, v, e));
  });
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v)))
    errs.push(
      invalid(field, versions, `must include at least one of ${REVIEW_VERSIONS.join(", ")}`),
    );
  return errs;
}

function webhookErrors(hook: Obj, mutating: boolean): string[] {
  const errs = fullyQualifiedName(String(hook.name ?? ""));
  for (const rule of (hook.rules ?? []) as Obj[]) errs.push(...ruleErrors(rule));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(String(hook.failurePolicy)))
    errs.push(notSupported("failurePolicy", hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(String(hook.matchPolicy)))
    errs.push(notSupported("matchPolicy", hook.matchPolicy, MATCH_POLICIES));
  if (hook.sideEffects === undefined)
    errs.push(required("sideEffects", `must specify one of ${SIDE_EFFECTS.join(", ")}`));
  else if (!SIDE_EFFECTS.includes(String(hook.sideEffects)))
    errs.push(notSupported("sideEffects", hook.sideEffects, SIDE_EFFECTS));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (Number(timeout) < 1 || Number(timeout) > 30))
    errs.push(
      invalid("timeoutSeconds", timeout, "the timeout value must be between 1 and 30 seconds"),
    );
  errs.push(...selectorErrors("namespaceSelector", hook.namespaceSelector));
  errs.push(...selectorErrors("objectSelector", hook.objectSelector));
  if (
    mutating &&
    hook.reinvocationPolicy !== undefined &&
    !REINVOCATION.includes(String(hook.reinvocationPolicy))
  )
    errs.push(notSupported("reinvocationPolicy", hook.reinvocationPolicy, REINVOCATION));
  const cc = (hook.clientConfig ?? {}) as Obj;
  if ((cc.url === undefined) === (cc.service === undefined))
    errs.push(required("clientConfig", "exactly one of url or service is required"));
  else if (cc.url !== undefined) errs.push(...urlErrors(String(cc.url)));
  else errs.push(...serviceErrors(cc.service as Obj));
  errs.push(...reviewVersionErrors(strings(hook.admissionReviewVersions)));
  return errs;
}

/** Everything kube-apiserver would refuse in one configuration object, webhook by webhook. */
export function kubeProblems(config: {
  kind: string;
  metadata: { name: string };
  webhooks: readonly Obj[];
}): KubeProblem[] {
  const problems: KubeProblem[] = [];
  for (const e of isDNS1123Subdomain(config.metadata.name))
    problems.push({ message: invalid("metadata.name", config.metadata.name, e) });
  const mutating = config.kind === "MutatingWebhookConfiguration";
  const names = new Set<string>();
  config.webhooks.forEach((hook, index) => {
    for (const message of webhookErrors(hook, mutating)) problems.push({ index, message });
    const name = String(hook.name ?? "");
    if (name && names.has(name))
      problems.push({ index, message: `name: Duplicate value: ${quote(name)}` });
    names.add(name);
  });
  return problems;
}
