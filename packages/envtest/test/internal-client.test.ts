/**
 * The internal client the server's components write through (client/api-client.ts): the same
 * admission driver as a request, the writer's identity and field manager, resourceVersion
 * preconditions, and client-go's bounded RetryOnConflict.
 */
import { isConflict } from "@opgen/apimachinery/status";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../src/api/types.js";
import { controllerIdentity, kubeletIdentity } from "../src/client/identities.js";
import { retryOnConflict } from "../src/client/retry.js";
import type { AdmissionPoint, WriteDriver } from "../src/rest/write-steps.js";
import { ApiServer } from "../src/server.js";

const CONFIGMAPS = { group: "", version: "v1", resource: "configmaps" };

/** A server whose admission driver records what it is asked (in place of webhooks). */
function recordingServer(): { server: ApiServer; points: AdmissionPoint[] } {
  const server = new ApiServer();
  const points: AdmissionPoint[] = [];
  const driver: WriteDriver = {
    mutate: async (p) => {
      points.push(p);
      return undefined;
    },
    // No ValidatingAdmissionPolicy here: the webhooks' points are what the tests read.
    policy: () => undefined,
    validate: async (p) => {
      points.push(p);
    },
    convert: async (p) => p.objects,
  };
  server.rest.driver = driver;
  return { server, points };
}

const configMap = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "default" },
  data: { a: "1" },
});

describe("the internal client", () => {
  it("writes through the request's admission as its identity, under its field manager", async () => {
    const { server, points } = recordingServer();
    const client = server.client.as(controllerIdentity("endpoint-controller"));
    const created = await client.create(CONFIGMAPS, configMap("cm"));
    const updated = await client.change(CONFIGMAPS, created, (c) => {
      c.data = { a: "2" };
    });
    expect(points.map((p) => [p.step, p.operation])).toEqual([
      ["mutate", "CREATE"],
      ["validate", "CREATE"],
      ["mutate", "UPDATE"],
      ["validate", "UPDATE"],
    ]);
    for (const p of points)
      expect(p.scope.user.name).toBe("system:serviceaccount:kube-system:endpoint-controller");
    expect(updated.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([
      ["kube-controller-manager", "Update"],
    ]);
    // Nothing to change: no admission call, no write.
    const again = await client.change(CONFIGMAPS, updated, () => {});
    expect(again).toBe(updated);
    expect(points).toHaveLength(4);
  });

  it("writes status through the status subresource", async () => {
    const { server, points } = recordingServer();
    const PODS = { group: "", version: "v1", resource: "pods" };
    const node = server.client.as(kubeletIdentity("n1"));
    const sa = server.client.as(controllerIdentity("service-account-controller"));
    await sa.create(
      { group: "", version: "v1", resource: "serviceaccounts" },
      {
        apiVersion: "v1",
        kind: "ServiceAccount",
        metadata: { name: "default", namespace: "default" },
      },
    );
    const pod = await server.client.as(controllerIdentity("replicaset-controller")).create(PODS, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "default" },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    });
    points.length = 0;
    const running = await node.changeStatus(PODS, pod, (s) => ({ ...s, phase: "Running" }));
    expect((running.status as { phase: string }).phase).toBe("Running");
    expect(points.map((p) => [p.operation, p.scope.subresource, p.scope.user.name])).toEqual([
      ["UPDATE", "status", "system:node:n1"],
      ["UPDATE", "status", "system:node:n1"],
    ]);
    expect(running.metadata?.managedFields?.map((m) => [m.manager, m.subresource])).toEqual([
      ["kube-controller-manager", undefined],
      ["kubelet", "status"],
    ]);
  });

  it("refuses a write from a stale read, which RetryOnConflict reads again, a bounded number of times", async () => {
    const { server } = recordingServer();
    const client = server.client.as(controllerIdentity("root-ca-cert-publisher"));
    const first = await client.create(CONFIGMAPS, configMap("raced"));
    await client.change(CONFIGMAPS, first, (c) => {
      c.data = { a: "other writer" };
    });
    const stale = client.change(CONFIGMAPS, first, (c) => {
      c.data = { a: "mine" };
    });
    await expect(stale).rejects.toSatisfy(isConflict);

    let attempts = 0;
    const written = await retryOnConflict(() => {
      attempts++;
      // The first attempt works from the stale read; the next reads what is stored.
      const current = attempts === 1 ? first : server.store.get("/configmaps", "default", "raced")!;
      return client.change(CONFIGMAPS, current, (c) => {
        c.data = { a: "mine" };
      });
    });
    expect(attempts).toBe(2);
    expect(written.data).toEqual({ a: "mine" });

    let tries = 0;
    const never = retryOnConflict(
      () => {
        tries++;
        return client.change(CONFIGMAPS, first, (c) => {
          c.data = { a: `try ${tries}` };
        });
      },
      { steps: 3, delayMs: 1 },
    );
    await expect(never).rejects.toSatisfy(isConflict);
    expect(tries).toBe(3);
  });
});
