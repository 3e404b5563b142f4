/**
 * Custom resources (`apiextensions-apiserver/pkg/registry/customresource`): decoding prunes,
 * defaults and checks unknown fields against the CRD's structural schema; validation is the
 * schema's and the CEL rules' (run only on an otherwise valid object), ratcheted on update so
 * what was already invalid may stay; every change outside metadata (and outside status when the
 * status subresource is on) bumps generation; the CRD's additionalPrinterColumns are the table
 * (`tableconvertor.go`).
 */

import { evaluateJsonPath } from "@opgen/apimachinery/jsonpath";
import type { FieldError } from "@opgen/apimachinery/status";
import { validateCel } from "@opgen/apimachinery/validation";
import type {
  KubeObject,
  PrinterColumn,
  RequestScope,
  ResourceVersionInfo,
} from "../../api/types.js";
import {
  coerceCustomResource,
  fieldValidationOf,
  schemaErrors,
} from "../../rest/schema-pipeline.js";
import { ratchet } from "../../schema/ratchet.js";
import { age, nameColumn } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

function cellFor(col: PrinterColumn, obj: KubeObject): unknown {
  let values: unknown[];
  try {
    values = evaluateJsonPath(obj, col.jsonPath);
  } catch {
    return null;
  }
  if (values.length === 0) return null;
  const v = values[0];
  switch (col.type) {
    case "integer":
      return typeof v === "number" ? Math.trunc(v) : null;
    case "number":
      return typeof v === "number" ? v : null;
    case "boolean":
      return typeof v === "boolean" ? v : null;
    case "date":
      return typeof v === "string" ? age(v) : null;
    default:
      return values.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" ");
  }
}

/**
 * The schema's errors, then (on a valid object) the CEL rules', ratcheted on update where the
 * server's CRDValidationRatcheting gate is on (its default from 1.30).
 */
function validateCustomResource(
  obj: KubeObject,
  old: KubeObject | undefined,
  scope: RequestScope,
  found: readonly FieldError[],
): FieldError[] {
  const only = scope.subresource === "status" ? "status" : undefined;
  const ratcheted =
    old && scope.info.kube.featureGates.enabled("CRDValidationRatcheting") ? old : undefined;
  const schemaErrs = schemaErrors(scope.version, obj, only);
  const errs = ratcheted ? ratchet(schemaErrs, obj, ratcheted) : schemaErrs;
  if (found.length > 0 || errs.length > 0) return errs;
  const cel = validateCel(obj, old, scope.version.schema, old !== undefined);
  scope.warnings.push(...cel.warnings);
  return ratcheted ? ratchet(cel.errors, obj, ratcheted) : cel.errors;
}

export const customResources: ResourceStrategy = {
  nameRule: "subdomain",
  decode(scope, o, mutated) {
    // A mutated object drops what the schema does not know silently
    // (`customresource_handler.go` unstructuredDefaulter).
    if (mutated) coerceCustomResource(scope.info, scope.version, o, "Ignore", []);
    else
      coerceCustomResource(
        scope.info,
        scope.version,
        o,
        fieldValidationOf(scope.query),
        scope.warnings,
        scope.duplicateFields,
        scope.applied,
      );
  },
  validateWrite: validateCustomResource,
  generationRelevant(o: KubeObject, version: ResourceVersionInfo) {
    const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o;
    if (version.status) delete rest.status;
    return rest;
  },
  printer(version) {
    const cols = version.printerColumns ?? [];
    return {
      columns: [
        nameColumn,
        ...cols.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? "",
          description:
            c.description ||
            `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
          priority: c.priority ?? 0,
        })),
      ],
      cells: (o) => [o.metadata?.name, ...cols.map((c) => cellFor(c, o))],
    };
  },
};
