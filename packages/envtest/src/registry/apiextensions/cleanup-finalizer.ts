/**
 * The finalizer every CRD carries (`apiextensions-apiserver`'s strategy adds it; the CRD
 * controller's cleanup removes it once the CRD's instances are gone).
 */
export const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";
