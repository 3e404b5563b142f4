// controller-tools pkg/webhook/testdata/valid/webhook.go, in opgen's spelling.

/**
 * @webhook webhookVersions=v1 verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=None timeoutSeconds=10 admissionReviewVersions=v1;v1beta1
 */
export class ValidationCronjobTestdataKubebuilderIoValidator {}

/**
 * @webhook verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=NoneOnDryRun timeoutSeconds=10 admissionReviewVersions=v1;v1beta1
 */
export class ValidationCronjobTestdataKubebuilderIoValidator2 {}

/**
 * @webhook webhookVersions=v1 verbs=create;update path=/mutate-testdata-kubebuilder-io-v1-cronjob mutating=true failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=default.cronjob.testdata.kubebuilder.io sideEffects=None timeoutSeconds=10 admissionReviewVersions=v1;v1beta1 reinvocationPolicy=IfNeeded
 */
export class DefaultCronjobTestdataKubebuilderIoDefaulter {}
