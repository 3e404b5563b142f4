/**
 * The second client: @kubernetes/client-node 1.4 against envtest, for what the parity issue
 * names: server-side apply of built-ins (defaulted list keys, no-op re-apply), watch, and
 * identity (impersonation under RBAC, SelfSubjectReview, TokenRequest tokens, eviction).
 */
import {
  AuthenticationV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  type V1Deployment,
  Watch,
} from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ auth: "rbac" });
});
afterAll(async () => {
  await env?.stop();
});

const deployment = (image: string, port: Record<string, unknown>): V1Deployment => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "default" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "app", image, ports: [port as never] }] },
    },
  },
});

/** A kubeconfig for the same server with another user block (token or impersonation). */
function kubeconfigWith(user: { token?: string; impersonate?: string }): KubeConfig {
  const kc = new KubeConfig();
  const cluster = env.kubeconfig.getCurrentCluster()!;
  kc.loadFromOptions({
    clusters: [cluster],
    users: [
      {
        name: "u",
        token: user.token ?? env.adminToken,
        ...(user.impersonate ? { impersonateUser: user.impersonate } : {}),
      },
    ],
    contexts: [{ name: "c", cluster: cluster.name, user: "u" }],
    currentContext: "c",
  });
  return kc;
}

describe("server-side apply through client-node", () => {
  it("keys container ports by their defaulted protocol and re-applies without a change", async () => {
    const objects = KubernetesObjectApi.makeApiClient(env.kubeconfig);
    const apply = (d: V1Deployment) =>
      objects.patch(
        d,
        undefined,
        undefined,
        "operator",
        true,
        PatchStrategy.ServerSideApply,
      ) as Promise<V1Deployment>;
    const first = await apply(deployment("nginx:1", { containerPort: 80 }));
    const same = await apply(deployment("nginx:1", { containerPort: 80 }));
    expect(same.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    // Naming the default protocol keys the same port (no second item); the applier now owns
    // f:protocol too, and a change of ownership alone is stored, as kube stores it.
    const explicit = await apply(deployment("nginx:1", { containerPort: 80, protocol: "TCP" }));
    expect(explicit.spec?.template.spec?.containers[0]?.ports).toEqual([
      { containerPort: 80, protocol: "TCP" },
    ]);
    expect(JSON.stringify(explicit.metadata?.managedFields)).toContain('"f:protocol":{}');
    const again = await apply(deployment("nginx:1", { containerPort: 80, protocol: "TCP" }));
    expect(again.metadata?.resourceVersion).toBe(explicit.metadata?.resourceVersion);
    const changed = await apply(deployment("nginx:2", { containerPort: 80 }));
    expect(changed.metadata?.generation).toBe(2);
    const conflict = await objects
      .patch(
        deployment("nginx:3", { containerPort: 80 }),
        undefined,
        undefined,
        "someone-else",
        false,
        PatchStrategy.ServerSideApply,
      )
      .catch((e) => e);
    expect(conflict.code).toBe(409);
    expect(JSON.parse(conflict.body).message).toBe(
      'Apply failed with 1 conflict: conflict with "operator": .spec.template.spec.containers[name="app"].image',
    );
  });
});

describe("watch through client-node", () => {
  it("streams ADDED, MODIFIED and DELETED from a resourceVersion", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    const start = (await core.listNamespacedConfigMap({ namespace: "default" })).metadata
      ?.resourceVersion;
    const seen: string[] = [];
    const watch = new Watch(env.kubeconfig);
    const req = await watch.watch(
      "/api/v1/namespaces/default/configmaps",
      { resourceVersion: start, allowWatchBookmarks: true },
      (type, obj) => {
        if (type !== "BOOKMARK") seen.push(`${type} ${obj.metadata.name}`);
      },
      () => {},
    );
    await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: "w" }, data: { a: "1" } },
    });
    await core.patchNamespacedConfigMap({
      namespace: "default",
      name: "w",
      body: [{ op: "add", path: "/data/b", value: "2" }],
    });
    await core.deleteNamespacedConfigMap({ namespace: "default", name: "w" });
    await eventually(() => expect(seen).toEqual(["ADDED w", "MODIFIED w", "DELETED w"]));
    req.abort();
  });
});

describe("identity through client-node", () => {
  it("impersonates under RBAC, says who is asking, and accepts TokenRequest tokens", async () => {
    const asJane = kubeconfigWith({ impersonate: "jane" });
    const who = await asJane.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({
      body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
    });
    expect(who.status?.userInfo).toEqual({ username: "jane", groups: ["system:authenticated"] });
    const denied = await asJane
      .makeApiClient(CoreV1Api)
      .listNamespacedPod({ namespace: "default" })
      .catch((e) => e);
    expect(denied.code).toBe(403);
    expect(JSON.parse(denied.body).message).toBe(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    );

    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({
      namespace: "default",
      body: { metadata: { name: "robot" } },
    });
    const tr = await core.createNamespacedServiceAccountToken({
      namespace: "default",
      name: "robot",
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { audiences: [] },
      },
    });
    const robot = kubeconfigWith({ token: tr.status?.token ?? "" });
    const me = await robot.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({
      body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
    });
    expect(me.status?.userInfo?.username).toBe("system:serviceaccount:default:robot");
    const noImpersonation = await kubeconfigWith({
      token: tr.status?.token ?? "",
      impersonate: "jane",
    })
      .makeApiClient(CoreV1Api)
      .listNamespace()
      .catch((e) => e);
    expect(noImpersonation.code).toBe(403);
    expect(JSON.parse(noImpersonation.body).message).toBe(
      'users "jane" is forbidden: User "system:serviceaccount:default:robot" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it("evicts a pod through the eviction subresource", async () => {
    const core = env.kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "evictee" },
        spec: { containers: [{ name: "c", image: "busybox" }] },
      },
    });
    await core.createNamespacedPodEviction({
      namespace: "default",
      name: "evictee",
      body: {
        apiVersion: "policy/v1",
        kind: "Eviction",
        metadata: { name: "evictee", namespace: "default" },
      },
    });
    const gone = await core
      .readNamespacedPod({ namespace: "default", name: "evictee" })
      .catch((e) => e);
    expect(gone.code).toBe(404);
  });
});
