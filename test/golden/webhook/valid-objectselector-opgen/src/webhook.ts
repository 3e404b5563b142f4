// controller-tools pkg/webhook/testdata/valid-objectselector/webhook.go, with opgen's
// objectSelector argument in place of the raw patch.

/**
 * @webhook path=/mutate-testdata-kubebuilder-io-v1-cronjob mutating=true failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=default.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1
 *   objectSelector="managed-by=myoperator"
 */
export class DefaultCronjobDefaulter {}
