// kubebuilder testdata/project-v4/internal/webhook/v1/pod_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate--v1-pod mutating=true failurePolicy=fail sideEffects=None groups="" resources=pods verbs=create;update versions=v1 name=mpod-v1.kb.io admissionReviewVersions=v1
 */
export class MpodV1KbIoDefaulter {}
