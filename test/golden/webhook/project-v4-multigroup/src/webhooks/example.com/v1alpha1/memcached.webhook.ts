// Not among the fixture's Go files: the marker Kubebuilder's template writes for this kind (as in project-v4), in opgen's spelling.

/**
 * @webhook path=/validate-example-com-testproject-org-v1alpha1-memcached mutating=false failurePolicy=fail sideEffects=None groups=example.com.testproject.org resources=memcacheds verbs=create;update versions=v1alpha1 name=vmemcached-v1alpha1.kb.io admissionReviewVersions=v1
 */
export class MemcachedCustomValidator {}
