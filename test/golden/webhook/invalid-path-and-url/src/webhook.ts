// controller-tools pkg/webhook/testdata/invalid-path-and-url/webhook.go, in opgen's spelling.

/**
 * @webhook url="https://anothersomewebhook:9443/validate-testdata-kubebuilder-io-v1-cronjob" path="/somepath" verbs=create;update mutating=false failurePolicy=fail matchPolicy=Equivalent groups=testdata.kubebuilder.io resources=cronjobs versions=v1 name=validation.cronjob.testdata.kubebuilder.io sideEffects=NoneOnDryRun timeoutSeconds=10 admissionReviewVersions=v1;v1beta1
 */
export class ValidationCronjobTestdataKubebuilderIoValidator {}
