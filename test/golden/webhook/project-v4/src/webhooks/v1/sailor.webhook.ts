// kubebuilder testdata/project-v4/internal/webhook/v1/sailor_webhook.go, in opgen's spelling.

/**
 * @webhook path=/custom-mutate-sailor mutating=true failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=sailors verbs=create;update versions=v1 name=msailor-v1.kb.io admissionReviewVersions=v1
 */
export class MsailorV1KbIoDefaulter {}

/**
 * @webhook path=/custom-validate-sailor mutating=false failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=sailors verbs=create;update versions=v1 name=vsailor-v1.kb.io admissionReviewVersions=v1
 */
export class VsailorV1KbIoValidator {}
