/**
 * What kube-apiserver fills in on a CRD before it validates it (`apiextensions/v1/defaults.go`):
 * the singular and list kind from the kind, conversion strategy None, a conversion service's
 * port 443. The generator validates a defaulted copy so it sees what the server will see.
 */
import { isObject, type JsonObject } from "../schema/json.js";
import type { CustomResourceDefinition } from "./types.js";

export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!isObject(spec)) return;
  const names = spec.names;
  if (isObject(names) && typeof names.kind === "string") {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  if (!spec.conversion) spec.conversion = { strategy: "None" };
  const webhook = spec.conversion.webhook as JsonObject | undefined;
  const service = (webhook?.clientConfig as JsonObject | undefined)?.service;
  if (isObject(service) && service.port === undefined) service.port = 443;
}
