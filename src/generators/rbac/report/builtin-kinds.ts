/**
 * Group and resource of the built-in kind descriptors `@opgen/runtime` exports as `kinds.X`, so the
 * report can resolve `.owns(kinds.Pod)` without loading the runtime (the CLI does not depend on it).
 * A unit test keeps this table equal to the runtime's `kinds`.
 */

export interface KindRef {
  group: string;
  kind: string;
  /** The resource (lower-case plural) RBAC rules name. */
  plural: string;
}

const core = (kind: string, plural: string): KindRef => ({ group: "", kind, plural });
const apps = (kind: string, plural: string): KindRef => ({ group: "apps", kind, plural });
const batch = (kind: string, plural: string): KindRef => ({ group: "batch", kind, plural });
const rbac = (kind: string, plural: string): KindRef => ({
  group: "rbac.authorization.k8s.io",
  kind,
  plural,
});

export const BUILTIN_KINDS: Readonly<Record<string, KindRef>> = {
  Pod: core("Pod", "pods"),
  Service: core("Service", "services"),
  ConfigMap: core("ConfigMap", "configmaps"),
  Secret: core("Secret", "secrets"),
  ServiceAccount: core("ServiceAccount", "serviceaccounts"),
  PersistentVolumeClaim: core("PersistentVolumeClaim", "persistentvolumeclaims"),
  PersistentVolume: core("PersistentVolume", "persistentvolumes"),
  Endpoints: core("Endpoints", "endpoints"),
  Event: core("Event", "events"),
  Namespace: core("Namespace", "namespaces"),
  Node: core("Node", "nodes"),
  Deployment: apps("Deployment", "deployments"),
  StatefulSet: apps("StatefulSet", "statefulsets"),
  DaemonSet: apps("DaemonSet", "daemonsets"),
  ReplicaSet: apps("ReplicaSet", "replicasets"),
  Job: batch("Job", "jobs"),
  CronJob: batch("CronJob", "cronjobs"),
  HorizontalPodAutoscaler: {
    group: "autoscaling",
    kind: "HorizontalPodAutoscaler",
    plural: "horizontalpodautoscalers",
  },
  Ingress: { group: "networking.k8s.io", kind: "Ingress", plural: "ingresses" },
  NetworkPolicy: { group: "networking.k8s.io", kind: "NetworkPolicy", plural: "networkpolicies" },
  EndpointSlice: { group: "discovery.k8s.io", kind: "EndpointSlice", plural: "endpointslices" },
  PodDisruptionBudget: {
    group: "policy",
    kind: "PodDisruptionBudget",
    plural: "poddisruptionbudgets",
  },
  Lease: { group: "coordination.k8s.io", kind: "Lease", plural: "leases" },
  EventsV1Event: { group: "events.k8s.io", kind: "Event", plural: "events" },
  Role: rbac("Role", "roles"),
  RoleBinding: rbac("RoleBinding", "rolebindings"),
  ClusterRole: rbac("ClusterRole", "clusterroles"),
  ClusterRoleBinding: rbac("ClusterRoleBinding", "clusterrolebindings"),
  CustomResourceDefinition: {
    group: "apiextensions.k8s.io",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
  },
};
