/**
 * The built-in resources envtest serves: the kinds an operator reads, owns or is granted, with
 * the per-kind behaviour of their kube-apiserver registry strategies (generation, unconditional
 * update, status/scale subresources, extra field selectors).
 */
import { builtinResources as catalogResources, findResource } from "@opgen/apimachinery/catalog";
import { convertHorizontalPodAutoscaler } from "../registry/autoscaling/hpa-conversion.js";
import type { KubeObject, ResourceInfo, ScaleSubresource, SharedStorage } from "./types.js";

/**
 * What envtest serves of a built-in resource and how it behaves. Discovery facts (kind, version,
 * scope, short names, categories, verbs, status/scale subresources) come from the 1.32 catalog.
 */
interface BuiltinSpec {
  group: string;
  resource: string;
  generation?: boolean;
  conditionalOnly?: boolean;
  returnDeletedObject?: boolean;
  virtual?: boolean;
  fieldLabels?: ResourceInfo["fieldLabels"];
  /** Further GA versions served besides the preferred (stored) one, and how to convert. */
  alsoServed?: { versions: string[]; convert: NonNullable<ResourceInfo["convert"]> };
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
    resource: "namespaces",
    returnDeletedObject: true,
    fieldLabels: labels("status.phase"),
  },
  {
    group: "",
    resource: "pods",
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
    resource: "services",
    returnDeletedObject: true,
  },
  { group: "", resource: "endpoints" },
  { group: "", resource: "configmaps" },
  {
    group: "",
    resource: "secrets",
    fieldLabels: labels("type"),
  },
  {
    group: "",
    resource: "serviceaccounts",
  },
  {
    group: "",
    resource: "events",
    fieldLabels: eventFields,
  },
  {
    group: "",
    resource: "persistentvolumeclaims",
    returnDeletedObject: true,
  },
  {
    group: "",
    resource: "persistentvolumes",
    returnDeletedObject: true,
  },
  {
    group: "",
    resource: "nodes",
    fieldLabels: labels("spec.unschedulable"),
  },
  {
    group: "",
    resource: "resourcequotas",
  },
  { group: "", resource: "limitranges" },
  ...(["deployments", "replicasets", "statefulsets", "daemonsets"] as const).map(
    (resource): BuiltinSpec => ({
      group: "apps",
      resource,
      generation: true,
      fieldLabels: resource === "replicasets" ? labels("status.replicas") : undefined,
    }),
  ),
  { group: "apps", resource: "controllerrevisions" },
  {
    group: "batch",
    resource: "jobs",
    generation: true,
    fieldLabels: labels("status.successful"),
  },
  {
    group: "batch",
    resource: "cronjobs",
    generation: true,
  },
  {
    group: "autoscaling",
    resource: "horizontalpodautoscalers",
    generation: true,
    alsoServed: { versions: ["v1"], convert: convertHorizontalPodAutoscaler },
  },
  {
    group: "",
    resource: "replicationcontrollers",
    generation: true,
    fieldLabels: labels("status.replicas"),
  },
  {
    group: "policy",
    resource: "poddisruptionbudgets",
    generation: true,
  },
  {
    group: "networking.k8s.io",
    resource: "ingresses",
    generation: true,
  },
  {
    group: "networking.k8s.io",
    resource: "networkpolicies",
    generation: true,
  },
  {
    group: "discovery.k8s.io",
    resource: "endpointslices",
  },
  { group: "coordination.k8s.io", resource: "leases" },
  {
    group: "certificates.k8s.io",
    resource: "certificatesigningrequests",
    fieldLabels: labels("spec.signerName"),
  },
  {
    group: "events.k8s.io",
    resource: "events",
  },
  ...(["roles", "rolebindings", "clusterroles", "clusterrolebindings"] as const).map(
    (resource): BuiltinSpec => ({
      group: "rbac.authorization.k8s.io",
      resource,
    }),
  ),
  {
    group: "apiextensions.k8s.io",
    resource: "customresourcedefinitions",
    generation: true,
    conditionalOnly: true,
  },
  ...(
    [
      "validatingwebhookconfigurations",
      "mutatingwebhookconfigurations",
      "validatingadmissionpolicies",
      "validatingadmissionpolicybindings",
    ] as const
  ).map(
    (resource): BuiltinSpec => ({
      group: "admissionregistration.k8s.io",
      resource,
      generation: true,
    }),
  ),
  ...(["selfsubjectreviews", "tokenreviews"] as const).map(
    (resource): BuiltinSpec => ({
      group: "authentication.k8s.io",
      resource,
      virtual: true,
    }),
  ),
  ...(["selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"] as const).map(
    (resource): BuiltinSpec => ({
      group: "authorization.k8s.io",
      resource,
      virtual: true,
    }),
  ),
  {
    group: "scheduling.k8s.io",
    resource: "priorityclasses",
  },
  {
    group: "storage.k8s.io",
    resource: "storageclasses",
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

/** Create-only resources answered without storage, beyond the reviews listed above. */
const virtualResources = new Set(["/bindings", "authorization.k8s.io/localsubjectaccessreviews"]);

/**
 * Every GA resource of Kubernetes 1.32: the ones above with their behaviour, the rest served
 * generically (create, read, update, delete, watch with schema validation, as discovery lists
 * them).
 */
function allSpecs(): BuiltinSpec[] {
  const listed = new Set(specs.map((s) => `${s.group}/${s.resource}`));
  const out = [...specs];
  for (const r of catalogResources()) {
    const key = `${r.group}/${r.plural}`;
    if (r.stability !== "ga" || !r.preferred || listed.has(key)) continue;
    listed.add(key);
    out.push({
      group: r.group,
      resource: r.plural,
      ...(virtualResources.has(key) ? { virtual: true } : {}),
    });
  }
  return out;
}

/** Fresh ResourceInfo records for every built-in (each server gets its own copies). */
export function builtinResources(): ResourceInfo[] {
  return allSpecs().map((s) => {
    const c = findResource({ group: s.group, plural: s.resource });
    if (!c) throw new Error(`envtest: ${s.resource}.${s.group} is not a Kubernetes 1.32 resource`);
    const has = (sub: string) => c.subresources.some((x) => x.name === sub);
    return {
      ...(s.group === "events.k8s.io" ? { sharedStorage: eventsShared } : {}),
      ...(s.virtual ? { virtual: true } : {}),
      group: s.group,
      resource: s.resource,
      kind: c.kind,
      listKind: `${c.kind}List`,
      singular: c.singular,
      namespaced: c.namespaced,
      shortNames: [...c.shortNames],
      categories: [...c.categories],
      verbs: [...c.verbs],
      versions: [
        {
          name: c.version,
          served: true,
          storage: true,
          status: has("status"),
          ...(has("scale") ? { scale: builtinScale } : {}),
          // kube warns on every request to a deprecated kind (apiserver's deprecation filter).
          ...(c.deprecatedIn
            ? {
                deprecated: true,
                deprecationWarning: `${c.group ? `${c.group}/` : ""}${c.version} ${c.kind} is deprecated in v${c.deprecatedIn}+`,
              }
            : {}),
        },
        ...(s.alsoServed?.versions ?? []).map((name) => ({
          name,
          served: true,
          storage: false,
          status: has("status"),
        })),
      ],
      ...(s.alsoServed ? { convert: s.alsoServed.convert } : {}),
      custom: false,
      generation: s.generation ?? false,
      unconditionalUpdate: !s.conditionalOnly,
      returnDeletedObject: s.returnDeletedObject ?? false,
      ...(s.fieldLabels ? { fieldLabels: s.fieldLabels } : {}),
    };
  });
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
