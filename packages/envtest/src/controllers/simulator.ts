/**
 * `simulate: true`, the node side: what a scheduler and a kubelet would do, so tutorials and tests
 * see real outcomes without a cluster. A Ready node `envtest-node` exists; pods are bound to it
 * and become Running/Ready with a pod IP shortly after creation, and terminate promptly when
 * deleted; a Job's pods then run to completion (Succeeded); ephemeral containers added to a
 * running pod are reported running. No containers run. (The workload controllers are in
 * workloads.ts.)
 */
import { nowTime } from "../api/meta.js";
import type { JsonObject, KubeObject } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";
import { modify, remove } from "../store/writes.js";

export const simulatedNode = "envtest-node";
const podsBucket = "/pods";

export class Simulator {
  private unsubscribe: () => void = () => {};
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextIp = 2;

  constructor(
    private readonly store: Store,
    private readonly delayMs = 20,
  ) {}

  /** The node pods are bound to (created by the environment at start). */
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
    this.unsubscribe = this.store.subscribeAll((ev) => this.onEvent(ev));
    const node = this.store.get("/nodes", undefined, simulatedNode);
    if (node) this.later(() => this.readyNode(node.metadata?.name ?? ""));
    for (const pod of this.store.list(podsBucket))
      this.later(() => this.reconcilePod(pod.metadata?.namespace, pod.metadata?.name ?? ""));
  }

  stop(): void {
    this.unsubscribe();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, this.delayMs);
    this.timers.add(t);
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type === "DELETED") return;
    const ns = ev.object.metadata?.namespace;
    const name = ev.object.metadata?.name ?? "";
    if (ev.bucket === podsBucket) this.later(() => this.reconcilePod(ns, name));
    else if (ev.bucket === "/nodes" && name === simulatedNode)
      this.later(() => this.readyNode(name));
  }

  private readyNode(name: string): void {
    const node = this.store.get("/nodes", undefined, name);
    if (!node) return;
    const status = (node.status ?? {}) as JsonObject;
    if (Array.isArray(status.conditions) && status.conditions.length) return;
    const now = nowTime();
    modify(this.store, "/nodes", node, (c) => {
      c.status = {
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
          kubeletVersion: "v1.32.0",
          operatingSystem: "linux",
          architecture: "amd64",
          containerRuntimeVersion: "envtest://simulated",
        },
      };
    });
  }

  private reconcilePod(namespace: string | undefined, name: string): void {
    const pod = this.store.get(podsBucket, namespace, name);
    if (!pod) return;
    if (pod.metadata?.deletionTimestamp) {
      // The kubelet stops the containers and removes the pod once finalizers allow it.
      if ((pod.metadata.finalizers ?? []).length === 0) remove(this.store, podsBucket, pod);
      return;
    }
    const status = (pod.status ?? {}) as JsonObject;
    if (status.phase === "Running" && ownedByJob(pod)) {
      this.complete(pod);
      return;
    }
    if (status.phase === "Running") {
      this.startEphemeral(pod);
      return;
    }
    if (status.phase === "Succeeded" || status.phase === "Failed") return;
    const spec = (pod.spec ?? {}) as JsonObject;
    const now = nowTime();
    const containers = (spec.containers as JsonObject[] | undefined) ?? [];
    const ip = `10.244.0.${this.nextIp}`;
    this.nextIp = this.nextIp >= 254 ? 2 : this.nextIp + 1;
    modify(this.store, podsBucket, pod, (c) => {
      const cs = (c.spec ?? {}) as JsonObject;
      if (!cs.nodeName) cs.nodeName = simulatedNode;
      c.spec = cs;
      c.status = {
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
      };
    });
  }

  /**
   * The kubelet starts an ephemeral container added to a running pod and reports it, never
   * ready, under status.ephemeralContainerStatuses (what `kubectl debug` waits for).
   */
  private startEphemeral(pod: KubeObject): void {
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
    modify(this.store, podsBucket, pod, (c) => {
      const cs = (c.status ?? {}) as JsonObject;
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
      c.status = cs;
    });
  }

  /** A Job's pod runs to completion: its containers exit 0. */
  private complete(pod: KubeObject): void {
    const now = nowTime();
    modify(this.store, podsBucket, pod, (c) => {
      const status = (c.status ?? {}) as JsonObject;
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
      c.status = status;
    });
  }
}

function ownedByJob(pod: KubeObject): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((r) => r.controller && r.kind === "Job");
}
