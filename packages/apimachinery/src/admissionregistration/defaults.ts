/**
 * The defaults kube-apiserver 1.32 applies to admissionregistration.k8s.io/v1 webhook
 * configurations before validating them (k8s pkg/apis/admissionregistration/v1/defaults.go):
 * failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors, timeoutSeconds
 * 10, reinvocationPolicy Never (mutating only), a rule's scope "*", a service port 443.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export type WebhookConfigurationKind =
  | "MutatingWebhookConfiguration"
  | "ValidatingWebhookConfiguration";

/** Sets the defaults on `config` in place (its `webhooks`, each as kube defaults it). */
export function defaultWebhookConfiguration(config: object, kind: WebhookConfigurationKind): void {
  const mutating = kind === "MutatingWebhookConfiguration";
  const webhooks = (config as Obj).webhooks;
  for (const hook of Array.isArray(webhooks) ? webhooks : []) {
    if (!isObj(hook)) continue;
    hook.failurePolicy ??= "Fail";
    hook.matchPolicy ??= "Equivalent";
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= "Never";
    for (const rule of Array.isArray(hook.rules) ? hook.rules : []) {
      if (isObj(rule)) rule.scope ??= "*";
    }
    const service = isObj(hook.clientConfig) ? hook.clientConfig.service : undefined;
    if (isObj(service)) service.port ??= 443;
  }
}
