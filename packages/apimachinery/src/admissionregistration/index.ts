/**
 * `@opgen/apimachinery/admissionregistration`: admissionregistration.k8s.io/v1 webhook
 * configurations as kube-apiserver 1.32 defaults and validates them, and the webhook clientConfig
 * check CRD conversion shares; one rule set for the generator (refusing at the marker) and
 * envtest (refusing on create).
 */
export {
  webhookClientConfigErrors,
  webhookServiceErrors,
  webhookUrlErrors,
} from "./client-config.js";
export { defaultWebhookConfiguration, type WebhookConfigurationKind } from "./defaults.js";
export {
  ACCEPTED_ADMISSION_REVIEW_VERSIONS,
  ruleErrors,
  validateWebhookConfiguration,
  validateWebhooks,
  type WebhookValidationOptions,
} from "./validation.js";
