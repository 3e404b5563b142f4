/**
 * Every built-in marker definition, one file per family. To add a family, write
 * `definitions/<family>.ts` exporting a `MarkerDefinition[]` and add one line below.
 */
import type { MarkerDefinition } from "../types.js";
import { crdMarkers } from "./crd.js";
import { fieldMarkers } from "./field.js";
import { packageMarkers } from "./package.js";
import { rbacDefinitions } from "./rbac.js";
import { topologyMarkers } from "./topology.js";
import { validationMarkers } from "./validation.js";

export const definitions: readonly MarkerDefinition[] = [
  ...validationMarkers,
  ...fieldMarkers,
  ...topologyMarkers,
  ...crdMarkers,
  ...packageMarkers,
  ...rbacDefinitions,
];
