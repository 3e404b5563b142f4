import { eventually, startTestEnv, type TestEnv } from "@opgen/envtest";
import { createManager, kinds, type Manager } from "@opgen/runtime";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AppClusterKind } from "../src/api/v1/appcluster.types.js";
import { setupAppClusterController } from "../src/controllers/appcluster.controller.js";

// The tutorial's checks, on an embedded API server with garbage collection (as in a real cluster).
let env: TestEnv;
let mgr: Manager;
const stop = new AbortController();
let running: Promise<void>;
const key = { namespace: "default", name: "tutorial" };

beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: ["config/crd/bases"] });
  mgr = createManager({
    kubeconfig: env.kubeconfig,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
  });
  setupAppClusterController(mgr);
  running = mgr.start(stop.signal);
});

afterAll(async () => {
  stop.abort();
  await running;
  await env?.stop();
});

const podsOf = (name: string) =>
  mgr.client.list(kinds.Pod, {
    namespace: "default",
    labelSelector: { app: name },
    uncached: true,
  } as never);

it("rejects a negative size (the @validation Minimum=0 marker)", async () => {
  await expect(
    mgr.client.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { namespace: "default", name: "negative" },
      spec: { size: -1 },
    }),
  ).rejects.toThrow(
    /spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0/,
  );
});

it("runs spec.size pods, heals, resizes and reports status.ready", async () => {
  await mgr.client.create({
    apiVersion: "demo.my.domain/v1",
    kind: "AppCluster",
    metadata: key,
    spec: { size: 2 },
  });
  await eventually(async () => {
    expect(await podsOf("tutorial")).toHaveLength(2);
    expect((await mgr.client.get(AppClusterKind, key)).status?.ready).toBe(2);
  });

  // Self-healing: delete a pod and the owner's reconcile replaces it.
  const [victim] = await podsOf("tutorial");
  await mgr.client.delete(victim!);
  await eventually(async () => {
    const pods = await podsOf("tutorial");
    expect(pods).toHaveLength(2);
    expect(pods.map((p) => p.metadata?.name)).not.toContain(victim!.metadata?.name);
  });

  // Scale down.
  const cluster = await mgr.client.get(AppClusterKind, key);
  cluster.spec.size = 1;
  await mgr.client.update(cluster);
  await eventually(async () => {
    expect(await podsOf("tutorial")).toHaveLength(1);
    expect((await mgr.client.get(AppClusterKind, key)).status?.ready).toBe(1);
  });
});

it("garbage-collects the pods with their AppCluster", async () => {
  await mgr.client.delete(AppClusterKind, key);
  await eventually(async () => {
    expect(await podsOf("tutorial")).toHaveLength(0);
  });
});
