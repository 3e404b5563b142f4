/**
 * What every cluster has from the start, in the order the server creates it: the system
 * namespaces, the system PriorityClasses, the component statuses, and the `kubernetes` Service
 * with its Endpoints and EndpointSlice (kube-apiserver's bootstrap controllers and post-start
 * hooks write these).
 */
import type { KubeObject } from "./api/types.js";

export interface BootstrapObject {
  group: string;
  version: string;
  resource: string;
  object: KubeObject;
}

export function bootstrapObjects(): BootstrapObject[] {
  return [
    ...["default", "kube-system", "kube-public", "kube-node-lease"].map((name) =>
      core("namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } }),
    ),
    ...priorityClasses(),
    // What `kubectl get componentstatuses` reports of a healthy control plane.
    ...["controller-manager", "scheduler", "etcd-0"].map((name) =>
      core("componentstatuses", {
        apiVersion: "v1",
        kind: "ComponentStatus",
        metadata: { name },
        conditions: [{ type: "Healthy", status: "True", message: "ok" }],
      }),
    ),
    ...kubernetesService(),
  ];
}

function core(resource: string, object: KubeObject): BootstrapObject {
  return { group: "", version: "v1", resource, object };
}

/** The scheduling API's two system priority classes (SystemCriticalPriority = 2e9). */
function priorityClasses(): BootstrapObject[] {
  const classes = [
    [
      "system-node-critical",
      2_000_001_000,
      "Used for system critical pods that must not be moved from their current node.",
    ],
    [
      "system-cluster-critical",
      2_000_000_000,
      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
    ],
  ] as const;
  return classes.map(([name, value, description]) => ({
    group: "scheduling.k8s.io",
    version: "v1",
    resource: "priorityclasses",
    object: {
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name },
      value,
      description,
    },
  }));
}

/**
 * The `kubernetes` Service, and the Endpoints and EndpointSlice kube-apiserver's endpoint
 * reconciler keeps pointing at itself (its EndpointsAdapter writes both; mirroring skips them).
 */
function kubernetesService(): BootstrapObject[] {
  return [
    core("services", {
      apiVersion: "v1",
      kind: "Service",
      metadata: {
        name: "kubernetes",
        namespace: "default",
        labels: { component: "apiserver", provider: "kubernetes" },
      },
      spec: {
        clusterIP: "10.96.0.1",
        ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }],
        type: "ClusterIP",
      },
    }),
    core("endpoints", {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: {
        name: "kubernetes",
        namespace: "default",
        labels: { "endpointslice.kubernetes.io/skip-mirror": "true" },
      },
      subsets: [
        {
          addresses: [{ ip: "127.0.0.1" }],
          ports: [{ name: "https", port: 6443, protocol: "TCP" }],
        },
      ],
    }),
    {
      group: "discovery.k8s.io",
      version: "v1",
      resource: "endpointslices",
      object: {
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: {
          name: "kubernetes",
          namespace: "default",
          labels: { "kubernetes.io/service-name": "kubernetes" },
        },
        addressType: "IPv4",
        endpoints: [{ addresses: ["127.0.0.1"], conditions: { ready: true } }],
        ports: [{ name: "https", port: 6443, protocol: "TCP" }],
      },
    },
  ];
}
