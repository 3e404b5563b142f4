/**
 * PersistentVolumes (`pkg/registry/core/persistentvolume`): a new volume starts Pending with its
 * phase transition time (PersistentVolumeLastPhaseTransitionTime, GA in 1.31), whatever status
 * was sent; kubectl prints kube's columns.
 */
import { nowTime } from "../../api/meta.js";
import { persistentVolumePrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";

export const persistentVolumes: ResourceStrategy = {
  nameRule: "subdomain",
  prepareForCreate(o) {
    o.status = { phase: "Pending", lastPhaseTransitionTime: nowTime() };
  },
  printer: () => persistentVolumePrinter,
};
