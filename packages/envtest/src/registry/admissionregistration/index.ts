/**
 * The admissionregistration.k8s.io group (`pkg/registry/admissionregistration`): the webhook
 * configurations and the ValidatingAdmissionPolicies with their bindings, all keeping a generation.
 */

import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { validatingAdmissionPolicies, validatingAdmissionPolicyBindings } from "./policies.js";
import {
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
} from "./webhook-configurations.js";

export const admissionregistration: GroupDefinitions = {
  group: "admissionregistration.k8s.io",
  resources: (): ResourceDefinition[] => [
    {
      resource: "validatingwebhookconfigurations",
      strategy: validatingWebhookConfigurations,
      generation: true,
    },
    {
      resource: "mutatingwebhookconfigurations",
      strategy: mutatingWebhookConfigurations,
      generation: true,
    },
    {
      resource: "validatingadmissionpolicies",
      strategy: validatingAdmissionPolicies,
      generation: true,
    },
    {
      resource: "validatingadmissionpolicybindings",
      strategy: validatingAdmissionPolicyBindings,
      generation: true,
    },
  ],
};
