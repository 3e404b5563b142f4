/**
 * Mutating/ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1): the defaults of
 * `admissionregistration/v1/defaults.go` and the validation of `validation/validation.go`
 * (names fully qualified and unique in a configuration, sideEffects and admissionReviewVersions
 * required, clientConfig, rules, policies, timeoutSeconds 1..30), with kube's messages.
 */
import { type FieldError, goValue } from "@opgen/apimachinery/status";
import { matchConditionErrors } from "../../admission/match-conditions.js";
import { dnsSubdomainErrors } from "../../api/meta.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { ResourceStrategy } from "../strategy.js";
import { clientConfigErrors } from "./client-config.js";

const quoted = (vs: string[]) => vs.map((v) => `"${v}"`).join(", ");

function notSupported(field: string, value: unknown, supported: string[]): FieldError {
  return {
    type: "FieldValueNotSupported",
    field,
    value: String(value),
    detail: `supported values: ${quoted(supported)}`,
  };
}

function defaults(mutating: boolean) {
  return (o: KubeObject): void => {
    for (const h of (Array.isArray(o.webhooks) ? o.webhooks : []) as JsonObject[]) {
      if (!isObject(h)) continue;
      h.failurePolicy ??= "Fail";
      h.matchPolicy ??= "Equivalent";
      h.namespaceSelector ??= {};
      h.objectSelector ??= {};
      h.timeoutSeconds ??= 10;
      if (mutating) h.reinvocationPolicy ??= "Never";
      for (const r of (Array.isArray(h.rules) ? h.rules : []) as JsonObject[]) {
        if (isObject(r)) r.scope ??= "*";
      }
      const cc = h.clientConfig as JsonObject | undefined;
      if (isObject(cc?.service) && cc.service.port === undefined) cc.service.port = 443;
    }
  };
}

function ruleErrors(r: JsonObject, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = (r.operations ?? []) as string[];
  if (ops.length === 0)
    errs.push({ type: "FieldValueRequired", field: `${field}.operations`, detail: "" });
  if (ops.length > 1 && ops.includes("*")) {
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.operations`,
      value: goStrings(ops),
      detail: "if '*' is present, must not specify other operations",
    });
  }
  ops.forEach((op, i) => {
    if (!["*", "CONNECT", "CREATE", "DELETE", "UPDATE"].includes(op))
      errs.push(
        notSupported(`${field}.operations[${i}]`, op, [
          "*",
          "CONNECT",
          "CREATE",
          "DELETE",
          "UPDATE",
        ]),
      );
  });
  for (const key of ["apiGroups", "apiVersions", "resources"]) {
    if (((r[key] ?? []) as unknown[]).length === 0)
      errs.push({ type: "FieldValueRequired", field: `${field}.${key}`, detail: "" });
  }
  if (r.scope !== undefined && !["*", "Cluster", "Namespaced"].includes(String(r.scope)))
    errs.push(notSupported(`${field}.scope`, r.scope, ["*", "Cluster", "Namespaced"]));
  return errs;
}

function webhookErrors(h: JsonObject, field: string, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof h.name === "string" ? h.name : "";
  if (!name) errs.push({ type: "FieldValueRequired", field: `${field}.name`, detail: "" });
  else {
    for (const m of dnsSubdomainErrors(name))
      errs.push({ type: "FieldValueInvalid", field: `${field}.name`, value: name, detail: m });
    if (name.split(".").length < 3) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${field}.name`,
        value: name,
        detail: "should be a domain with at least three segments separated by dots",
      });
    }
  }
  ((h.rules ?? []) as JsonObject[]).forEach((r, i) => {
    errs.push(...ruleErrors(r, `${field}.rules[${i}]`));
  });
  if (h.failurePolicy !== undefined && !["Fail", "Ignore"].includes(String(h.failurePolicy)))
    errs.push(notSupported(`${field}.failurePolicy`, h.failurePolicy, ["Fail", "Ignore"]));
  if (h.matchPolicy !== undefined && !["Equivalent", "Exact"].includes(String(h.matchPolicy)))
    errs.push(notSupported(`${field}.matchPolicy`, h.matchPolicy, ["Equivalent", "Exact"]));
  if (
    mutating &&
    h.reinvocationPolicy !== undefined &&
    !["IfNeeded", "Never"].includes(String(h.reinvocationPolicy))
  )
    errs.push(
      notSupported(`${field}.reinvocationPolicy`, h.reinvocationPolicy, ["IfNeeded", "Never"]),
    );
  if (h.sideEffects === undefined || h.sideEffects === null) {
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.sideEffects`,
      detail: "must specify one of None, NoneOnDryRun",
    });
  } else if (!["None", "NoneOnDryRun"].includes(String(h.sideEffects))) {
    errs.push(notSupported(`${field}.sideEffects`, h.sideEffects, ["None", "NoneOnDryRun"]));
  }
  const versions = (h.admissionReviewVersions ?? []) as string[];
  if (versions.length === 0) {
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.admissionReviewVersions`,
      detail: "must specify one of v1, v1beta1",
    });
  } else if (!versions.some((v) => v === "v1" || v === "v1beta1")) {
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.admissionReviewVersions`,
      value: goStrings(versions as string[]),
      detail: "must include at least one of v1, v1beta1",
    });
  }
  const timeout = h.timeoutSeconds;
  if (typeof timeout === "number" && (timeout < 1 || timeout > 30)) {
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.timeoutSeconds`,
      value: timeout,
      detail: "the timeout value must be between 1 and 30 seconds",
    });
  }
  errs.push(...matchConditionErrors(h.matchConditions, `${field}.matchConditions`));
  if (!isObject(h.clientConfig)) {
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.clientConfig`,
      detail: "exactly one of url or service is required",
    });
  } else errs.push(...clientConfigErrors(h.clientConfig, `${field}.clientConfig`));
  return errs;
}

function validate(mutating: boolean) {
  return (o: KubeObject): FieldError[] => {
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    ((Array.isArray(o.webhooks) ? o.webhooks : []) as JsonObject[]).forEach((h, i) => {
      const field = `webhooks[${i}]`;
      if (!isObject(h)) return;
      errs.push(...webhookErrors(h, field, mutating));
      const name = typeof h.name === "string" ? h.name : "";
      if (name && seen.has(name))
        errs.push({ type: "FieldValueDuplicate", field: `${field}.name`, value: name, detail: "" });
      seen.add(name);
    });
    return errs;
  };
}

// Generation follows the webhooks (the objects have no spec).
const generationRelevant = (o: KubeObject) => o.webhooks;

export const mutatingWebhookConfigurations: ResourceStrategy = {
  nameRule: "subdomain",
  generationRelevant,
  defaults: defaults(true),
  validate: validate(true),
};

export const validatingWebhookConfigurations: ResourceStrategy = {
  nameRule: "subdomain",
  generationRelevant,
  defaults: defaults(false),
  validate: validate(false),
};

/** A []string as Go's %#v prints it in a field error. */
function goStrings(vs: readonly string[]) {
  return goValue(`[]string{${vs.map((v) => JSON.stringify(String(v))).join(", ")}}`);
}
