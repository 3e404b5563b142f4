/**
 * The markers the CRD generator reads, one file per family (validation, field, topology, crd,
 * package), registered beside the generator that applies them, as controller-tools' `crd/markers`.
 */
import type { MarkerDefinition } from "../../../markers/types.js";
import { crdMarkers } from "./crd.js";
import { fieldMarkers } from "./field.js";
import { packageMarkers } from "./package.js";
import { topologyMarkers } from "./topology.js";
import { validationMarkers } from "./validation.js";

export const crdMarkerDefinitions: readonly MarkerDefinition[] = [
  ...validationMarkers,
  ...fieldMarkers,
  ...topologyMarkers,
  ...crdMarkers,
  ...packageMarkers,
];
