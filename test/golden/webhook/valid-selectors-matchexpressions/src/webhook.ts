// controller-tools pkg/webhook/testdata/valid-selectors-matchexpressions/webhook.go, in opgen's spelling.

/**
 * @webhook verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1 patch=`{"namespaceSelector":{"matchExpressions":[{"key":"environment","operator":"In","values":["dev","staging","prod"]}]}}`
 */
export class ValidationCronjobTestdataKubebuilderIoValidator {}

/**
 * @webhook verbs=create;update path=/mutate-testdata-kubebuilder-io-v1-cronjob mutating=true failurePolicy=fail groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=default.cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1 patch=`{"objectSelector":{"matchLabels":{"managed-by":"controller"},"matchExpressions":[{"key":"tier","operator":"In","values":["frontend","backend"]}]}}`
 */
export class DefaultCronjobTestdataKubebuilderIoDefaulter {}
