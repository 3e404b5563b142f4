/**
 * The enum test API.
 * @groupName testdata.kubebuilder.io
 */
export const GroupVersion = { group: "testdata.kubebuilder.io", version: "v1" } as const;
