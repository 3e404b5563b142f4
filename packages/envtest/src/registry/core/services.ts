/**
 * Services (`pkg/registry/core/service`): SetDefaults_Service (type, session affinity, traffic
 * policy, port protocol and target port, single-stack IPv4), validation, and kubectl's columns.
 * Cluster IPs are allocated by rest/service-ips.ts, which needs the store.
 */
import { isObject, type JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateService } from "../workload-validation.js";

function externalIp(spec: JsonObject, status: JsonObject, type: string): string {
  if (type === "ExternalName") return String(spec.externalName ?? "");
  const ingress = (objectAt(status.loadBalancer).ingress as JsonObject[] | undefined) ?? [];
  if (ingress.length) return ingress.map((i) => i.ip ?? i.hostname).join(",");
  return type === "LoadBalancer" ? "<pending>" : "<none>";
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
          spec.clusterIP ?? "<none>",
          externalIp(spec, objectAt(o.status), type),
          ports || "<none>",
        ];
      },
    );
    const selector = (o: Parameters<typeof printer.cells>[0]) =>
      Object.entries((objectAt(o.spec).selector as Record<string, string> | undefined) ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(",") || "<none>";
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
