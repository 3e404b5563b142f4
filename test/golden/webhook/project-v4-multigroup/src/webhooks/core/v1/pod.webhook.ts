// kubebuilder testdata/project-v4-multigroup/internal/webhook/core/v1/pod_webhook.go, in opgen's spelling.

/**
 * @webhook path=/validate--v1-pod mutating=false failurePolicy=fail sideEffects=None groups="" resources=pods verbs=create;update versions=v1 name=vpod-v1.kb.io admissionReviewVersions=v1
 */
export class VpodV1KbIoValidator {}
