/** PersistentVolumeClaims (`pkg/registry/core/persistentvolumeclaim`): the spec is immutable but for requests. */
import { persistentVolumeClaimUpdate } from "../immutability.js";
import { persistentVolumeClaimPrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";

export const persistentVolumeClaims: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = (o.spec ?? {}) as Record<string, unknown>;
    if (spec.volumeMode === undefined) spec.volumeMode = "Filesystem";
    o.spec = spec;
  },
  validateUpdate: persistentVolumeClaimUpdate,
  printer: () => persistentVolumeClaimPrinter,
};
