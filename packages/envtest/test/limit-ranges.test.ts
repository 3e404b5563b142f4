/** LimitRanger admission and pod QoS classes, as kube-apiserver applies them to new pods. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "limited" } });
});
afterAll(async () => {
  await env?.stop();
});

const pods = "/api/v1/namespaces/limited/pods";
const pod = (name: string, resources?: object) => ({
  metadata: { name },
  spec: { containers: [{ name: "app", image: "nginx", ...(resources ? { resources } : {}) }] },
});

describe("QoS classes", () => {
  it("classifies pods by their requests and limits", async () => {
    expect((await api(env, "POST", pods, pod("best"))).body.status.qosClass).toBe("BestEffort");
    const guaranteed = await api(
      env,
      "POST",
      pods,
      pod("guaranteed", { limits: { cpu: "500m", memory: "128Mi" } }),
    );
    // A limit without a request requests the limit (SetDefaults_Pod).
    expect(guaranteed.body.spec.containers[0].resources.requests).toEqual({
      cpu: "500m",
      memory: "128Mi",
    });
    expect(guaranteed.body.status.qosClass).toBe("Guaranteed");
    const burst = await api(env, "POST", pods, pod("burst", { requests: { cpu: "0.1" } }));
    expect(burst.body.status.qosClass).toBe("Burstable");
  });
});

describe("LimitRanger", () => {
  it("defaults container resources from the namespace's LimitRange and records it", async () => {
    const lr = await api(env, "POST", "/api/v1/namespaces/limited/limitranges", {
      metadata: { name: "defaults" },
      spec: {
        limits: [
          { type: "Container", default: { cpu: "500m", memory: "256Mi" }, max: { cpu: "1" } },
        ],
      },
    });
    // SetDefaults_LimitRangeItem: the default request falls back to the default limit.
    expect(lr.body.spec.limits[0].defaultRequest).toEqual({ cpu: "500m", memory: "256Mi" });
    const r = await api(env, "POST", pods, pod("defaulted"));
    expect(r.status).toBe(201);
    expect(r.body.spec.containers[0].resources).toEqual({
      limits: { cpu: "500m", memory: "256Mi" },
      requests: { cpu: "500m", memory: "256Mi" },
    });
    expect(r.body.metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app",
    );
    expect(r.body.status.qosClass).toBe("Guaranteed");
    const big = await api(env, "POST", pods, pod("big", { limits: { cpu: "2" } }));
    expect(big.status).toBe(403);
    expect(big.body.message).toBe(
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
  });
});
