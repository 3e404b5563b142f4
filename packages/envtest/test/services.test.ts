/**
 * Services as a cluster runs them: node ports allocated and checked, and Endpoints and
 * EndpointSlices following the ready pods (simulate: true gives pods IPs and readiness).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
});

const ns = "/api/v1/namespaces/default";

describe("node ports", () => {
  it("allocates, keeps, checks and releases them", async () => {
    const created = await kubectl(env, ["create", "service", "nodeport", "np", "--tcp=80:8080"]);
    expect(created.stdout).toBe("service/np created");
    const svc = (await api(env, "GET", `${ns}/services/np`)).body;
    const port = svc.spec.ports[0].nodePort;
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(port).toBeLessThanOrEqual(32767);
    expect(svc.spec.externalTrafficPolicy).toBe("Cluster");
    const taken = await kubectl(env, [
      "create",
      "service",
      "nodeport",
      "np2",
      "--tcp=80:80",
      `--node-port=${port}`,
    ]);
    expect(taken.stderr).toBe(
      `error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`,
    );
    const range = await kubectl(env, [
      "create",
      "service",
      "nodeport",
      "np3",
      "--tcp=80:80",
      "--node-port=80",
    ]);
    expect(range.stderr).toContain(
      "spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767",
    );
    // A client-side apply that omits the node port keeps it.
    await kubectl(env, ["label", "service", "np", "tier=edge"]);
    expect((await api(env, "GET", `${ns}/services/np`)).body.spec.ports[0].nodePort).toBe(port);
    const cluster = await api(
      env,
      "PATCH",
      `${ns}/services/np`,
      { spec: { type: "ClusterIP" } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(cluster.status).toBe(200);
    expect(cluster.body.spec.ports[0]).not.toHaveProperty("nodePort");
    const lb = await api(env, "POST", `${ns}/services`, {
      metadata: { name: "lb" },
      spec: { type: "LoadBalancer", ports: [{ port: 443 }] },
    });
    expect(lb.body.spec).toMatchObject({
      allocateLoadBalancerNodePorts: true,
      externalTrafficPolicy: "Cluster",
    });
    expect(lb.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
  });
});

describe("endpoints", () => {
  it("lists a Service's ready pods in Endpoints and an EndpointSlice, following scale", async () => {
    await kubectl(env, [
      "create",
      "deployment",
      "web",
      "--image=nginx",
      "--replicas=2",
      "--port=80",
    ]);
    await kubectl(env, ["expose", "deployment", "web", "--port=8080", "--target-port=80"]);
    const ep = await eventually(async () => {
      const e = (await api(env, "GET", `${ns}/endpoints/web`)).body;
      expect(e.subsets?.[0]?.addresses).toHaveLength(2);
      return e;
    });
    expect(ep.subsets[0].ports).toEqual([{ port: 80, protocol: "TCP" }]);
    expect(ep.subsets[0].addresses[0]).toMatchObject({
      nodeName: "envtest-node",
      targetRef: { kind: "Pod", namespace: "default" },
    });
    const slices = (
      await api(
        env,
        "GET",
        "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb",
      )
    ).body.items;
    expect(slices).toHaveLength(1);
    expect(slices[0]).toMatchObject({
      addressType: "IPv4",
      ports: [{ name: "", port: 80, protocol: "TCP" }],
      metadata: {
        labels: { "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io" },
      },
    });
    expect(slices[0].endpoints).toHaveLength(2);
    expect(slices[0].metadata.ownerReferences[0]).toMatchObject({
      kind: "Service",
      name: "web",
      controller: true,
    });

    await kubectl(env, ["scale", "deployment", "web", "--replicas=1"]);
    await eventually(async () => {
      const e = (await api(env, "GET", `${ns}/endpoints/web`)).body;
      expect(e.subsets[0].addresses).toHaveLength(1);
    });
    const table = await kubectl(env, [
      "get",
      "endpointslices",
      "-l",
      "kubernetes.io/service-name=web",
    ]);
    expect(table.stdout.split("\n")[0]!.split(/\s{2,}/)).toEqual([
      "NAME",
      "ADDRESSTYPE",
      "PORTS",
      "ENDPOINTS",
      "AGE",
    ]);
    const kubernetes = (await api(env, "GET", `${ns}/endpoints/kubernetes`)).body;
    expect(kubernetes.subsets[0].ports).toEqual([{ name: "https", port: 6443, protocol: "TCP" }]);
    // The endpoint reconciler writes the apiserver's EndpointSlice too.
    const apiserverSlice = await kubectl(env, [
      "get",
      "endpointslices",
      "kubernetes",
      "--no-headers",
    ]);
    expect(apiserverSlice.stdout.split(/\s+/).slice(0, 4)).toEqual([
      "kubernetes",
      "IPv4",
      "6443",
      "127.0.0.1",
    ]);
  });
});
