/**
 * @opgen/envtest: an in-process Kubernetes API server for operator tests and local development.
 * It speaks the real REST and watch protocol of kube-apiserver 1.32, so kubectl and
 * @kubernetes/client-node work against it unchanged.
 */

export type { PodSecurityOptions } from "./admission/plugins/pod-security/admission.js";
export {
  startTestEnv,
  type TestEnv,
  type TestEnvOptions,
  type TestEnvWebhook,
} from "./env.js";
export { type EventuallyOptions, eventually } from "./eventually.js";
export { type ExampleKind, type ExampleValues, exampleObject } from "./example.js";
export type { FailNextOptions, Faults } from "./faults.js";
export {
  installWebhookManifests,
  mintServingCertificate,
  prepareWebhookServing,
  readConversionPatches,
  readWebhookManifests,
  rewriteForLocalServing,
  type ServingTarget,
  type WebhookServing,
  type WebhookServingOptions,
  waitForWebhookServer,
  withConversionPatch,
} from "./local-serving.js";
export { ApiServer, type ApiServerOptions } from "./server.js";
export type { ServiceAccountIdentity, ServiceAccountOptions } from "./service-account.js";
