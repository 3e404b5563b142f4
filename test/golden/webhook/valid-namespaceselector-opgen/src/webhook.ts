// controller-tools pkg/webhook/testdata/valid-namespaceselector/webhook.go, with opgen's
// namespaceSelector argument in place of the raw patch.

/**
 * @webhook path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1
 *   namespaceSelector="webhook-enabled=true"
 */
export class ValidationCronjobValidator {}
