/**
 * The core API group ("", `/api/v1`) as kube-apiserver's `pkg/registry/core/<resource>/storage`
 * serves it: each resource's strategy, field selectors, delete answer and subresources.
 */
import type { BeginWrite, ResourceDefinition, SubresourceHandler } from "../../api/types.js";
import type { DefinitionContext, GroupDefinitions } from "../context.js";
import { labels } from "../field-labels.js";
import { componentStatusPrinter } from "../printing/core.js";
import { printedStrategy } from "../strategy.js";
import { bindPod } from "./binding.js";
import { configMaps, secrets } from "./config.js";
import { endpoints } from "./endpoints.js";
import { coreEvents, eventFieldLabels } from "./events.js";
import { evictPod } from "./eviction.js";
import { limitRanges } from "./limit-ranges.js";
import { finalizeNamespace, namespaces } from "./namespaces.js";
import { NodePortAllocator } from "./node-ports.js";
import { nodes } from "./nodes.js";
import { persistentVolumeClaims } from "./persistent-volume-claims.js";
import { persistentVolumes } from "./persistent-volumes.js";
import { servePodConnect } from "./pod-connect.js";
import { podTemplates } from "./pod-templates.js";
import { pods } from "./pods.js";
import { serveProxy } from "./proxy.js";
import { replicationControllers } from "./replication-controllers.js";
import { resourceQuotas } from "./resource-quotas.js";
import { serviceAccounts } from "./service-accounts.js";
import { ServiceIpAllocator } from "./service-ips.js";
import { services } from "./services.js";
import { requestToken } from "./token-request.js";

/** The connecters of pods: log, exec, attach, portforward (pod-connect.ts). */
function podConnect(ctx: DefinitionContext): SubresourceHandler {
  return { connect: (scope, req, res) => servePodConnect(ctx, scope, req, res) };
}

/**
 * The Service storage's BeginCreate and BeginUpdate: a cluster IP, then node ports, allocated
 * from what the stored Services use.
 */
function allocateServiceAddresses(ctx: DefinitionContext): BeginWrite {
  const ips = new ServiceIpAllocator(ctx.store);
  const ports = new NodePortAllocator(ctx.store);
  return (scope, obj, old) => {
    ips.allocate(obj, old);
    ports.allocate(scope, obj, old);
  };
}

/** pods, services and nodes `/proxy`. */
function proxy(ctx: DefinitionContext): SubresourceHandler {
  return { connect: (scope) => serveProxy(ctx, scope) };
}

export const core: GroupDefinitions = {
  group: "",
  resources: (ctx): ResourceDefinition[] => [
    {
      resource: "namespaces",
      strategy: namespaces,
      returnDeletedObject: true,
      fieldLabels: labels("status.phase"),
      subresources: { finalize: finalizeNamespace(ctx.rest) },
    },
    {
      resource: "pods",
      strategy: pods,
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
      subresources: {
        attach: podConnect(ctx),
        binding: { create: (scope, body) => bindPod(ctx.rest, ctx.registry, scope, body) },
        ephemeralcontainers: {},
        eviction: {
          create: (scope, body) => evictPod(ctx, scope, body),
        },
        exec: podConnect(ctx),
        log: podConnect(ctx),
        portforward: podConnect(ctx),
        proxy: proxy(ctx),
      },
    },
    { resource: "podtemplates", strategy: podTemplates },
    {
      resource: "services",
      strategy: services,
      returnDeletedObject: true,
      subresources: { proxy: proxy(ctx) },
      beginWrite: allocateServiceAddresses(ctx),
    },
    { resource: "endpoints", strategy: endpoints },
    { resource: "configmaps", strategy: configMaps },
    { resource: "secrets", strategy: secrets, fieldLabels: labels("type") },
    {
      resource: "serviceaccounts",
      strategy: serviceAccounts,
      subresources: {
        token: { create: (scope, body) => requestToken(ctx.rest, ctx.tokens, scope, body) },
      },
    },
    { resource: "events", strategy: coreEvents, fieldLabels: eventFieldLabels },
    {
      resource: "persistentvolumeclaims",
      strategy: persistentVolumeClaims,
      returnDeletedObject: true,
    },
    { resource: "persistentvolumes", strategy: persistentVolumes, returnDeletedObject: true },
    {
      resource: "nodes",
      strategy: nodes,
      fieldLabels: labels("spec.unschedulable"),
      subresources: { proxy: proxy(ctx) },
    },
    { resource: "resourcequotas", strategy: resourceQuotas },
    { resource: "limitranges", strategy: limitRanges },
    {
      resource: "replicationcontrollers",
      strategy: replicationControllers,
      generation: true,
      fieldLabels: labels("status.replicas"),
    },
    { resource: "componentstatuses", strategy: printedStrategy(componentStatusPrinter) },
    // The scheduler's binding, as `POST namespaces/<ns>/bindings` (pods/binding's older form).
    {
      resource: "bindings",
      virtual: (scope, body) => bindPod(ctx.rest, ctx.registry, scope, body),
    },
  ],
};
