/**
 * Every generator's markers in one registry: what the marker parser checks tags against and what
 * `opgen markers` lists. The generic machinery (`src/markers`) knows no generator; each generator
 * keeps its definitions beside itself, and a new generator adds its list here.
 */
import { MarkerRegistry } from "../markers/registry.js";
import { crdMarkerDefinitions } from "./crd/markers/index.js";
import { rbacDefinitions } from "./rbac/markers.js";
import { webhookDefinitions } from "./webhook/markers.js";

let shared: MarkerRegistry | undefined;

/** The registry of every built-in marker. */
export function markerRegistry(): MarkerRegistry {
  shared ??= new MarkerRegistry([
    ...crdMarkerDefinitions,
    ...rbacDefinitions,
    ...webhookDefinitions,
  ]);
  return shared;
}
