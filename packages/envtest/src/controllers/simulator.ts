/**
 * `simulate: true`, the node side: what a scheduler and a kubelet would do, so tutorials and tests
 * see real outcomes without a cluster. A Ready node `envtest-node` exists; pods are bound to it
 * and become Running/Ready with a pod IP shortly after creation, and terminate promptly when
 * deleted; a Job's pods then run to completion (Succeeded); ephemeral containers added to a
 * running pod are reported running. No containers run. Each writes through the API as itself:
 * the scheduler binds a pod through `pods/binding` as `system:kube-scheduler`, the kubelet
 * (`system:node:envtest-node`, field manager `kubelet`) writes pod and node status through their
 * status subresources and deletes a terminated pod. (The workload controllers are in
 * workloads.ts.)
 */
import { isNotFound } from "@opgen/apimachinery/status";
import { nowTime } from "../api/meta.js";
import type { JsonObject, KubeObject } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { kubeletIdentity, schedulerIdentity } from "../client/identities.js";
import type { Store, StoreEvent } from "../store/store.js";
import { WorkQueue } from "./work-queue.js";

export const simulatedNode = "envtest-node";
const podsBucket = "/pods";
const PODS = { group: "", version: "v1", resource: "pods" };
const NODES = { group: "", version: "v1", resource: "nodes" };

export class Simulator {
  private unsubscribe: () => void = () => {};
  private readonly queue: WorkQueue;
  private readonly kubelet: ApiClient;
  private readonly scheduler: ApiClient;
  private nextIp = 2;

  constructor(
    private readonly store: Store,
    client: InternalClient,
    /** The kubelet's version, the server's (kubelets run the control plane's minor here). */
    private readonly kubeletVersion: string,
    delayMs = 20,
  ) {
    this.kubelet = client.as(kubeletIdentity(simulatedNode));
    this.scheduler = client.as(schedulerIdentity());
    this.queue = new WorkQueue(async (key) => {
      const [kind, namespace, name = ""] = key.split("|");
      if (kind === "node") await this.readyNode(name);
      else await this.reconcilePod(namespace || undefined, name);
      return false;
    }, delayMs);
  }

  /** The kubelet registers its node as the environment starts (nothing can refuse it yet). */
  static registerNode(client: InternalClient): void {
    client.as(kubeletIdentity(simulatedNode)).createSync(NODES, Simulator.node());
  }

  /** The node pods are bound to. */
  static node(): KubeObject {
    return {
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name: simulatedNode,
        labels: {
          "kubernetes.io/hostname": simulatedNode,
          "kubernetes.io/os": "linux",
          "kubernetes.io/arch": "amd64",
        },
      },
      spec: { podCIDR: "10.244.0.0/24" },
    };
  }

  start(): void {
    this.queue.start();
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
    if (this.store.get("/nodes", undefined, simulatedNode))
      this.queue.add(`node||${simulatedNode}`);
    for (const pod of this.store.list(podsBucket))
      this.queue.add(`pod|${pod.metadata?.namespace ?? ""}|${pod.metadata?.name ?? ""}`);
  }

  stop(): void {
    this.unsubscribe();
    this.queue.stop();
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type === "DELETED") return;
    const ns = ev.object.metadata?.namespace ?? "";
    const name = ev.object.metadata?.name ?? "";
    if (ev.bucket === podsBucket) this.queue.add(`pod|${ns}|${name}`);
    else if (ev.bucket === "/nodes" && name === simulatedNode) this.queue.add(`node||${name}`);
  }

  private async readyNode(name: string): Promise<void> {
    const node = this.store.get("/nodes", undefined, name);
    if (!node) return;
    const status = (node.status ?? {}) as JsonObject;
    if (Array.isArray(status.conditions) && status.conditions.length) return;
    const now = nowTime();
    await this.kubelet.changeStatus(NODES, node, () => ({
      capacity: { cpu: "8", memory: "32Gi", pods: "110" },
      allocatable: { cpu: "8", memory: "32Gi", pods: "110" },
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [
        { type: "InternalIP", address: "10.0.0.1" },
        { type: "Hostname", address: simulatedNode },
      ],
      nodeInfo: {
        kubeletVersion: this.kubeletVersion,
        operatingSystem: "linux",
        architecture: "amd64",
        containerRuntimeVersion: "envtest://simulated",
      },
    }));
  }

  private async reconcilePod(namespace: string | undefined, name: string): Promise<void> {
    let pod = this.store.get(podsBucket, namespace, name);
    if (!pod) return;
    if (pod.metadata?.deletionTimestamp) {
      // The kubelet stops the containers and deletes the pod for good once finalizers allow it.
      if ((pod.metadata.finalizers ?? []).length === 0) await this.removePod(pod);
      return;
    }
    const status = (pod.status ?? {}) as JsonObject;
    if (status.phase === "Running" && ownedByJob(pod)) return this.complete(pod);
    if (status.phase === "Running") return this.startEphemeral(pod);
    if (status.phase === "Succeeded" || status.phase === "Failed") return;
    if (!(pod.spec as JsonObject | undefined)?.nodeName) {
      pod = await this.bind(pod);
      if (!pod) return;
    }
    await this.run(pod);
  }

  /** The scheduler binds the pod to the node; returns the bound pod as stored. */
  private async bind(pod: KubeObject): Promise<KubeObject | undefined> {
    const key = { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? "" };
    await this.scheduler.createSubresource(PODS, key, "binding", {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: key.name, namespace: key.namespace },
      target: { apiVersion: "v1", kind: "Node", name: simulatedNode },
    });
    const bound = this.store.get(podsBucket, key.namespace, key.name);
    return bound?.metadata?.uid === pod.metadata?.uid ? bound : undefined;
  }

  /** The kubelet's final delete of a terminated pod (grace period 0, this pod's uid). */
  private async removePod(pod: KubeObject): Promise<void> {
    const key = { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? "" };
    try {
      await this.kubelet.delete(PODS, key, {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata?.uid ?? "" },
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  /** The kubelet starts a bound pod's containers: Running and Ready with an IP. */
  private async run(pod: KubeObject): Promise<void> {
    const status = (pod.status ?? {}) as JsonObject;
    const spec = (pod.spec ?? {}) as JsonObject;
    const now = nowTime();
    const containers = (spec.containers as JsonObject[] | undefined) ?? [];
    const ip = `10.244.0.${this.nextIp}`;
    this.nextIp = this.nextIp >= 254 ? 2 : this.nextIp + 1;
    await this.kubelet.changeStatus(PODS, pod, () => ({
      ...status,
      phase: "Running",
      hostIP: "10.0.0.1",
      hostIPs: [{ ip: "10.0.0.1" }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: now,
      qosClass: status.qosClass ?? "BestEffort",
      conditions: [
        "PodReadyToStartContainers",
        "Initialized",
        "Ready",
        "ContainersReady",
        "PodScheduled",
      ].map((type) => ({
        type,
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: now,
      })),
      containerStatuses: containers.map((ct) => ({
        name: ct.name,
        image: ct.image,
        imageID: `${String(ct.image)}@sha256:${"0".repeat(64)}`,
        containerID: `envtest://${String(ct.name)}`,
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
        lastState: {},
      })),
    }));
  }

  /**
   * The kubelet starts an ephemeral container added to a running pod and reports it, never
   * ready, under status.ephemeralContainerStatuses (what `kubectl debug` waits for).
   */
  private async startEphemeral(pod: KubeObject): Promise<void> {
    const spec = (pod.spec ?? {}) as JsonObject;
    const status = (pod.status ?? {}) as JsonObject;
    const reported = new Set(
      ((status.ephemeralContainerStatuses as JsonObject[] | undefined) ?? []).map((s) => s.name),
    );
    const added = ((spec.ephemeralContainers as JsonObject[] | undefined) ?? []).filter(
      (c) => !reported.has(c.name),
    );
    if (added.length === 0) return;
    const now = nowTime();
    await this.kubelet.changeStatus(PODS, pod, (current) => {
      const cs = current;
      cs.ephemeralContainerStatuses = [
        ...((cs.ephemeralContainerStatuses as JsonObject[] | undefined) ?? []),
        ...added.map((ct) => ({
          name: ct.name,
          image: ct.image,
          imageID: `${String(ct.image)}@sha256:${"0".repeat(64)}`,
          containerID: `envtest://${String(ct.name)}`,
          ready: false,
          restartCount: 0,
          state: { running: { startedAt: now } },
          lastState: {},
        })),
      ];
      return cs;
    });
  }

  /** A Job's pod runs to completion: its containers exit 0. */
  private async complete(pod: KubeObject): Promise<void> {
    const now = nowTime();
    await this.kubelet.changeStatus(PODS, pod, (current) => {
      const status = current;
      status.phase = "Succeeded";
      status.conditions = ((status.conditions as JsonObject[] | undefined) ?? []).map((cond) =>
        cond.type === "Ready" || cond.type === "ContainersReady"
          ? { ...cond, status: "False", reason: "PodCompleted", lastTransitionTime: now }
          : cond,
      );
      status.containerStatuses = ((status.containerStatuses as JsonObject[] | undefined) ?? []).map(
        (cs) => ({
          ...cs,
          ready: false,
          started: false,
          state: {
            terminated: { exitCode: 0, reason: "Completed", startedAt: now, finishedAt: now },
          },
        }),
      );
      return status;
    });
  }
}

function ownedByJob(pod: KubeObject): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((r) => r.controller && r.kind === "Job");
}
