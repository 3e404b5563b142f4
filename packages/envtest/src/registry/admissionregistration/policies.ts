/**
 * The registry strategies of validatingadmissionpolicies and validatingadmissionpolicybindings:
 * kube's defaults and create/update validation (admission/policy/validation.ts), with their
 * kubectl columns.
 */

import {
  defaultBinding,
  defaultPolicy,
  validateBinding,
  validatePolicy,
} from "../../admission/policy/validation.js";
import {
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
} from "../printing/admission.js";
import type { ResourceStrategy } from "../strategy.js";

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
