// kubebuilder testdata/multiversion-tutorial/internal/webhook/v1/cronjob_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob mutating=true failurePolicy=fail sideEffects=None groups=batch.tutorial.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=mcronjob-v1.kb.io admissionReviewVersions=v1
 */
export class McronjobV1KbIoDefaulter {}

/**
 * @webhook path=/validate-batch-tutorial-kubebuilder-io-v1-cronjob mutating=false failurePolicy=fail sideEffects=None groups=batch.tutorial.kubebuilder.io resources=cronjobs verbs=create;update versions=v1 name=vcronjob-v1.kb.io admissionReviewVersions=v1
 */
export class VcronjobV1KbIoValidator {}
