/**
 * The `@webhook` and `@webhookconfiguration` markers: controller-gen's `+kubebuilder:webhook` and
 * `+kubebuilder:webhookconfiguration` (controller-tools pkg/webhook/parser.go), with the same
 * argument names, so a Kubebuilder marker line translates word for word. Like controller-gen's
 * package-level markers they may stand in any JSDoc comment of any source under `src/`; the
 * scaffold puts them on the defaulter and validator classes.
 *
 * The parser checks names and value types; the webhook generator normalises values as
 * controller-gen does (`fail` -> `Fail`, `create` -> `CREATE`) and refuses what controller-gen or
 * kube-apiserver would refuse.
 */
import type { MarkerDefinition } from "../../markers/types.js";

export const webhookDefinitions: readonly MarkerDefinition[] = [
  {
    name: "webhook",
    targets: ["source"],
    repeatable: true,
    group: "webhook",
    help: "An admission webhook; all @webhook markers become config/webhook/manifests.yaml.",
    example:
      "@webhook path=/mutate-demo-example-com-v1-appcluster mutating=true failurePolicy=fail sideEffects=None groups=demo.example.com resources=appclusters verbs=create;update versions=v1 name=mappcluster-v1.kb.io admissionReviewVersions=v1",
    kubebuilder: "+kubebuilder:webhook",
    args: [
      {
        name: "path",
        type: "string",
        help: "Path the webhook Service serves it on (`/mutate-<group with - for .>-<version>-<kind>`); exactly one of path and url.",
      },
      {
        name: "url",
        type: "string",
        help: 'An https URL outside the cluster (`url="https://host:9443/path"`) instead of the Service; exactly one of path and url.',
      },
      {
        name: "mutating",
        type: "bool",
        required: true,
        help: "true: a MutatingWebhookConfiguration entry (defaulting); false: a ValidatingWebhookConfiguration entry.",
      },
      {
        name: "failurePolicy",
        type: "string",
        required: true,
        help: "What the API server does when the call fails: fail or ignore (any case; written Fail, Ignore).",
      },
      {
        name: "matchPolicy",
        type: "string",
        help: "exact or equivalent (any case); omitted: the API server's default, Equivalent.",
      },
      {
        name: "sideEffects",
        type: "string",
        required: true,
        help: "None or NoneOnDryRun (any case): whether calling the webhook changes anything (admissionregistration.k8s.io/v1 allows no other).",
      },
      {
        name: "timeoutSeconds",
        type: "int",
        help: "Call timeout, 1 to 30 seconds; omitted: the API server's default, 10.",
      },
      {
        name: "groups",
        type: "list",
        required: true,
        help: 'API groups of the resources; `core` or `""` is the core group.',
      },
      {
        name: "resources",
        type: "list",
        required: true,
        help: "Resources (plural, lower-case), subresources as `pods/status`, or `*`.",
      },
      {
        name: "verbs",
        type: "list",
        required: true,
        help: "Operations: create, update, delete, connect or `*` (any case; written upper-case).",
      },
      {
        name: "versions",
        type: "list",
        required: true,
        help: "API versions of the resources.",
      },
      {
        name: "name",
        type: "string",
        required: true,
        help: "Webhook name, a domain of three or more segments (`mappcluster-v1.kb.io`), unique in its configuration.",
      },
      {
        name: "admissionReviewVersions",
        type: "list",
        required: true,
        help: "AdmissionReview versions the webhook understands, preferred first: v1 (and v1beta1).",
      },
      {
        name: "reinvocationPolicy",
        type: "string",
        help: "Mutating webhooks only: never or ifneeded (any case); ignored on a validating webhook, as controller-gen ignores it.",
      },
      {
        name: "webhookVersions",
        type: "list",
        help: "Versions of the configuration objects to write; v1, the default, is the only one.",
      },
      {
        name: "serviceName",
        type: "string",
        help: "With path: the webhook Service's name (default webhook-service).",
      },
      {
        name: "serviceNamespace",
        type: "string",
        help: "With path: the webhook Service's namespace (default system, which kustomize rewrites).",
      },
      {
        name: "servicePort",
        type: "int",
        help: "With path: the Service port (written only when given; the API server defaults 443).",
      },
      {
        name: "namespaceSelector",
        type: "string",
        help: 'opgen: only namespaces whose labels match this selector (`"env in (dev,prod),!skip"`); matchLabels for `=`, matchExpressions for the rest.',
      },
      {
        name: "objectSelector",
        type: "string",
        help: "opgen: only objects whose labels match this selector, written like namespaceSelector.",
      },
      {
        name: "patch",
        type: "string",
        help: "A strategic merge patch (JSON, in backticks) applied to the finished webhook: the escape hatch for any other field (matchConditions, ...).",
      },
    ],
  },
  {
    name: "webhookconfiguration",
    targets: ["source"],
    repeatable: true,
    group: "webhook",
    help: "Names the MutatingWebhookConfiguration (mutating=true) or ValidatingWebhookConfiguration object.",
    example: "@webhookconfiguration mutating=true name=demo-mutating-webhook-configuration",
    kubebuilder: "+kubebuilder:webhookconfiguration",
    args: [
      {
        name: "mutating",
        type: "bool",
        required: true,
        help: "true names the MutatingWebhookConfiguration, false the ValidatingWebhookConfiguration.",
      },
      {
        name: "name",
        type: "string",
        help: "The object's name (default mutating-webhook-configuration / validating-webhook-configuration).",
      },
    ],
  },
];
