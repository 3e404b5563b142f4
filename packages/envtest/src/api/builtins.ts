/**
 * The built-in resources envtest serves: the kinds an operator reads, owns or is granted, with
 * the per-kind behaviour of their kube-apiserver registry strategies (generation, unconditional
 * update, status/scale subresources, extra field selectors).
 */
import type { KubeObject, ResourceInfo, ScaleSubresource, SharedStorage } from "./types.js";

interface BuiltinSpec {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  generation?: boolean;
  status?: boolean;
  scale?: boolean;
  conditionalOnly?: boolean;
  returnDeletedObject?: boolean;
  virtual?: boolean;
  fieldLabels?: ResourceInfo["fieldLabels"];
}

function at(path: string): (o: KubeObject) => string | undefined {
  const parts = path.split(".");
  return (o) => {
    let cur: unknown = o;
    for (const p of parts) {
      if (typeof cur !== "object" || cur === null) return undefined;
      cur = (cur as Record<string, unknown>)[p];
    }
    if (cur === undefined || cur === null) return undefined;
    return String(cur);
  };
}

function labels(...paths: string[]): ResourceInfo["fieldLabels"] {
  return Object.fromEntries(paths.map((p) => [p, at(p)]));
}

const eventFields = labels(
  "involvedObject.kind",
  "involvedObject.namespace",
  "involvedObject.name",
  "involvedObject.uid",
  "involvedObject.apiVersion",
  "involvedObject.resourceVersion",
  "involvedObject.fieldPath",
  "reason",
  "reportingComponent",
  "source",
  "type",
);
// `source` selects on source.component in the real field set.
if (eventFields) eventFields.source = at("source.component");
if (eventFields) eventFields.reportingComponent = at("reportingComponent");

const specs: BuiltinSpec[] = [
  {
    group: "",
    version: "v1",
    resource: "namespaces",
    kind: "Namespace",
    namespaced: false,
    shortNames: ["ns"],
    status: true,
    returnDeletedObject: true,
    fieldLabels: labels("status.phase"),
  },
  {
    group: "",
    version: "v1",
    resource: "pods",
    kind: "Pod",
    shortNames: ["po"],
    categories: ["all"],
    status: true,
    returnDeletedObject: true,
    fieldLabels: labels(
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "spec.hostNetwork",
      "status.phase",
      "status.podIP",
      "status.nominatedNodeName",
    ),
  },
  {
    group: "",
    version: "v1",
    resource: "services",
    kind: "Service",
    shortNames: ["svc"],
    categories: ["all"],
    status: true,
    returnDeletedObject: true,
  },
  { group: "", version: "v1", resource: "endpoints", kind: "Endpoints", shortNames: ["ep"] },
  { group: "", version: "v1", resource: "configmaps", kind: "ConfigMap", shortNames: ["cm"] },
  {
    group: "",
    version: "v1",
    resource: "secrets",
    kind: "Secret",
    fieldLabels: labels("type"),
  },
  {
    group: "",
    version: "v1",
    resource: "serviceaccounts",
    kind: "ServiceAccount",
    shortNames: ["sa"],
  },
  {
    group: "",
    version: "v1",
    resource: "events",
    kind: "Event",
    shortNames: ["ev"],
    fieldLabels: eventFields,
  },
  {
    group: "",
    version: "v1",
    resource: "persistentvolumeclaims",
    kind: "PersistentVolumeClaim",
    shortNames: ["pvc"],
    status: true,
    returnDeletedObject: true,
  },
  {
    group: "",
    version: "v1",
    resource: "persistentvolumes",
    kind: "PersistentVolume",
    namespaced: false,
    shortNames: ["pv"],
    status: true,
    returnDeletedObject: true,
  },
  {
    group: "",
    version: "v1",
    resource: "nodes",
    kind: "Node",
    namespaced: false,
    shortNames: ["no"],
    status: true,
    fieldLabels: labels("spec.unschedulable"),
  },
  {
    group: "",
    version: "v1",
    resource: "resourcequotas",
    kind: "ResourceQuota",
    shortNames: ["quota"],
    status: true,
  },
  { group: "", version: "v1", resource: "limitranges", kind: "LimitRange", shortNames: ["limits"] },
  ...(["deployments", "replicasets", "statefulsets", "daemonsets"] as const).map(
    (resource): BuiltinSpec => ({
      group: "apps",
      version: "v1",
      resource,
      kind: {
        deployments: "Deployment",
        replicasets: "ReplicaSet",
        statefulsets: "StatefulSet",
        daemonsets: "DaemonSet",
      }[resource],
      shortNames: [
        { deployments: "deploy", replicasets: "rs", statefulsets: "sts", daemonsets: "ds" }[
          resource
        ],
      ],
      categories: ["all"],
      generation: true,
      status: true,
      scale: resource !== "daemonsets",
      fieldLabels: resource === "replicasets" ? labels("status.replicas") : undefined,
    }),
  ),
  { group: "apps", version: "v1", resource: "controllerrevisions", kind: "ControllerRevision" },
  {
    group: "batch",
    version: "v1",
    resource: "jobs",
    kind: "Job",
    categories: ["all"],
    generation: true,
    status: true,
    fieldLabels: labels("status.successful"),
  },
  {
    group: "batch",
    version: "v1",
    resource: "cronjobs",
    kind: "CronJob",
    shortNames: ["cj"],
    categories: ["all"],
    generation: true,
    status: true,
  },
  {
    group: "autoscaling",
    version: "v2",
    resource: "horizontalpodautoscalers",
    kind: "HorizontalPodAutoscaler",
    shortNames: ["hpa"],
    categories: ["all"],
    status: true,
  },
  {
    group: "policy",
    version: "v1",
    resource: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    shortNames: ["pdb"],
    generation: true,
    status: true,
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    resource: "ingresses",
    kind: "Ingress",
    shortNames: ["ing"],
    generation: true,
    status: true,
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    resource: "networkpolicies",
    kind: "NetworkPolicy",
    shortNames: ["netpol"],
    generation: true,
  },
  {
    group: "discovery.k8s.io",
    version: "v1",
    resource: "endpointslices",
    kind: "EndpointSlice",
  },
  { group: "coordination.k8s.io", version: "v1", resource: "leases", kind: "Lease" },
  {
    group: "events.k8s.io",
    version: "v1",
    resource: "events",
    kind: "Event",
    shortNames: ["ev"],
  },
  ...(["roles", "rolebindings", "clusterroles", "clusterrolebindings"] as const).map(
    (resource): BuiltinSpec => ({
      group: "rbac.authorization.k8s.io",
      version: "v1",
      resource,
      kind: {
        roles: "Role",
        rolebindings: "RoleBinding",
        clusterroles: "ClusterRole",
        clusterrolebindings: "ClusterRoleBinding",
      }[resource],
      namespaced: resource === "roles" || resource === "rolebindings",
    }),
  ),
  {
    group: "apiextensions.k8s.io",
    version: "v1",
    resource: "customresourcedefinitions",
    kind: "CustomResourceDefinition",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    generation: true,
    status: true,
    conditionalOnly: true,
  },
  ...(["validatingwebhookconfigurations", "mutatingwebhookconfigurations"] as const).map(
    (resource): BuiltinSpec => ({
      group: "admissionregistration.k8s.io",
      version: "v1",
      resource,
      kind:
        resource === "validatingwebhookconfigurations"
          ? "ValidatingWebhookConfiguration"
          : "MutatingWebhookConfiguration",
      namespaced: false,
      categories: ["api-extensions"],
      generation: true,
    }),
  ),
  ...(["selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"] as const).map(
    (resource): BuiltinSpec => ({
      group: "authorization.k8s.io",
      version: "v1",
      resource,
      kind: {
        selfsubjectaccessreviews: "SelfSubjectAccessReview",
        selfsubjectrulesreviews: "SelfSubjectRulesReview",
        subjectaccessreviews: "SubjectAccessReview",
      }[resource],
      namespaced: false,
      virtual: true,
    }),
  ),
  {
    group: "scheduling.k8s.io",
    version: "v1",
    resource: "priorityclasses",
    kind: "PriorityClass",
    namespaced: false,
    shortNames: ["pc"],
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    resource: "storageclasses",
    kind: "StorageClass",
    namespaced: false,
    shortNames: ["sc"],
  },
];

const builtinScale: ScaleSubresource = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".spec.selector",
};

/** Field renames between events.k8s.io/v1 Event (left) and core/v1 Event (right). */
const eventRenames: [string, string][] = [
  ["regarding", "involvedObject"],
  ["note", "message"],
  ["deprecatedSource", "source"],
  ["deprecatedFirstTimestamp", "firstTimestamp"],
  ["deprecatedLastTimestamp", "lastTimestamp"],
  ["deprecatedCount", "count"],
  ["reportingController", "reportingComponent"],
];

function rename(o: KubeObject, pairs: [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = { ...o, apiVersion, kind: "Event" };
  for (const [from, to] of pairs) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/** events.k8s.io/v1 events are stored once, as core/v1 events (one object, two APIs). */
const eventsShared: SharedStorage = {
  bucket: "/events",
  apiVersion: "v1",
  toStorage: (o) => rename(o, eventRenames, "v1"),
  fromStorage: (o) =>
    rename(
      o,
      eventRenames.map(([a, b]) => [b, a]),
      "events.k8s.io/v1",
    ),
};

/** Fresh ResourceInfo records for every built-in (each server gets its own copies). */
export function builtinResources(): ResourceInfo[] {
  return specs.map((s) => ({
    ...(s.group === "events.k8s.io" ? { sharedStorage: eventsShared } : {}),
    ...(s.virtual ? { virtual: true } : {}),
    group: s.group,
    resource: s.resource,
    kind: s.kind,
    listKind: `${s.kind}List`,
    singular: s.kind.toLowerCase(),
    namespaced: s.namespaced ?? true,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    versions: [
      {
        name: s.version,
        served: true,
        storage: true,
        status: s.status ?? false,
        ...(s.scale ? { scale: builtinScale } : {}),
      },
    ],
    custom: false,
    generation: s.generation ?? false,
    unconditionalUpdate: !s.conditionalOnly,
    returnDeletedObject: s.returnDeletedObject ?? false,
    ...(s.fieldLabels ? { fieldLabels: s.fieldLabels } : {}),
  }));
}

/** Groups in the order kube-apiserver lists them in discovery. */
export const builtinGroupOrder = [
  "",
  "apiregistration.k8s.io",
  "apps",
  "events.k8s.io",
  "authentication.k8s.io",
  "authorization.k8s.io",
  "autoscaling",
  "batch",
  "certificates.k8s.io",
  "networking.k8s.io",
  "policy",
  "rbac.authorization.k8s.io",
  "storage.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "scheduling.k8s.io",
  "coordination.k8s.io",
  "node.k8s.io",
  "discovery.k8s.io",
  "flowcontrol.apiserver.k8s.io",
];
