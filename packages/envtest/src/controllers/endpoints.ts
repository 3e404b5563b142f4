/**
 * kube-controller-manager's endpoints and EndpointSlice controllers: every Service with a
 * selector has an Endpoints object of its name and an EndpointSlice (`<service>-<suffix>`,
 * owned by the Service) listing the matching pods that have an IP: ready ones as addresses,
 * the others as not-ready addresses (or endpoints with `ready: false`), with the Service's ports
 * resolved against each pod's named container ports. Without a kubelet (no `simulate`), pods
 * have no IP and the lists stay empty, as on a cluster whose pods never start. Each controller
 * writes through the API as its own service account (`endpoint-controller`,
 * `endpointslice-controller`).
 */
import { labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { nowTime } from "../api/meta.js";
import { bucketKey } from "../api/registry.js";
import { deepEqual, isObject, type JsonObject, type KubeObject } from "../api/types.js";
import { type ApiClient, type InternalClient, keyOf } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import { isPodReady } from "../registry/core/pod-conditions.js";
import type { Store } from "../store/store.js";
import { NamespaceQueue } from "./namespace-queue.js";
import { failedSync } from "./work-queue.js";

const SERVICES = bucketKey("", "services");
const PODS = bucketKey("", "pods");
const ENDPOINTS = bucketKey("", "endpoints");
const SLICES = bucketKey("discovery.k8s.io", "endpointslices");
const MANAGED_BY = "endpointslice-controller.k8s.io";
const ENDPOINTS_RESOURCE = { group: "", version: "v1", resource: "endpoints" };
const SLICES_RESOURCE = { group: "discovery.k8s.io", version: "v1", resource: "endpointslices" };

function selectorOf(svc: KubeObject): Record<string, string> | undefined {
  const sel = (svc.spec as JsonObject | undefined)?.selector;
  return isObject(sel) && Object.keys(sel).length ? (sel as Record<string, string>) : undefined;
}

/** A Service port's target on one pod: a number, or a named container port. */
function targetPort(port: JsonObject, pod: KubeObject): number | undefined {
  const t = port.targetPort ?? port.port;
  if (typeof t === "number") return t;
  for (const c of ((pod.spec as JsonObject | undefined)?.containers ?? []) as JsonObject[])
    for (const p of (c.ports ?? []) as JsonObject[])
      if (p.name === t && (p.protocol ?? "TCP") === (port.protocol ?? "TCP"))
        return p.containerPort as number;
  return undefined;
}

export class EndpointsController {
  private readonly queue: NamespaceQueue;
  private readonly endpoints: ApiClient;
  private readonly slices: ApiClient;

  constructor(
    private readonly store: Store,
    client: InternalClient,
  ) {
    this.endpoints = client.as(controllerIdentity("endpoint-controller"));
    this.slices = client.as(controllerIdentity("endpointslice-controller"));
    this.queue = new NamespaceQueue(store, new Set([SERVICES, PODS]), (ns) =>
      this.syncNamespace(ns),
    );
  }

  start(): void {
    this.queue.start(this.store.list(SERVICES));
  }

  stop(): void {
    this.queue.stop();
  }

  /** Syncs every Service of `namespace`; true when a write lost to a conflict. */
  private async syncNamespace(namespace: string): Promise<boolean> {
    const services = this.store.list(SERVICES, namespace);
    if (services.length === 0) return false;
    const pods = this.store.list(PODS, namespace);
    let failed = false;
    for (const svc of services) {
      if (svc.metadata?.deletionTimestamp || !selectorOf(svc)) continue;
      try {
        await this.sync(svc, pods);
      } catch (e) {
        // A namespace being deleted refuses new objects; its deletion removes the rest.
        if (failedSync(e)) failed = true;
      }
    }
    return failed;
  }

  private async sync(svc: KubeObject, pods: KubeObject[]): Promise<void> {
    const ns = svc.metadata!.namespace!;
    const name = svc.metadata!.name!;
    const selector = labelSelectorAsSelector({ matchLabels: selectorOf(svc)! });
    const spec = (svc.spec ?? {}) as JsonObject;
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const svcPorts = ((spec.ports ?? []) as JsonObject[]).filter(isObject);
    const members = pods.filter(
      (p) =>
        selector.matches(p.metadata?.labels ?? {}) &&
        typeof (p.status as JsonObject | undefined)?.podIP === "string" &&
        !p.metadata?.deletionTimestamp,
    );
    const address = (p: KubeObject): JsonObject => ({
      ip: (p.status as JsonObject).podIP,
      ...((p.spec as JsonObject | undefined)?.nodeName
        ? { nodeName: (p.spec as JsonObject).nodeName }
        : {}),
      targetRef: { kind: "Pod", namespace: ns, name: p.metadata?.name, uid: p.metadata?.uid },
    });
    // Endpoints: one subset per distinct resolved port set (pods usually agree).
    const subsets = new Map<string, JsonObject>();
    for (const p of members) {
      const resolved = svcPorts.map((sp) => ({
        ...(sp.name ? { name: sp.name } : {}),
        port: targetPort(sp, p),
        protocol: sp.protocol ?? "TCP",
      }));
      if (resolved.some((r) => r.port === undefined)) continue;
      const key = JSON.stringify(resolved);
      let subset = subsets.get(key);
      if (!subset) {
        subset = { ports: resolved };
        subsets.set(key, subset);
      }
      const list = isPodReady(p) || publishNotReady ? "addresses" : "notReadyAddresses";
      if (!subset[list]) subset[list] = [];
      (subset[list] as JsonObject[]).push(address(p));
    }
    // RepackSubsets: addresses in IP order.
    const byIp = (a: JsonObject, b: JsonObject) => (String(a.ip) < String(b.ip) ? -1 : 1);
    for (const subset of subsets.values()) {
      (subset.addresses as JsonObject[] | undefined)?.sort(byIp);
      (subset.notReadyAddresses as JsonObject[] | undefined)?.sort(byIp);
    }
    const labels = { ...(svc.metadata?.labels ?? {}) };
    const epSpec: JsonObject = subsets.size ? { subsets: [...subsets.values()] } : {};
    const existing = this.store.get(ENDPOINTS, ns, name);
    if (!existing) {
      await this.endpoints.create(ENDPOINTS_RESOURCE, {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: {
          name,
          namespace: ns,
          ...(Object.keys(labels).length ? { labels } : {}),
          annotations: { "endpoints.kubernetes.io/last-change-trigger-time": nowTime() },
        },
        ...epSpec,
      });
    } else if (!deepEqual(existing.subsets, epSpec.subsets)) {
      await this.endpoints.change(ENDPOINTS_RESOURCE, existing, (o) => {
        if (epSpec.subsets) o.subsets = epSpec.subsets;
        else delete o.subsets;
        o.metadata!.annotations = {
          ...(o.metadata!.annotations ?? {}),
          "endpoints.kubernetes.io/last-change-trigger-time": nowTime(),
        };
      });
    }
    await this.syncSlice(svc, members, svcPorts);
  }

  private async syncSlice(
    svc: KubeObject,
    members: KubeObject[],
    svcPorts: JsonObject[],
  ): Promise<void> {
    const ns = svc.metadata!.namespace!;
    const name = svc.metadata!.name!;
    const endpoints = members.map((p) => {
      const ready = isPodReady(p);
      return {
        addresses: [(p.status as JsonObject).podIP],
        conditions: { ready, serving: ready, terminating: false },
        ...((p.spec as JsonObject | undefined)?.nodeName
          ? { nodeName: (p.spec as JsonObject).nodeName }
          : {}),
        targetRef: { kind: "Pod", namespace: ns, name: p.metadata?.name, uid: p.metadata?.uid },
      };
    });
    const first = members[0];
    const ports = svcPorts.map((sp) => ({
      name: sp.name ?? "",
      port: first ? (targetPort(sp, first) ?? null) : null,
      protocol: sp.protocol ?? "TCP",
    }));
    const owned = this.store
      .list(SLICES, ns)
      .filter((s) => s.metadata?.labels?.["kubernetes.io/service-name"] === name);
    const slice = owned[0];
    for (const extra of owned.slice(1))
      await this.slices.delete(SLICES_RESOURCE, keyOf(extra), {
        preconditions: { uid: extra.metadata?.uid ?? "" },
      });
    if (!slice) {
      await this.slices.create(SLICES_RESOURCE, {
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: {
          generateName: `${name}-`,
          namespace: ns,
          labels: {
            ...(svc.metadata?.labels ?? {}),
            "endpointslice.kubernetes.io/managed-by": MANAGED_BY,
            "kubernetes.io/service-name": name,
          },
          ownerReferences: [
            {
              apiVersion: "v1",
              kind: "Service",
              name,
              uid: svc.metadata!.uid!,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        addressType: "IPv4",
        endpoints,
        ports,
      });
    } else if (!deepEqual(slice.endpoints ?? [], endpoints) || !deepEqual(slice.ports, ports)) {
      await this.slices.change(SLICES_RESOURCE, slice, (o) => {
        o.endpoints = endpoints;
        o.ports = ports;
      });
    }
  }
}
