/**
 * The admission plugins that call out of the request: MutatingAdmissionWebhook and
 * ValidatingAdmissionWebhook (admission/dispatcher.ts) and ValidatingAdmissionPolicy
 * (admission/policy/plugin.ts). In the chain they are the steps a request's write yields to its
 * driver (rest/write-steps.ts), which awaits the calls; the server's own writes skip them.
 */
import type { AdmissionPlugin } from "../chain.js";

export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: "MutatingAdmissionWebhook",
  step: "mutate",
};

export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: "ValidatingAdmissionPolicy",
  step: "policy",
};

export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: "ValidatingAdmissionWebhook",
  step: "validate",
};
