/**
 * Mutating/ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1): kube's defaults and
 * create-time validation from @opgen/apimachinery/admissionregistration (the rules `opgen
 * manifests` also applies at the marker), with the match conditions' CEL checked here.
 */
import {
  defaultWebhookConfiguration,
  validateWebhooks,
  type WebhookConfigurationKind,
} from "@opgen/apimachinery/admissionregistration";
import { matchConditionErrors } from "../../admission/match-conditions.js";
import type { KubeObject } from "../../api/types.js";
import { webhookConfigurationPrinter } from "../printing/admission.js";
import type { ResourceStrategy } from "../strategy.js";

// Generation follows the webhooks (the objects have no spec).
const generationRelevant = (o: KubeObject) => o.webhooks;

function strategy(kind: WebhookConfigurationKind): ResourceStrategy {
  return {
    nameRule: "subdomain",
    generationRelevant,
    defaults: (o) => defaultWebhookConfiguration(o, kind),
    // metadata is validated with every object's; the webhooks here.
    validate: (o) => validateWebhooks(o, kind, { matchConditions: matchConditionErrors }),
    printer: () => webhookConfigurationPrinter,
  };
}

export const mutatingWebhookConfigurations = strategy("MutatingWebhookConfiguration");
export const validatingWebhookConfigurations = strategy("ValidatingWebhookConfiguration");
