/**
 * Package v1beta1 holds the Job test API.
 * @groupName testdata.kubebuilder.io
 * @versionName v1beta1
 */
export const GroupVersion = { group: "testdata.kubebuilder.io", version: "v1beta1" } as const;
