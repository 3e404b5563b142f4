import {
  eventually,
  type ServiceAccountIdentity,
  startTestEnv,
  type TestEnv,
  waitForWebhookServer,
} from "@opgen/envtest";
import { type Client, createClient, createManager, kinds, type ObjectMeta } from "@opgen/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppClusterKind } from "../../../src/api/v1/appcluster.types.js";
import { AppClusterV2Conversion } from "../../../src/api/v2/appcluster.conversion.js";
import { AppClusterKind as AppClusterV2Kind } from "../../../src/api/v2/appcluster.types.js";
import { setupAppClusterController } from "../../../src/controllers/appcluster.controller.js";
import { setupAppClusterWebhookWithManager } from "../../../src/webhooks/v1/appcluster.webhook.js";

// The embedded API server calls the operator's webhooks over HTTPS as kube-apiserver does: the
// configurations from config/webhook (`npm test` runs `opgen manifests` first) and the CRD's
// conversion patch from config/crd/patches. The controller runs too, as its ServiceAccount with
// the generated role (RBAC on), to see admitted objects reconciled; the test acts as the admin.
let env: TestEnv;
let k8sClient: Client;
let operator: ServiceAccountIdentity;
const stop = new AbortController();
let running: Promise<void> | undefined;

beforeAll(async () => {
  env = await startTestEnv({
    crdDirectoryPaths: ["config/crd/bases"],
    webhooks: { paths: ["config/webhook", "config/crd/patches"] },
    auth: "rbac",
  });
  k8sClient = createClient({ kubeconfig: env.kubeconfig });
  operator = await env.serviceAccount({
    namespace: "appcluster-operator-system",
    name: "appcluster-operator-controller-manager",
    roleFiles: ["config/rbac/role.yaml"],
  });
  const { host, port, certDir } = env.webhook!;
  const mgr = createManager({
    kubeconfig: operator.kubeconfig,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    webhookServer: { host, port, certDir },
  });
  setupAppClusterController(mgr);
  setupAppClusterWebhookWithManager(mgr);
  running = mgr.start(stop.signal);
  await waitForWebhookServer(env.webhook!);
});

afterAll(async () => {
  stop.abort();
  await running;
  await env?.stop();
  expect(operator.forbiddenRequests, "requests the operator's role does not allow").toEqual([]);
});

const key = (name: string) => ({ namespace: "default", name });
const v1 = (name: string, spec: { size?: number }, labels?: Record<string, string>) => ({
  apiVersion: "demo.my.domain/v1",
  kind: "AppCluster",
  metadata: { ...key(name), labels },
  spec,
});
const v2 = (name: string, spec: { replicas?: number }) => ({
  apiVersion: "demo.my.domain/v2",
  kind: "AppCluster",
  metadata: key(name) as ObjectMeta,
  spec,
});
const podsOf = (name: string) =>
  k8sClient.list(kinds.Pod, { namespace: "default", labelSelector: { app: name } });

describe("validating webhook", () => {
  it("denies a size above 10, naming spec.size, and stores nothing", async () => {
    await expect(k8sClient.create(v1("too-big", { size: 20 }))).rejects.toThrow(
      /AppCluster.demo.my.domain "too-big" is invalid: spec.size: Invalid value: 20: must be no more than 10/,
    );
    await expect(k8sClient.get(AppClusterKind, key("too-big"))).rejects.toThrow(/not found/);
  });

  it("admits a size of 10 and denies an update to 11", async () => {
    const created = await k8sClient.create(v1("at-limit", { size: 0 }));
    // Merge patches: the controller writes the status meanwhile, so an update could conflict.
    const ten = await k8sClient.patch(created, { spec: { size: 10 } });
    expect(ten.spec.size).toBe(10);
    await expect(k8sClient.patch(ten, { spec: { size: 11 } })).rejects.toThrow(
      /spec.size: Invalid value: 11/,
    );
    expect((await k8sClient.get(AppClusterKind, key("at-limit"))).spec.size).toBe(10);
    await k8sClient.delete(AppClusterKind, key("at-limit"));
  });

  it("checks v2 objects too, through their conversion to v1", async () => {
    await expect(k8sClient.create(v2("too-many-replicas", { replicas: 20 }))).rejects.toThrow(
      /spec.size: Invalid value: 20/,
    );
  });
});

describe("defaulting webhook", () => {
  it("labels a size-2 AppCluster tier: web, and the controller reconciles it", async () => {
    const created = await k8sClient.create(v1("web", { size: 2 }));
    expect(created.metadata?.labels).toEqual({ tier: "web" });
    await eventually(
      async () => {
        expect(await podsOf("web")).toHaveLength(2);
        expect((await k8sClient.get(AppClusterKind, key("web"))).status?.ready).toBe(2);
      },
      { signal: operator.forbidden },
    );
  });

  it("keeps a tier that is already set", async () => {
    const created = await k8sClient.create(v1("batch", { size: 0 }, { tier: "batch", x: "y" }));
    expect(created.metadata?.labels).toEqual({ tier: "batch", x: "y" });
  });
});

describe("conversion webhook (v1 is the hub and the stored version)", () => {
  it("reads a v2 object with replicas: 3 as v1 size: 3, and reconciles it", async () => {
    const created = await k8sClient.create(v2("from-v2", { replicas: 3 }));
    expect(created.apiVersion).toBe("demo.my.domain/v2");
    expect(created.spec).toEqual({ replicas: 3 });
    expect(created.metadata?.labels).toEqual({ tier: "web" });
    const hub = await k8sClient.get(AppClusterKind, key("from-v2"));
    expect(hub.apiVersion).toBe("demo.my.domain/v1");
    expect(hub.spec).toEqual({ size: 3 });
    await eventually(
      async () => {
        expect(await podsOf("from-v2")).toHaveLength(3);
      },
      { signal: operator.forbidden },
    );
  });

  it("reads a v1 object as v2, and writes v2 changes back to v1", async () => {
    await k8sClient.create(v1("from-v1", { size: 4 }));
    const spoke = await k8sClient.get(AppClusterV2Kind, key("from-v1"));
    expect(spoke.apiVersion).toBe("demo.my.domain/v2");
    expect(spoke.spec).toEqual({ replicas: 4 });
    const patched = await k8sClient.patch(spoke, { spec: { replicas: 1 } });
    expect(patched.spec).toEqual({ replicas: 1 });
    expect((await k8sClient.get(AppClusterKind, key("from-v1"))).spec).toEqual({ size: 1 });
  });

  it("round-trips unset fields as unset", () => {
    const hub = AppClusterV2Conversion.toHub(v2("empty", {}));
    expect(hub.spec).toEqual({});
    expect(AppClusterV2Conversion.fromHub(hub)).toEqual({ ...v2("empty", {}), status: undefined });
  });
});
