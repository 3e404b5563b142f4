/**
 * One `@webhook` marker to one admissionregistration.k8s.io/v1 MutatingWebhook or
 * ValidatingWebhook, as controller-gen's `Config.ToMutatingWebhook`/`ToValidatingWebhook` build it
 * (controller-tools pkg/webhook/parser.go): values normalised the same way (`fail` -> `Fail`,
 * `create` -> `CREATE`, `core` -> `""`), one rule per marker, the webhook Service by default, the
 * `patch` argument applied last. The checks controller-gen makes are here too, in opgen's words;
 * what the API server checks comes from @opgen/apimachinery/admissionregistration (index.ts), and a
 * Service path must also be one the runtime serves (@opgen/apimachinery/names' rule).
 */
import { webhookServiceErrors } from "@opgen/apimachinery/admissionregistration";
import { applyStrategicMergePatch, catalogNode } from "@opgen/apimachinery/merge";
import { webhookPathProblem } from "@opgen/apimachinery/names";
import { kubeVersion } from "@opgen/apimachinery/version";
import type { MarkerArgs, MarkerValue } from "../../markers/types.js";
import { selectorFromString } from "./selector.js";

/** A MutatingWebhook or ValidatingWebhook as JSON (what the YAML writer lays out). */
export type WebhookObject = Record<string, unknown> & { name: string };

export interface BuiltWebhook {
  mutating: boolean;
  webhook: WebhookObject;
}

export type BuildResult = { ok: true; value: BuiltWebhook } | { ok: false; errors: string[] };

export const DEFAULT_SERVICE_NAME = "webhook-service";
export const DEFAULT_SERVICE_NAMESPACE = "system";

function list(value: MarkerValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}

function text(value: MarkerValue | undefined): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

/** controller-gen's case-insensitive spellings; undefined when `raw` is none of `known`. */
function canonical(raw: string, known: readonly string[]): string | undefined {
  return known.find((k) => k.toLowerCase() === raw.toLowerCase());
}

const OPERATIONS = ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"] as const;

/** Builds the webhook of one marker; errors are whole sentences without the `@webhook:` label. */
export function buildWebhook(args: MarkerArgs): BuildResult {
  const errors: string[] = [];
  const mutating = args.mutating === true;
  const name = text(args.name) ?? "";

  for (const version of list(args.webhookVersions)) {
    if (version !== "v1") {
      errors.push(
        `unsupported webhook version ${version}: admissionregistration.k8s.io/v1 is the only one written; drop webhookVersions or write webhookVersions=v1`,
      );
    }
  }

  const rawFailure = text(args.failurePolicy) ?? "";
  const failurePolicy = canonical(rawFailure, ["Fail", "Ignore"]) ?? rawFailure;

  let matchPolicy: string | undefined;
  const rawMatch = text(args.matchPolicy);
  if (rawMatch) {
    matchPolicy = canonical(rawMatch, ["Exact", "Equivalent"]);
    if (!matchPolicy)
      errors.push(`unknown value "${rawMatch}" for matchPolicy; use Exact or Equivalent`);
  }

  let sideEffects: string | undefined;
  const rawSide = text(args.sideEffects);
  if (rawSide === undefined || rawSide === "") {
    errors.push(
      "sideEffects is required for admissionregistration.k8s.io/v1 webhook configurations; write sideEffects=None (or NoneOnDryRun if the webhook skips its side effects on dry runs)",
    );
  } else {
    sideEffects = canonical(rawSide, ["None", "NoneOnDryRun", "Some", "Unknown"]);
    if (sideEffects === "Some" || sideEffects === "Unknown") {
      errors.push(
        `sideEffects=${rawSide} is not allowed in admissionregistration.k8s.io/v1 webhook configurations; write sideEffects=None or NoneOnDryRun and skip side effects on dry-run requests`,
      );
    } else if (!sideEffects) {
      errors.push(`sideEffects "${rawSide}" is not None or NoneOnDryRun`);
    }
  }

  let timeoutSeconds: number | undefined;
  if (args.timeoutSeconds !== undefined) {
    timeoutSeconds = Number(args.timeoutSeconds);
    if (timeoutSeconds < 1 || timeoutSeconds > 30) {
      errors.push(
        `timeoutSeconds=${timeoutSeconds}: must be between 1 and 30 seconds (leave it out for the API server's default, 10)`,
      );
    }
  }

  let reinvocationPolicy: string | undefined;
  const rawReinvocation = text(args.reinvocationPolicy);
  if (rawReinvocation && mutating) {
    reinvocationPolicy = canonical(rawReinvocation, ["Never", "IfNeeded"]);
    if (!reinvocationPolicy)
      errors.push(
        `unknown value "${rawReinvocation}" for reinvocationPolicy; use Never or IfNeeded`,
      );
  }

  const admissionReviewVersions = list(args.admissionReviewVersions);
  if (args.admissionReviewVersions !== undefined && admissionReviewVersions.length === 0) {
    errors.push(
      "admissionReviewVersions is mandatory for admissionregistration.k8s.io/v1 webhook configurations; write admissionReviewVersions=v1",
    );
  }

  const clientConfig = buildClientConfig(args, errors);

  const operations = list(args.verbs).map((verb) => canonical(verb, OPERATIONS) ?? verb);
  const rule = {
    apiGroups: list(args.groups).map((g) => (g === "core" ? "" : g)),
    apiVersions: list(args.versions),
    operations,
    resources: list(args.resources),
  };

  let webhook: WebhookObject = {
    admissionReviewVersions,
    clientConfig,
    failurePolicy,
    matchPolicy,
    name,
    reinvocationPolicy,
    rules: [rule],
    sideEffects,
    timeoutSeconds,
  };
  for (const key of ["namespaceSelector", "objectSelector"] as const) {
    const selector = text(args[key]);
    if (selector === undefined) continue;
    const parsed = selectorFromString(selector);
    if ("problem" in parsed) errors.push(`${key} "${selector}": ${parsed.problem}`);
    else webhook[key] = parsed.selector;
  }

  const patch = text(args.patch);
  if (patch !== undefined) {
    const patched = applyPatch(webhook, patch, mutating);
    if ("problem" in patched) errors.push(`failed to apply patch: ${patched.problem}`);
    else webhook = patched.webhook;
  }

  if (errors.length) return { ok: false, errors };
  // Unset optional fields are left out, as Go's omitempty leaves them out.
  for (const key of Object.keys(webhook)) if (webhook[key] === undefined) delete webhook[key];
  return { ok: true, value: { mutating, webhook } };
}

function buildClientConfig(args: MarkerArgs, errors: string[]): Record<string, unknown> {
  const path = text(args.path);
  const url = text(args.url);
  if ((path === undefined) === (url === undefined)) {
    errors.push(
      "`url` or `path` is required, and not both: path= for the webhook Service (the usual), url= for an https endpoint outside the cluster",
    );
  }
  if (url !== undefined) {
    const serviceArgs = ["serviceName", "serviceNamespace", "servicePort"].filter(
      (k) => args[k] !== undefined,
    );
    if (path === undefined && serviceArgs.length) {
      errors.push(`${serviceArgs.join(", ")} only apply with path=, not with url=`);
    }
    return { url };
  }
  if (path !== undefined) runtimePathErrors(path, errors);
  return {
    service: {
      name: text(args.serviceName) ?? DEFAULT_SERVICE_NAME,
      namespace: text(args.serviceNamespace) ?? DEFAULT_SERVICE_NAMESPACE,
      path: path ?? "",
      ...(args.servicePort === undefined ? {} : { port: Number(args.servicePort) }),
    },
  };
}

/**
 * A Service path the API server takes but `webhookFor` would not serve (a dot, a trailing "/"):
 * refused here, since the marker and the served path must be equal. Paths the API server refuses
 * are left to its check, which names the rule it breaks.
 */
function runtimePathErrors(path: string, errors: string[]): void {
  const problem = webhookPathProblem(path);
  if (!problem) return;
  if (webhookServiceErrors({ name: "s", namespace: "s", path }, "path").length) return;
  errors.push(
    `path "${path}": ${problem}; webhookFor (@opgen/runtime) serves only such paths, so the marker's path and the served one could not match`,
  );
}

/**
 * The `patch` argument: a strategic merge patch on the finished webhook, with the merge keys
 * and strategies of admissionregistration.k8s.io/v1 (from the default version profile's catalog).
 */
function applyPatch(
  webhook: WebhookObject,
  patch: string,
  mutating: boolean,
): { webhook: WebhookObject } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(patch);
  } catch (e) {
    return { problem: `not JSON: ${(e as Error).message}; write the patch in backticks` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { problem: "the patch must be a JSON object" };
  }
  const node = catalogNode(
    kubeVersion().catalog,
    `io.k8s.api.admissionregistration.v1.${mutating ? "MutatingWebhook" : "ValidatingWebhook"}`,
  );
  try {
    const out = applyStrategicMergePatch(
      JSON.parse(JSON.stringify(webhook)),
      parsed as Record<string, never>,
      node,
    );
    return { webhook: out as WebhookObject };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}
