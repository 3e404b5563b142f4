/**
 * ObjectMeta rules shared by every resource: server-set fields (uid, timestamps, generated
 * names) and the metadata validation of apimachinery's `ValidateObjectMeta` (its one home is
 * @opgen/apimachinery/validation) with its exact messages.
 */

import { randomUUID } from "node:crypto";
import { isQualifiedName } from "@opgen/apimachinery/names";
import type { FieldError } from "@opgen/apimachinery/status";
import { type NameRule, objectMetaErrors } from "@opgen/apimachinery/validation";
import { isObject, type KubeObject, type ObjectMeta } from "./types.js";

/** The last second formatted: a write stamps two or three times in the same second. */
let lastSecond = Number.NaN;
let lastText = "";

/** metav1.Time: RFC 3339 seconds, UTC (now, or the given epoch milliseconds). */
export function nowTime(at = Date.now()): string {
  const second = Math.floor(at / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(".000Z", "Z");
    lastSecond = second;
  }
  return lastText;
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

export type { NameRule } from "@opgen/apimachinery/validation";

/** ValidateObjectMeta for create (and the shared parts of update): apimachinery's, shared. */
export function validateObjectMeta(
  obj: KubeObject,
  opts: { namespaced: boolean; nameRule: NameRule; update?: boolean },
): FieldError[] {
  return objectMetaErrors(obj.metadata, opts);
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

/** The object's metadata, made an object first if it is not one. */
export function meta(o: KubeObject): ObjectMeta {
  if (!isObject(o.metadata)) o.metadata = {};
  return o.metadata as ObjectMeta;
}
