// controller-tools pkg/webhook/testdata/valid-selectors-matchexpressions/webhook.go, with opgen's
// selector arguments in place of the raw patches.

/**
 * @webhook path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1
 *   namespaceSelector="environment in (dev,staging,prod)"
 */
export class ValidationCronjobValidator {}

/**
 * @webhook path=/mutate-testdata-kubebuilder-io-v1-cronjob mutating=true failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=default.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1
 *   objectSelector="managed-by=controller,tier in (frontend,backend)"
 */
export class DefaultCronjobDefaulter {}
