/**
 * The registry strategies of validatingadmissionpolicies and validatingadmissionpolicybindings:
 * kube's defaults and create/update validation (validation.ts), with their kubectl columns.
 */
import {
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
} from "../../registry/printing/admission.js";
import type { ResourceStrategy } from "../../registry/strategy.js";
import { defaultBinding, defaultPolicy, validateBinding, validatePolicy } from "./validation.js";

export const validatingAdmissionPolicies: ResourceStrategy = {
  nameRule: "subdomain",
  defaults: defaultPolicy,
  validate: validatePolicy,
  printer: () => validatingAdmissionPolicyPrinter,
};

export const validatingAdmissionPolicyBindings: ResourceStrategy = {
  nameRule: "subdomain",
  defaults: defaultBinding,
  validate: validateBinding,
  printer: () => validatingAdmissionPolicyBindingPrinter,
};
