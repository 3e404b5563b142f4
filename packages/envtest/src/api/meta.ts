/**
 * ObjectMeta rules shared by every resource: server-set fields (uid, timestamps, generated
 * names) and the metadata validation of apimachinery's `ValidateObjectMeta` (names, labels,
 * annotations, owner references, finalizers) with its exact messages.
 */

import { randomUUID } from "node:crypto";
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from "@opgen/apimachinery/names";
import type { FieldError } from "@opgen/apimachinery/status";
import { isObject, type KubeObject, type ObjectMeta } from "./types.js";

/** metav1.Time: RFC 3339 seconds, UTC (now, or the given epoch milliseconds). */
export function nowTime(at = Date.now()): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** metav1.MicroTime: microsecond precision, UTC. */
export function microTime(d = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Re-normalizes an input timestamp to metav1.Time (client-node sends milliseconds). */
export function normalizeTime(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return v;
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Re-normalizes an input timestamp to metav1.MicroTime. */
export function normalizeMicroTime(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(v);
  if (!m) return v;
  if (m[3] !== "Z") {
    const t = Date.parse(v);
    return Number.isNaN(t) ? v : microTime(new Date(t));
  }
  const frac = (m[2] ?? "").padEnd(6, "0").slice(0, 6);
  return `${m[1]}.${frac}Z`;
}

export function newUid(): string {
  return randomUUID();
}

const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789";

/** names.SimpleNameGenerator: base truncated to 58 chars plus 5 random characters. */
export function generateName(base: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++)
    suffix += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)];
  return base.slice(0, 58) + suffix;
}

export type NameRule = "subdomain" | "label" | "path";

function nameErrors(rule: NameRule, name: string): string[] {
  if (rule === "label") return isDNS1123Label(name);
  if (rule === "subdomain") return isDNS1123Subdomain(name);
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const bad = ["/", "%"].filter((c) => name.includes(c));
  return bad.map((c) => `may not contain '${c}'`);
}

/** ValidateObjectMeta for create (and the shared parts of update). */
export function validateObjectMeta(
  obj: KubeObject,
  opts: { namespaced: boolean; nameRule: NameRule },
): FieldError[] {
  const errs: FieldError[] = [];
  const meta = (obj.metadata ?? {}) as ObjectMeta;
  if (!meta.name) {
    if (!meta.generateName) {
      errs.push({
        type: "FieldValueRequired",
        field: "metadata.name",
        detail: "name or generateName is required",
      });
    }
  } else {
    for (const msg of nameErrors(opts.nameRule, meta.name)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "metadata.name",
        value: meta.name,
        detail: msg,
      });
    }
  }
  if (opts.namespaced) {
    if (!meta.namespace) {
      errs.push({ type: "FieldValueRequired", field: "metadata.namespace", detail: "" });
    }
  } else if (meta.namespace) {
    errs.push({
      type: "FieldValueForbidden",
      field: "metadata.namespace",
      detail: "not allowed on this type",
    });
  }
  if (meta.labels !== undefined) {
    if (!isObject(meta.labels)) {
      errs.push({ type: "FieldValueTypeInvalid", field: "metadata.labels", value: meta.labels });
    } else {
      for (const [k, v] of Object.entries(meta.labels)) {
        for (const msg of isQualifiedName(k)) {
          errs.push({ type: "FieldValueInvalid", field: "metadata.labels", value: k, detail: msg });
        }
        for (const msg of typeof v === "string" ? isValidLabelValue(v) : ["must be a string"]) {
          errs.push({ type: "FieldValueInvalid", field: "metadata.labels", value: v, detail: msg });
        }
      }
    }
  }
  if (meta.annotations !== undefined && isObject(meta.annotations)) {
    let size = 0;
    for (const [k, v] of Object.entries(meta.annotations)) {
      size += k.length + String(v).length;
      for (const msg of isQualifiedName(k.toLowerCase())) {
        errs.push({
          type: "FieldValueInvalid",
          field: "metadata.annotations",
          value: k,
          detail: msg,
        });
      }
    }
    if (size > 262144) {
      errs.push({
        type: "FieldValueTooLong",
        field: "metadata.annotations",
        detail: "may not be more than 262144 bytes",
      });
    }
  }
  const refs = meta.ownerReferences ?? [];
  let controllers = 0;
  refs.forEach((r, i) => {
    const p = `metadata.ownerReferences[${i}]`;
    if (!r.apiVersion)
      errs.push({
        type: "FieldValueInvalid",
        field: `${p}.apiVersion`,
        value: r.apiVersion ?? "",
        detail: "version must not be empty",
      });
    if (!r.kind)
      errs.push({
        type: "FieldValueInvalid",
        field: `${p}.kind`,
        value: r.kind ?? "",
        detail: "kind must not be empty",
      });
    if (!r.name)
      errs.push({
        type: "FieldValueInvalid",
        field: `${p}.name`,
        value: r.name ?? "",
        detail: "name must not be empty",
      });
    if (!r.uid)
      errs.push({
        type: "FieldValueInvalid",
        field: `${p}.uid`,
        value: r.uid ?? "",
        detail: "uid must not be empty",
      });
    if (r.controller) controllers++;
  });
  if (controllers > 1) {
    const names = refs.filter((r) => r.controller).map((r) => `${r.kind}/${r.name}`);
    errs.push({
      type: "FieldValueInvalid",
      field: "metadata.ownerReferences",
      value: refs,
      detail: `Only one reference can have Controller set to true. Found "true" in references for ${names.join(" and ")}`,
    });
  }
  (meta.finalizers ?? []).forEach((f, i) => {
    for (const msg of isQualifiedName(f)) {
      errs.push({
        type: "FieldValueInvalid",
        field: `metadata.finalizers[${i}]`,
        value: f,
        detail: msg,
      });
    }
  });
  return errs;
}

/** Warnings for finalizer names that are not domain-qualified (apimachinery 1.27+). */
export function finalizerWarnings(obj: KubeObject): string[] {
  const out: string[] = [];
  // IsStandardFinalizerName: the system's own finalizers never warn.
  const standard = new Set([
    "kubernetes",
    "orphan",
    "foregroundDeletion",
    "customresourcecleanup.apiextensions.k8s.io",
  ]);
  for (const f of obj.metadata?.finalizers ?? []) {
    if (!standard.has(f) && !f.includes("/") && isQualifiedName(f).length === 0) {
      out.push(
        `metadata.finalizers: "${f}": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`,
      );
    }
  }
  return out;
}
