/**
 * The printers of built-ins that have no strategy module of their own, by `group/resource`;
 * registry/index.ts serves them with the generic strategy and these columns.
 */
import type { Printer } from "../printing.js";
import {
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
} from "./admission.js";
import {
  apiServicePrinter,
  certificateSigningRequestPrinter,
  controllerRevisionPrinter,
  runtimeClassPrinter,
} from "./cluster.js";
import { componentStatusPrinter, resourceQuotaPrinter } from "./core.js";
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from "./flowcontrol.js";
import { ingressClassPrinter, networkPolicyPrinter } from "./networking.js";
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "./storage.js";

export const genericPrinters: ReadonlyMap<string, Printer> = new Map([
  ["/resourcequotas", resourceQuotaPrinter],
  ["/componentstatuses", componentStatusPrinter],
  ["admissionregistration.k8s.io/validatingadmissionpolicies", validatingAdmissionPolicyPrinter],
  [
    "admissionregistration.k8s.io/validatingadmissionpolicybindings",
    validatingAdmissionPolicyBindingPrinter,
  ],
  ["apiregistration.k8s.io/apiservices", apiServicePrinter],
  ["apps/controllerrevisions", controllerRevisionPrinter],
  ["certificates.k8s.io/certificatesigningrequests", certificateSigningRequestPrinter],
  ["flowcontrol.apiserver.k8s.io/flowschemas", flowSchemaPrinter],
  ["flowcontrol.apiserver.k8s.io/prioritylevelconfigurations", priorityLevelConfigurationPrinter],
  ["networking.k8s.io/ingressclasses", ingressClassPrinter],
  ["networking.k8s.io/networkpolicies", networkPolicyPrinter],
  ["node.k8s.io/runtimeclasses", runtimeClassPrinter],
  ["storage.k8s.io/csidrivers", csiDriverPrinter],
  ["storage.k8s.io/csinodes", csiNodePrinter],
  ["storage.k8s.io/csistoragecapacities", csiStorageCapacityPrinter],
  ["storage.k8s.io/storageclasses", storageClassPrinter],
  ["storage.k8s.io/volumeattachments", volumeAttachmentPrinter],
]);
