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
import { kubeVersion } from "@opgen/apimachinery/version";
import { defineKind, type Kind } from "./kind.js";
import type { KubeObject } from "./types.js";

/**
 * A built-in kind at its preferred version, its plural and scope read from the default version
 * profile's catalog (these GA kinds are the same in every minor opgen knows).
 */
function builtin<T extends KubeObject>(group: string, kind: string): Kind<T> {
  const catalog = kubeVersion().catalog;
  const r = catalog.findResource({ group, kind });
  if (!r)
    throw new Error(`@opgen/runtime: ${kind}.${group} is not a Kubernetes ${catalog.minor} kind`);
  return defineKind<T>({
    group,
    version: r.version,
    kind,
    plural: r.plural,
    namespaced: r.namespaced,
  });
}

/** Descriptors of built-in kinds, keyed by Kind. */
export const kinds = {
  Pod: builtin<V1Pod>("", "Pod"),
  Service: builtin<V1Service>("", "Service"),
  ConfigMap: builtin<V1ConfigMap>("", "ConfigMap"),
  Secret: builtin<V1Secret>("", "Secret"),
  ServiceAccount: builtin<V1ServiceAccount>("", "ServiceAccount"),
  PersistentVolumeClaim: builtin<V1PersistentVolumeClaim>("", "PersistentVolumeClaim"),
  PersistentVolume: builtin<V1PersistentVolume>("", "PersistentVolume"),
  Endpoints: builtin<V1Endpoints>("", "Endpoints"),
  Event: builtin<CoreV1Event>("", "Event"),
  Namespace: builtin<V1Namespace>("", "Namespace"),
  Node: builtin<V1Node>("", "Node"),
  Deployment: builtin<V1Deployment>("apps", "Deployment"),
  StatefulSet: builtin<V1StatefulSet>("apps", "StatefulSet"),
  DaemonSet: builtin<V1DaemonSet>("apps", "DaemonSet"),
  ReplicaSet: builtin<V1ReplicaSet>("apps", "ReplicaSet"),
  Job: builtin<V1Job>("batch", "Job"),
  CronJob: builtin<V1CronJob>("batch", "CronJob"),
  HorizontalPodAutoscaler: builtin<V2HorizontalPodAutoscaler>(
    "autoscaling",
    "HorizontalPodAutoscaler",
  ),
  Ingress: builtin<V1Ingress>("networking.k8s.io", "Ingress"),
  NetworkPolicy: builtin<V1NetworkPolicy>("networking.k8s.io", "NetworkPolicy"),
  EndpointSlice: builtin<V1EndpointSlice>("discovery.k8s.io", "EndpointSlice"),
  PodDisruptionBudget: builtin<V1PodDisruptionBudget>("policy", "PodDisruptionBudget"),
  Lease: builtin<V1Lease>("coordination.k8s.io", "Lease"),
  EventsV1Event: builtin<EventsV1Event>("events.k8s.io", "Event"),
  Role: builtin<V1Role>("rbac.authorization.k8s.io", "Role"),
  RoleBinding: builtin<V1RoleBinding>("rbac.authorization.k8s.io", "RoleBinding"),
  ClusterRole: builtin<V1ClusterRole>("rbac.authorization.k8s.io", "ClusterRole"),
  ClusterRoleBinding: builtin<V1ClusterRoleBinding>(
    "rbac.authorization.k8s.io",
    "ClusterRoleBinding",
  ),
  CustomResourceDefinition: builtin<V1CustomResourceDefinition>(
    "apiextensions.k8s.io",
    "CustomResourceDefinition",
  ),
} as const;
