/** The storage.k8s.io group (`pkg/registry/storage`): kube's columns, no rules of their own. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "../printing/storage.js";
import { printedStrategy } from "../strategy.js";

export const storage: GroupDefinitions = {
  group: "storage.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "storageclasses", strategy: printedStrategy(storageClassPrinter) },
    { resource: "csidrivers", strategy: printedStrategy(csiDriverPrinter) },
    { resource: "csinodes", strategy: printedStrategy(csiNodePrinter) },
    { resource: "csistoragecapacities", strategy: printedStrategy(csiStorageCapacityPrinter) },
    { resource: "volumeattachments", strategy: printedStrategy(volumeAttachmentPrinter) },
  ],
};
