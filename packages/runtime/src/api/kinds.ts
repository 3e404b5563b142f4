/**
 * Built-in kind descriptors for the resources operators commonly read and own, typed with the
 * @kubernetes/client-node models (the role of client-go's typed scheme for core APIs).
 */
import type {
  CoreV1Event,
  EventsV1Event,
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1ConfigMap,
  V1CronJob,
  V1CustomResourceDefinition,
  V1DaemonSet,
  V1Deployment,
  V1EndpointSlice,
  V1Endpoints,
  V1Ingress,
  V1Job,
  V1Lease,
  V1Namespace,
  V1NetworkPolicy,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1Role,
  V1RoleBinding,
  V1Secret,
  V1Service,
  V1ServiceAccount,
  V1StatefulSet,
  V2HorizontalPodAutoscaler,
} from "@kubernetes/client-node";
import { defineKind } from "./kind.js";

const core = { group: "", version: "v1" };
const apps = { group: "apps", version: "v1" };
const batch = { group: "batch", version: "v1" };
const rbac = { group: "rbac.authorization.k8s.io", version: "v1" };
const ns = { namespaced: true };
const cluster = { namespaced: false };

/** Descriptors of built-in kinds, keyed by Kind. */
export const kinds = {
  Pod: defineKind<V1Pod>({ ...core, ...ns, kind: "Pod", plural: "pods" }),
  Service: defineKind<V1Service>({ ...core, ...ns, kind: "Service", plural: "services" }),
  ConfigMap: defineKind<V1ConfigMap>({ ...core, ...ns, kind: "ConfigMap", plural: "configmaps" }),
  Secret: defineKind<V1Secret>({ ...core, ...ns, kind: "Secret", plural: "secrets" }),
  ServiceAccount: defineKind<V1ServiceAccount>({
    ...core,
    ...ns,
    kind: "ServiceAccount",
    plural: "serviceaccounts",
  }),
  PersistentVolumeClaim: defineKind<V1PersistentVolumeClaim>({
    ...core,
    ...ns,
    kind: "PersistentVolumeClaim",
    plural: "persistentvolumeclaims",
  }),
  PersistentVolume: defineKind<V1PersistentVolume>({
    ...core,
    ...cluster,
    kind: "PersistentVolume",
    plural: "persistentvolumes",
  }),
  Endpoints: defineKind<V1Endpoints>({ ...core, ...ns, kind: "Endpoints", plural: "endpoints" }),
  Event: defineKind<CoreV1Event>({ ...core, ...ns, kind: "Event", plural: "events" }),
  Namespace: defineKind<V1Namespace>({
    ...core,
    ...cluster,
    kind: "Namespace",
    plural: "namespaces",
  }),
  Node: defineKind<V1Node>({ ...core, ...cluster, kind: "Node", plural: "nodes" }),
  Deployment: defineKind<V1Deployment>({
    ...apps,
    ...ns,
    kind: "Deployment",
    plural: "deployments",
  }),
  StatefulSet: defineKind<V1StatefulSet>({
    ...apps,
    ...ns,
    kind: "StatefulSet",
    plural: "statefulsets",
  }),
  DaemonSet: defineKind<V1DaemonSet>({ ...apps, ...ns, kind: "DaemonSet", plural: "daemonsets" }),
  ReplicaSet: defineKind<V1ReplicaSet>({
    ...apps,
    ...ns,
    kind: "ReplicaSet",
    plural: "replicasets",
  }),
  Job: defineKind<V1Job>({ ...batch, ...ns, kind: "Job", plural: "jobs" }),
  CronJob: defineKind<V1CronJob>({ ...batch, ...ns, kind: "CronJob", plural: "cronjobs" }),
  HorizontalPodAutoscaler: defineKind<V2HorizontalPodAutoscaler>({
    group: "autoscaling",
    version: "v2",
    ...ns,
    kind: "HorizontalPodAutoscaler",
    plural: "horizontalpodautoscalers",
  }),
  Ingress: defineKind<V1Ingress>({
    group: "networking.k8s.io",
    version: "v1",
    ...ns,
    kind: "Ingress",
    plural: "ingresses",
  }),
  NetworkPolicy: defineKind<V1NetworkPolicy>({
    group: "networking.k8s.io",
    version: "v1",
    ...ns,
    kind: "NetworkPolicy",
    plural: "networkpolicies",
  }),
  EndpointSlice: defineKind<V1EndpointSlice>({
    group: "discovery.k8s.io",
    version: "v1",
    ...ns,
    kind: "EndpointSlice",
    plural: "endpointslices",
  }),
  PodDisruptionBudget: defineKind<V1PodDisruptionBudget>({
    group: "policy",
    version: "v1",
    ...ns,
    kind: "PodDisruptionBudget",
    plural: "poddisruptionbudgets",
  }),
  Lease: defineKind<V1Lease>({
    group: "coordination.k8s.io",
    version: "v1",
    ...ns,
    kind: "Lease",
    plural: "leases",
  }),
  EventsV1Event: defineKind<EventsV1Event>({
    group: "events.k8s.io",
    version: "v1",
    ...ns,
    kind: "Event",
    plural: "events",
  }),
  Role: defineKind<V1Role>({ ...rbac, ...ns, kind: "Role", plural: "roles" }),
  RoleBinding: defineKind<V1RoleBinding>({
    ...rbac,
    ...ns,
    kind: "RoleBinding",
    plural: "rolebindings",
  }),
  ClusterRole: defineKind<V1ClusterRole>({
    ...rbac,
    ...cluster,
    kind: "ClusterRole",
    plural: "clusterroles",
  }),
  ClusterRoleBinding: defineKind<V1ClusterRoleBinding>({
    ...rbac,
    ...cluster,
    kind: "ClusterRoleBinding",
    plural: "clusterrolebindings",
  }),
  CustomResourceDefinition: defineKind<V1CustomResourceDefinition>({
    group: "apiextensions.k8s.io",
    version: "v1",
    ...cluster,
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
  }),
} as const;
