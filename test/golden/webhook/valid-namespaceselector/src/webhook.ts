// controller-tools pkg/webhook/testdata/valid-namespaceselector/webhook.go, in opgen's spelling.

/**
 * @webhook verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1 patch=`{"namespaceSelector":{"matchLabels":{"webhook-enabled":"true"}}}`
 */
export class ValidationCronjobTestdataKubebuilderIoValidator {}
