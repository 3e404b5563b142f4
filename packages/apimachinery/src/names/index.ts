/** `@opgen/apimachinery/names`: Kubebuilder-compatible plurals and kube's name validators. */
export { kubebuilderPlural, pluralize, resourcePlural, wordParts } from "./pluralize.js";
export {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
} from "./validation.js";
export { defaultWebhookPath, type WebhookPathKind, webhookPathProblem } from "./webhook-paths.js";
