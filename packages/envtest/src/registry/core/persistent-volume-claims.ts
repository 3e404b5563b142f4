/**
 * PersistentVolumeClaims (`pkg/registry/core/persistentvolumeclaim`): the spec is immutable but
 * for a bound claim's storage request (persistent-volume-claim-update.ts).
 */
import { persistentVolumeClaimPrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";
import { objectAt } from "../strategy.js";
import {
  dropDisabledClaimFields,
  persistentVolumeClaimUpdate,
} from "./persistent-volume-claim-update.js";

export const persistentVolumeClaims: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = (o.spec ?? {}) as Record<string, unknown>;
    if (spec.volumeMode === undefined) spec.volumeMode = "Filesystem";
    o.spec = spec;
  },
  prepareForCreate(o) {
    if (o.spec !== undefined) dropDisabledClaimFields(objectAt(o.spec), undefined);
  },
  prepareForUpdate(o, old, subresource) {
    if (subresource === undefined && o.spec !== undefined)
      dropDisabledClaimFields(objectAt(o.spec), objectAt(old.spec));
  },
  validateUpdate: persistentVolumeClaimUpdate,
  printer: () => persistentVolumeClaimPrinter,
};
