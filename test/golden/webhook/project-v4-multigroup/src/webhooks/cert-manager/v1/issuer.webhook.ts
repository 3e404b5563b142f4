// Not among the fixture's Go files: the marker Kubebuilder's template writes for this kind (as in project-v4), in opgen's spelling.

/**
 * @webhook path=/mutate-cert-manager-io-v1-issuer mutating=true failurePolicy=fail sideEffects=None groups=cert-manager.io resources=issuers verbs=create;update versions=v1 name=missuer-v1.kb.io admissionReviewVersions=v1
 */
export class IssuerCustomDefaulter {}
