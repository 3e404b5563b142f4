/**
 * PersistentVolumeClaims (`pkg/registry/core/persistentvolumeclaim`): the spec is immutable but
 * for a bound claim's storage request (persistent-volume-claim-update.ts).
 */
import { isObject, type KubeObject } from "../../api/types.js";
import { persistentVolumeClaimPrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";
import { objectAt } from "../strategy.js";
import {
  dropDisabledClaimFields,
  persistentVolumeClaimUpdate,
} from "./persistent-volume-claim-update.js";

/**
 * SetDefaults_PersistentVolumeClaim (pkg/apis/core/v1/defaults.go): a claim without a phase is
 * Pending. kube's PrepareForCreate empties the status, and reading the object back from storage
 * defaults it again, so a created claim is served Pending.
 */
function claimPhase(o: KubeObject): void {
  const status = isObject(o.status) ? o.status : {};
  if (status.phase === undefined) status.phase = "Pending";
  o.status = status;
}

export const persistentVolumeClaims: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = (o.spec ?? {}) as Record<string, unknown>;
    if (spec.volumeMode === undefined) spec.volumeMode = "Filesystem";
    o.spec = spec;
    claimPhase(o);
  },
  prepareForCreate(o) {
    if (o.spec !== undefined) dropDisabledClaimFields(objectAt(o.spec), undefined);
    claimPhase(o);
  },
  prepareForUpdate(o, old, subresource) {
    if (subresource === undefined && o.spec !== undefined)
      dropDisabledClaimFields(objectAt(o.spec), objectAt(old.spec));
  },
  validateUpdate: persistentVolumeClaimUpdate,
  printer: () => persistentVolumeClaimPrinter,
};
