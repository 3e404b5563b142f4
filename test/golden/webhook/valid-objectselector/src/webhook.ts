// controller-tools pkg/webhook/testdata/valid-objectselector/webhook.go, in the controller-gen spelling, verbatim.

/**
 * @kubebuilder:webhook:verbs=create;update,path=/mutate-testdata-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,groups=testdata.kubebuilder.io,resources=cronjobs,versions=v1,name=default.cronjob.testdata.kubebuilder.io,sideEffects=None,admissionReviewVersions=v1,patch=`{"objectSelector":{"matchLabels":{"managed-by":"myoperator"}}}`
 */
export class DefaultCronjobTestdataKubebuilderIoDefaulter {}
