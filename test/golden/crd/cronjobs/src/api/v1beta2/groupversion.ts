/** @groupName testdata.kubebuilder.io */
export const GroupVersion = { group: "testdata.kubebuilder.io", version: "v1beta2" } as const;
