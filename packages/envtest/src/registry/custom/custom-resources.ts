/**
 * Custom resources (`apiextensions-apiserver/pkg/registry/customresource`): every change outside
 * metadata (and outside status when the status subresource is on) bumps generation; the CRD's
 * additionalPrinterColumns are the table (`tableconvertor.go`). Defaulting, pruning and
 * validation come from the CRD's schema in rest/schema-pipeline.ts.
 */

import { evaluateJsonPath } from "@opgen/apimachinery/jsonpath";
import type { KubeObject, PrinterColumn, ResourceVersionInfo } from "../../api/types.js";
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

export const customResources: ResourceStrategy = {
  nameRule: "subdomain",
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
