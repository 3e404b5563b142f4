// kubebuilder testdata/project-v4/internal/webhook/v1/issuer_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-cert-manager-io-v1-issuer mutating=true failurePolicy=fail sideEffects=None groups=cert-manager.io resources=issuers verbs=create;update versions=v1 name=missuer-v1.kb.io admissionReviewVersions=v1
 */
export class MissuerV1KbIoDefaulter {}
