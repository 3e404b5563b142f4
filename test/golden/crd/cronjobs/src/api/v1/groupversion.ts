/**
 * The CronJob test API (a subset of controller-gen's cronjob_types.go: the fields with embedded
 * Kubernetes core types).
 * @groupName testdata.kubebuilder.io
 */
export const GroupVersion = { group: "testdata.kubebuilder.io", version: "v1" } as const;
