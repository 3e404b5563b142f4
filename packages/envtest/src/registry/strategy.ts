/**
 * The per-resource behaviour kube-apiserver keeps in `pkg/registry/<group>/<resource>/strategy.go`
 * and its printers: everything the generic REST store (rest/objects.ts) must not know by name.
 * A family module exports one strategy per resource; its group's definitions
 * (`registry/<group>/index.ts`) give it to the resource.
 */
import type { Printer, ResourceStrategy } from "../api/resource.js";
import { type JsonObject, objectAt } from "../api/types.js";

export type { ResourceStrategy } from "../api/resource.js";

/** The generic strategy: resources with no behaviour of their own. */
export const genericStrategy: ResourceStrategy = { nameRule: "subdomain" };

export { objectAt } from "../api/types.js";

/** Sets `o[key]` to an object (keeping an existing one) and returns it, for defaulting. */
export function ensureObject(o: JsonObject, key: string): JsonObject {
  const v = objectAt(o[key]);
  o[key] = v;
  return v;
}

/** A resource with no rules of its own beyond kube's Table columns. */
export function printedStrategy(printer: Printer): ResourceStrategy {
  return { ...genericStrategy, printer: () => printer };
}
