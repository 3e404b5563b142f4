/** @groupName testdata.kubebuilder.io */
export const GroupVersion = { group: "testdata.kubebuilder.io", version: "v1beta1" } as const;
