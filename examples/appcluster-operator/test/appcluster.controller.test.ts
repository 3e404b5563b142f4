import { type V1Pod, Watch } from "@kubernetes/client-node";
import {
  eventually,
  type ServiceAccountIdentity,
  startTestEnv,
  type TestEnv,
} from "@opgen/envtest";
import { type Client, createClient, createManager, kinds } from "@opgen/runtime";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AppClusterKind } from "../src/api/v1/appcluster.types.js";
import { setupAppClusterController } from "../src/controllers/appcluster.controller.js";

// The tutorial's checks, on an embedded API server with garbage collection (as in a real cluster)
// and RBAC: the test acts as the admin, the manager as its ServiceAccount bound only to the role
// generated from the controller's @rbac markers, so the markers are proven sufficient.
let env: TestEnv;
let k8sClient: Client;
let operator: ServiceAccountIdentity;
const stop = new AbortController();
let running: Promise<void>;
const key = { namespace: "default", name: "tutorial" };

beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: ["config/crd/bases"], auth: "rbac" });
  k8sClient = createClient({ kubeconfig: env.kubeconfig });
  operator = await env.serviceAccount({
    namespace: "appcluster-operator-system",
    name: "appcluster-operator-controller-manager",
    roleFiles: ["config/rbac/role.yaml"],
  });
  const mgr = createManager({
    kubeconfig: operator.kubeconfig,
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
  expect(operator.forbiddenRequests, "requests the operator's role does not allow").toEqual([]);
});

const podsOf = (name: string) =>
  k8sClient.list(kinds.Pod, { namespace: "default", labelSelector: { app: name } });

it("rejects a negative size (the @validation Minimum=0 marker)", async () => {
  await expect(
    k8sClient.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { namespace: "default", name: "negative" },
      spec: { size: -1 },
    }),
  ).rejects.toThrow(
    /spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0/,
  );
});

/** Counts pod ADDED and DELETED events of an AppCluster on a watch of their own. */
async function podEvents(name: string) {
  const seen = { added: 0, deleted: 0 };
  const req = await new Watch(env.kubeconfig).watch(
    "/api/v1/namespaces/default/pods",
    { labelSelector: `app=${name}` },
    (type: string, _pod: V1Pod) => {
      if (type === "ADDED") seen.added++;
      if (type === "DELETED") seen.deleted++;
    },
    () => {},
  );
  return { seen, stop: () => req.abort() };
}

it("runs spec.size pods, heals, resizes and reports status.ready", async () => {
  const events = await podEvents("tutorial");
  await k8sClient.create({
    apiVersion: "demo.my.domain/v1",
    kind: "AppCluster",
    metadata: key,
    spec: { size: 2 },
  });
  // Each wait ends at once, with kube's message, if the operator is refused a request.
  await eventually(
    async () => {
      expect(await podsOf("tutorial")).toHaveLength(2);
      expect((await k8sClient.get(AppClusterKind, key)).status?.ready).toBe(2);
    },
    { signal: operator.forbidden },
  );
  // One pod per pass and requeue: the runtime holds each pass until its cache shows the pod the
  // pass before created, so scaling up creates exactly spec.size pods and deletes none.
  await eventually(() => expect(events.seen.added - events.seen.deleted).toBe(2));
  expect(events.seen).toEqual({ added: 2, deleted: 0 });
  events.stop();

  // Self-healing: delete a pod and the owner's reconcile replaces it.
  const [victim] = await podsOf("tutorial");
  await k8sClient.delete(victim!);
  await eventually(
    async () => {
      const pods = await podsOf("tutorial");
      expect(pods).toHaveLength(2);
      expect(pods.map((p) => p.metadata?.name)).not.toContain(victim!.metadata?.name);
    },
    { signal: operator.forbidden },
  );

  // Scale up: the watch starts with the 2 pods there are, then sees exactly 3 more and no delete.
  const up = await podEvents("tutorial");
  let cluster = await k8sClient.get(AppClusterKind, key);
  cluster.spec.size = 5;
  await k8sClient.update(cluster);
  await eventually(
    async () => {
      expect(await podsOf("tutorial")).toHaveLength(5);
      expect((await k8sClient.get(AppClusterKind, key)).status?.ready).toBe(5);
    },
    { signal: operator.forbidden },
  );
  await eventually(() => expect(up.seen.added - up.seen.deleted).toBe(5));
  expect(up.seen).toEqual({ added: 5, deleted: 0 });
  up.stop();

  // Scale down.
  cluster = await k8sClient.get(AppClusterKind, key);
  cluster.spec.size = 1;
  await k8sClient.update(cluster);
  await eventually(
    async () => {
      expect(await podsOf("tutorial")).toHaveLength(1);
      expect((await k8sClient.get(AppClusterKind, key)).status?.ready).toBe(1);
    },
    { signal: operator.forbidden },
  );
});

it("garbage-collects the pods with their AppCluster", async () => {
  await k8sClient.delete(AppClusterKind, key);
  await eventually(
    async () => {
      expect(await podsOf("tutorial")).toHaveLength(0);
    },
    { signal: operator.forbidden },
  );
});
