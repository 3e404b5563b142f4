// kubebuilder testdata/project-v4-multigroup/internal/webhook/ship/v2alpha1/cruiser_webhook.go, in opgen's spelling.

/**
 * @webhook path=/validate-ship-testproject-org-v2alpha1-cruiser mutating=false failurePolicy=fail sideEffects=None groups=ship.testproject.org resources=cruisers verbs=create;update versions=v2alpha1 name=vcruiser-v2alpha1.kb.io admissionReviewVersions=v1
 */
export class VcruiserV2alpha1KbIoValidator {}
