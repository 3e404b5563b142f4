// kubebuilder testdata/multiversion-tutorial/internal/webhook/v2/cronjob_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-batch-tutorial-kubebuilder-io-v2-cronjob mutating=true failurePolicy=fail sideEffects=None groups=batch.tutorial.kubebuilder.io resources=cronjobs verbs=create;update versions=v2 name=mcronjob-v2.kb.io admissionReviewVersions=v1
 */
export class McronjobV2KbIoDefaulter {}

/**
 * @webhook path=/validate-batch-tutorial-kubebuilder-io-v2-cronjob mutating=false failurePolicy=fail sideEffects=None groups=batch.tutorial.kubebuilder.io resources=cronjobs verbs=create;update versions=v2 name=vcronjob-v2.kb.io admissionReviewVersions=v1
 */
export class VcronjobV2KbIoValidator {}
