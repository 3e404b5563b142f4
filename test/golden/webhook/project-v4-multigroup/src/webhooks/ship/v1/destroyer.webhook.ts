// kubebuilder testdata/project-v4-multigroup/internal/webhook/ship/v1/destroyer_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-ship-testproject-org-v1-destroyer mutating=true failurePolicy=fail sideEffects=None groups=ship.testproject.org resources=destroyers verbs=create;update versions=v1 name=mdestroyer-v1.kb.io admissionReviewVersions=v1
 */
export class MdestroyerV1KbIoDefaulter {}
