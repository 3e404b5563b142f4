/**
 * Services (`pkg/registry/core/service`): SetDefaults_Service (type, session affinity, traffic
 * policy, port protocol and target port, single-stack IPv4), validation, and kubectl's columns.
 * Cluster IPs and node ports are allocated by service-ips.ts and node-ports.ts (the storage's
 * BeginCreate/BeginUpdate, index.ts).
 */
import { isObject, type JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { labelSet, loadBalancerIngress } from "../printing/format.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateService } from "../workload-validation.js";

/** kube's getServiceExternalIP: external IPs, the load balancer's points, or the external name. */
function externalIp(spec: JsonObject, status: JsonObject, type: string): string {
  const external = Array.isArray(spec.externalIPs) ? (spec.externalIPs as string[]) : [];
  switch (type) {
    case "ClusterIP":
    case "NodePort":
      return external.length ? external.join(",") : "<none>";
    case "LoadBalancer": {
      const lb = loadBalancerIngress(status.loadBalancer);
      if (external.length) return [...(lb ? lb.split(",") : []), ...external].join(",");
      return lb || "<pending>";
    }
    case "ExternalName":
      return String(spec.externalName ?? "");
    default:
      return "<unknown>";
  }
}

export const services: ResourceStrategy = {
  nameRule: "label",
  statusOnCreate: true,
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.type === undefined) spec.type = "ClusterIP";
    if (spec.sessionAffinity === undefined) spec.sessionAffinity = "None";
    if (spec.internalTrafficPolicy === undefined && spec.type !== "ExternalName") {
      spec.internalTrafficPolicy = "Cluster";
    }
    for (const p of (spec.ports as JsonObject[] | undefined) ?? []) {
      if (!isObject(p)) continue;
      if (p.protocol === undefined) p.protocol = "TCP";
      if (p.targetPort === undefined) p.targetPort = p.port;
    }
    if (
      (spec.type === "NodePort" || spec.type === "LoadBalancer") &&
      spec.externalTrafficPolicy === undefined
    )
      spec.externalTrafficPolicy = "Cluster";
    if (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts === undefined)
      spec.allocateLoadBalancerNodePorts = true;
    if (spec.type !== "ExternalName") {
      if (spec.ipFamilies === undefined) spec.ipFamilies = ["IPv4"];
      if (spec.ipFamilyPolicy === undefined) spec.ipFamilyPolicy = "SingleStack";
    }
    if (o.status === undefined) o.status = { loadBalancer: {} };
  },
  validate: validateService,
  printer() {
    const printer = namedPrinter(
      [
        { name: "Type", type: "string", description: doc("api.core.v1.ServiceSpec", "type") },
        {
          name: "Cluster-IP",
          type: "string",
          description: doc("api.core.v1.ServiceSpec", "clusterIP"),
        },
        {
          name: "External-IP",
          type: "string",
          description: doc("api.core.v1.ServiceSpec", "externalIPs"),
        },
        { name: "Port(s)", type: "string", description: doc("api.core.v1.ServiceSpec", "ports") },
      ],
      (o) => {
        const spec = objectAt(o.spec);
        const type = String(spec.type ?? "ClusterIP");
        const ports = ((spec.ports as JsonObject[] | undefined) ?? [])
          .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ""}/${p.protocol ?? "TCP"}`)
          .join(",");
        return [
          type,
          // kube prints the first of clusterIPs (`None` for a headless service).
          (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0]) || "<none>",
          externalIp(spec, objectAt(o.status), type),
          ports || "<none>",
        ];
      },
    );
    const selector = (o: Parameters<typeof printer.cells>[0]) =>
      labelSet(objectAt(o.spec).selector);
    return {
      columns: [
        ...printer.columns,
        {
          name: "Selector",
          type: "string",
          priority: 1,
          description: doc("api.core.v1.ServiceSpec", "selector"),
        },
      ],
      cells: (o) => [...printer.cells(o), selector(o)],
    };
  },
};
