/**
 * The `meta.k8s.io/v1` Table format for `kubectl get`: the Accept negotiation and the rendering;
 * each resource's columns come from its strategy (registry/), kube's default Name/Created At
 * convertor otherwise.
 */
import { errors } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import { columnDescription } from "../registry/printing/describe.js";
import { defaultPrinter, scalePrinter } from "../registry/printing.js";
import type { RequestScope } from "../rest/scope.js";

export interface TableOptions {
  includeObject: "None" | "Metadata" | "Object";
  noHeaders?: boolean;
}

/** Whether the Accept header asks for a Table (and with which options). */
export function wantsTable(
  accept: string | undefined,
  query: URLSearchParams,
): TableOptions | undefined {
  if (!accept) return undefined;
  const first = accept.split(",")[0]!.replace(/\s/g, "");
  const params = new Set(first.split(";").slice(1));
  if (!params.has("as=Table") || !params.has("g=meta.k8s.io")) return undefined;
  const inc = query.get("includeObject") ?? "Metadata";
  if (inc !== "None" && inc !== "Metadata" && inc !== "Object") {
    throw errors.badRequest(`unrecognized includeObject value: "${inc}"`);
  }
  return { includeObject: inc };
}

/** Renders an object or a list as a Table for the request's resource and version. */
export function tableFor(scope: RequestScope, body: KubeObject, opts: TableOptions): KubeObject {
  const isList = Array.isArray(body.items);
  const printer =
    scope.subresource === "scale"
      ? scalePrinter
      : (scope.info.strategy.printer?.(scope.version) ?? defaultPrinter);
  const listed = isList ? (body.items as KubeObject[]) : [body];
  const items = isList && printer.order ? printer.order(listed) : listed;
  const listMeta = isList
    ? (body.metadata as JsonObject)
    : { resourceVersion: body.metadata?.resourceVersion };
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    ...(opts.noHeaders
      ? {}
      : {
          columnDefinitions: printer.columns.map((c) => ({
            name: c.name,
            type: c.type,
            format: c.format ?? "",
            description: columnDescription(c.description, scope.info.kube.catalog),
            priority: c.priority ?? 0,
          })),
        }),
    rows: items.map((o) => ({
      cells: printer.cells(o),
      ...(opts.includeObject === "None"
        ? {}
        : {
            object:
              opts.includeObject === "Object"
                ? o
                : {
                    kind: "PartialObjectMetadata",
                    apiVersion: "meta.k8s.io/v1",
                    metadata: isObject(o.metadata) ? o.metadata : {},
                  },
          }),
    })),
  };
}
