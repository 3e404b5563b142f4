// controller-tools pkg/webhook/testdata/valid-ordered/webhook.go, in opgen's spelling.

/**
 * @webhook webhookVersions=v1 verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=cronjob.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1;v1beta1 reinvocationPolicy=Never
 */
export class CronjobTestdataKubebuilderIoValidator {}

/**
 * @webhook webhookVersions=v1 verbs=create;update path=/validate-testdata-kubebuilder-io-v1-cronjoblist mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjoblist versions=v1 name=cronjoblist.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1;v1beta1 reinvocationPolicy=Never
 */
export class CronjoblistTestdataKubebuilderIoValidator {}

/**
 * @webhook webhookVersions=v1 verbs=create;update path=/validate-testdata-kubebuilder-io-v1-deployments mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=deployments versions=v1 name=deployment.testdata.kubebuilder.io sideEffects=None admissionReviewVersions=v1;v1beta1 reinvocationPolicy=Never
 */
export class DeploymentTestdataKubebuilderIoValidator {}
