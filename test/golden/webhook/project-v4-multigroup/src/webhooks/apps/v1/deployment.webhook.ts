// Not among the fixture's Go files: the marker Kubebuilder's template writes for this kind (as in project-v4), in opgen's spelling.

/**
 * @webhook path=/mutate-apps-v1-deployment mutating=true failurePolicy=fail sideEffects=None groups=apps resources=deployments verbs=create;update versions=v1 name=mdeployment-v1.kb.io admissionReviewVersions=v1
 */
export class DeploymentCustomDefaulter {}

/**
 * @webhook path=/validate-apps-v1-deployment mutating=false failurePolicy=fail sideEffects=None groups=apps resources=deployments verbs=create;update versions=v1 name=vdeployment-v1.kb.io admissionReviewVersions=v1
 */
export class DeploymentCustomValidator {}
