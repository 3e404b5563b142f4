// Not among the fixture's Go files: the marker Kubebuilder's template writes for this kind (as in project-v4), in opgen's spelling.

/**
 * @webhook path=/mutate-crew-testproject-org-v1-captain mutating=true failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=captains verbs=create;update versions=v1 name=mcaptain-v1.kb.io admissionReviewVersions=v1
 */
export class CaptainCustomDefaulter {}

/**
 * @webhook path=/validate-crew-testproject-org-v1-captain mutating=false failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=captains verbs=create;update versions=v1 name=vcaptain-v1.kb.io admissionReviewVersions=v1
 */
export class CaptainCustomValidator {}
