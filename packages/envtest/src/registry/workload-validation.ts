/**
 * The validation kube-apiserver applies to the built-in objects operators create most
 * (`pkg/apis/core/validation`, `pkg/apis/apps/validation`): pod specs (containers, names,
 * images, ports, restart policy), workload selectors that must match their template labels,
 * Services (ports, types) and ConfigMap/Secret keys — the mistakes a test must catch before a
 * real cluster does, with the real field paths and messages.
 */

import { isDNS1123Label } from "@opgen/apimachinery/names";
import { labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { type FieldError, goValue } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";

const portRange = "must be between 1 and 65535, inclusive";

function list(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function goStringMap(m: Record<string, unknown>): string {
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(m[k]))}`);
  return `map[string]string{${entries.join(", ")}}`;
}

function validatePort(v: unknown, field: string, errs: FieldError[]): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 65535) {
    errs.push({ type: "FieldValueInvalid", field, value: v ?? 0, detail: portRange });
  }
}

function validateContainers(
  containers: JsonObject[],
  path: string,
  errs: FieldError[],
  seen: Set<string>,
): void {
  containers.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const name = typeof c.name === "string" ? c.name : "";
    if (!name) errs.push({ type: "FieldValueRequired", field: `${p}.name`, detail: "" });
    else {
      for (const m of isDNS1123Label(name))
        errs.push({ type: "FieldValueInvalid", field: `${p}.name`, value: name, detail: m });
      if (seen.has(name))
        errs.push({ type: "FieldValueDuplicate", field: `${p}.name`, value: name });
      seen.add(name);
    }
    if (!c.image) errs.push({ type: "FieldValueRequired", field: `${p}.image`, detail: "" });
    list(c.ports).forEach((port, j) => {
      validatePort(port.containerPort, `${p}.ports[${j}].containerPort`, errs);
      if (port.protocol !== undefined && !["TCP", "UDP", "SCTP"].includes(String(port.protocol))) {
        errs.push({
          type: "FieldValueNotSupported",
          field: `${p}.ports[${j}].protocol`,
          value: port.protocol,
          detail: 'supported values: "SCTP", "TCP", "UDP"',
        });
      }
    });
    const pull = c.imagePullPolicy;
    if (pull !== undefined && !["Always", "IfNotPresent", "Never"].includes(String(pull))) {
      errs.push({
        type: "FieldValueNotSupported",
        field: `${p}.imagePullPolicy`,
        value: pull,
        detail: 'supported values: "Always", "IfNotPresent", "Never"',
      });
    }
  });
}

/** ValidatePodSpec, for the fields clients get wrong. */
export function validatePodSpec(
  spec: unknown,
  path: string,
  restartPolicies = ["Always", "OnFailure", "Never"],
): FieldError[] {
  const errs: FieldError[] = [];
  const s = isObject(spec) ? spec : {};
  const containers = list(s.containers);
  if (containers.length === 0)
    errs.push({ type: "FieldValueRequired", field: `${path}.containers`, detail: "" });
  const seen = new Set<string>();
  validateContainers(list(s.initContainers), `${path}.initContainers`, errs, seen);
  validateContainers(containers, `${path}.containers`, errs, seen);
  if (s.restartPolicy !== undefined && !restartPolicies.includes(String(s.restartPolicy))) {
    errs.push({
      type: "FieldValueNotSupported",
      field: `${path}.restartPolicy`,
      value: s.restartPolicy,
      detail: `supported values: ${restartPolicies.map((x) => JSON.stringify(x)).join(", ")}`,
    });
  }
  return errs;
}

/**
 * ValidatePodTemplateSpec: the pod spec, and no ephemeral containers (they are added to running
 * pods only). `path` is the template's own (`spec.template`, `template`).
 */
export function validatePodTemplateSpec(
  template: unknown,
  path: string,
  restartPolicies?: string[],
): FieldError[] {
  const spec = isObject(template) && isObject(template.spec) ? template.spec : {};
  const errs = validatePodSpec(spec, `${path}.spec`, restartPolicies);
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0)
    errs.push({
      type: "FieldValueForbidden",
      field: `${path}.spec.ephemeralContainers`,
      detail: "ephemeral containers not allowed in pod template",
    });
  return errs;
}

/** Deployment/ReplicaSet/StatefulSet/DaemonSet/Job: selector, template labels, pod spec. */
export function validateWorkload(kind: string, o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isObject(o.spec) ? o.spec : {};
  if (spec.replicas !== undefined && (typeof spec.replicas !== "number" || spec.replicas < 0)) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.replicas",
      value: spec.replicas,
      detail: "must be greater than or equal to 0",
    });
  }
  const template = isObject(spec.template) ? spec.template : {};
  const labels = ((isObject(template.metadata) ? template.metadata.labels : undefined) ??
    {}) as Record<string, string>;
  const selector = spec.selector;
  if (kind !== "Job") {
    if (!isObject(selector))
      errs.push({ type: "FieldValueRequired", field: "spec.selector", detail: "" });
    else {
      const ml = (selector.matchLabels ?? {}) as Record<string, string>;
      const me = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
      if (Object.keys(ml).length === 0 && me.length === 0) {
        errs.push({
          type: "FieldValueInvalid",
          field: "spec.selector",
          value: goValue(
            "v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}",
          ),
          detail: `empty selector is invalid for ${kind === "Deployment" ? "deployment" : kind.toLowerCase()}`,
        });
      } else {
        let matches = true;
        try {
          matches = labelSelectorAsSelector({ matchLabels: ml, matchExpressions: me }).matches(
            labels,
          );
        } catch {
          matches = false;
        }
        if (!matches) {
          errs.push({
            type: "FieldValueInvalid",
            field: "spec.template.metadata.labels",
            value: goValue(goStringMap(labels)),
            detail: "`selector` does not match template `labels`",
          });
        }
      }
    }
  }
  const policies = kind === "Job" || kind === "CronJob" ? ["OnFailure", "Never"] : ["Always"];
  errs.push(...validatePodTemplateSpec(template, "spec.template", policies));
  return errs;
}

const serviceTypes = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];

export function validateService(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isObject(o.spec) ? o.spec : {};
  const type = spec.type ?? "ClusterIP";
  if (!serviceTypes.includes(String(type))) {
    errs.push({
      type: "FieldValueNotSupported",
      field: "spec.type",
      value: type,
      detail: `supported values: ${serviceTypes.map((t) => JSON.stringify(t)).join(", ")}`,
    });
  }
  const ports = list(spec.ports);
  if (ports.length === 0 && type !== "ExternalName" && spec.clusterIP !== "None") {
    errs.push({ type: "FieldValueRequired", field: "spec.ports", detail: "" });
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name)
      errs.push({ type: "FieldValueRequired", field: `${path}.name`, detail: "" });
    if (typeof p.name === "string" && p.name) {
      for (const m of isDNS1123Label(p.name))
        errs.push({ type: "FieldValueInvalid", field: `${path}.name`, value: p.name, detail: m });
      if (names.has(p.name))
        errs.push({ type: "FieldValueDuplicate", field: `${path}.name`, value: p.name });
      names.add(p.name);
    }
    validatePort(p.port, `${path}.port`, errs);
  });
  return errs;
}

const configKeyRe = /^[-._a-zA-Z0-9]+$/;

/** ConfigMap data/binaryData and Secret data/stringData keys. */
export function validateConfigKeys(o: KubeObject, fields: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const f of fields) {
    const m = o[f];
    if (!isObject(m)) continue;
    for (const key of Object.keys(m)) {
      if (key.length > 253 || !configKeyRe.test(key)) {
        errs.push({
          type: "FieldValueInvalid",
          field: `${f}[${key}]`,
          value: key,
          detail:
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        });
      }
      if (seen.has(key) && f === "binaryData") {
        errs.push({
          type: "FieldValueInvalid",
          field: `${f}[${key}]`,
          value: key,
          detail: "duplicate of key present in data",
        });
      }
      seen.add(key);
    }
  }
  return errs;
}
