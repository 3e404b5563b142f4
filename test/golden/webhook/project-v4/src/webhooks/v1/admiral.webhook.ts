// kubebuilder testdata/project-v4/internal/webhook/v1/admiral_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-crew-testproject-org-v1-admiral mutating=true failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=admirales verbs=create;update versions=v1 name=madmiral-v1.kb.io admissionReviewVersions=v1
 */
export class MadmiralV1KbIoDefaulter {}

/**
 * @webhook path=/custom-validate-admiral mutating=false failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=admirales verbs=create;update versions=v1 name=vadmiral-v1.kb.io admissionReviewVersions=v1
 */
export class VadmiralV1KbIoValidator {}
