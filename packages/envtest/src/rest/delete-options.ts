/**
 * DeleteOptions from a JSON body or query parameters (kubectl sends a body, client-node query
 * parameters), their validation (`ValidateDeleteOptions`), and the dryRun parameter.
 */
import { errors, type FieldError } from "@opgen/apimachinery/status";
import { deepClone, isObject } from "../api/types.js";
import { parseBool } from "./scope.js";
import { dryRunErrors } from "./write-options.js";

export interface DeleteOptions {
  propagationPolicy?: string;
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  dryRun?: string[];
  preconditions?: { uid?: string; resourceVersion?: string };
}

export function isDryRun(query: URLSearchParams, opts?: DeleteOptions): boolean {
  const values = [...query.getAll("dryRun"), ...(opts?.dryRun ?? [])];
  for (const v of values) {
    if (v !== "All") {
      throw errors.badRequest(`Invalid dry run value: ${v}, only "All" is supported`);
    }
  }
  return values.length > 0;
}

export function validateDeleteOptions(opts: DeleteOptions): void {
  const errs: FieldError[] = [];
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push({
      type: "FieldValueInvalid",
      field: "propagationPolicy",
      value: opts.propagationPolicy,
      detail: "orphanDependents and deletionPropagation cannot be both set",
    });
  }
  if (
    opts.propagationPolicy !== undefined &&
    !["Orphan", "Background", "Foreground"].includes(opts.propagationPolicy)
  ) {
    errs.push({
      type: "FieldValueNotSupported",
      field: "propagationPolicy",
      value: opts.propagationPolicy,
      detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  }
  if (opts.dryRun !== undefined) errs.push(...dryRunErrors(opts.dryRun));
  if (errs.length) throw errors.invalid("DeleteOptions", "meta.k8s.io", "", errs);
}

/** DeleteOptions from a JSON body and/or query parameters (client-node sends query params). */
export function deleteOptionsFrom(query: URLSearchParams, body: unknown): DeleteOptions {
  const opts: DeleteOptions = isObject(body) ? (deepClone(body) as DeleteOptions) : {};
  const pp = query.get("propagationPolicy");
  if (pp) opts.propagationPolicy = pp;
  const od = query.get("orphanDependents");
  if (od !== null) opts.orphanDependents = parseBool(od);
  const gp = query.get("gracePeriodSeconds");
  if (gp !== null) opts.gracePeriodSeconds = Number(gp);
  return opts;
}
