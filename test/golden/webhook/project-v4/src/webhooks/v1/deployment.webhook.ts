// kubebuilder testdata/project-v4/internal/webhook/v1/deployment_webhook.go, in opgen's spelling.

/**
 * @webhook path=/mutate-apps-v1-deployment mutating=true failurePolicy=fail sideEffects=None groups=apps resources=deployments verbs=create;update versions=v1 name=mdeployment-v1.kb.io admissionReviewVersions=v1
 */
export class MdeploymentV1KbIoDefaulter {}

/**
 * @webhook path=/validate-apps-v1-deployment mutating=false failurePolicy=fail sideEffects=None groups=apps resources=deployments verbs=create;update versions=v1 name=vdeployment-v1.kb.io admissionReviewVersions=v1
 */
export class VdeploymentV1KbIoValidator {}
