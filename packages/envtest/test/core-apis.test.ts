/**
 * The rest of the 1.32 API a cluster serves: every GA resource with the verbs discovery lists,
 * pods/eviction honouring PodDisruptionBudgets (whose status the disruption controller keeps),
 * pod binding, LocalSubjectAccessReview, and the objects every cluster starts with.
 */
import { catalogFor } from "@opgen/apimachinery/catalog";
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
const pdbs = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";

describe("served APIs", () => {
  it("serves every GA resource of Kubernetes 1.32, with the verbs discovery lists", async () => {
    const served = new Set<string>();
    const groups = (await api(env, "GET", "/apis")).body.groups as {
      preferredVersion: { groupVersion: string };
    }[];
    for (const gv of ["v1", ...groups.map((g) => g.preferredVersion.groupVersion)]) {
      const list = (await api(env, "GET", gv === "v1" ? "/api/v1" : `/apis/${gv}`)).body;
      for (const r of list.resources)
        if (!r.name.includes("/"))
          served.add(`${gv.includes("/") ? gv.split("/")[0] : ""}/${r.name}`);
    }
    const ga = catalogFor("1.32")
      .builtinResources()
      .filter((r) => r.stability === "ga")
      .map((r) => `${r.group}/${r.plural}`);
    for (const r of ga) expect(served, r).toContain(r);

    const cs = await api(env, "DELETE", "/api/v1/componentstatuses/scheduler");
    expect(cs.status).toBe(405);
    expect(cs.body.message).toBe(
      'DELETE is not supported on resources of kind "componentstatuses"',
    );
    expect(
      (
        await kubectl(env, [
          "get",
          "componentstatuses",
          "scheduler",
          "-o",
          "jsonpath={.conditions[0].type}",
        ])
      ).stdout,
    ).toBe("Healthy");
    // The API data marks v1 ComponentStatus deprecated in 1.19: kube warns on each request.
    const cs2 = await kubectl(env, ["get", "cs"]);
    expect(cs2.stderr).toContain("Warning: v1 ComponentStatus is deprecated in v1.19+");
    expect(cs2.stdout).toMatch(/^NAME\s+STATUS\s+MESSAGE\s+ERROR\n/);
    expect((await kubectl(env, ["get", "configmaps", "-A"])).stderr).not.toContain("deprecated");
    const ingressClass = await kubectl(
      env,
      ["create", "-f", "-"],
      "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: k8s.io/ingress-nginx}\n",
    );
    expect(ingressClass.stdout).toBe("ingressclass.networking.k8s.io/nginx created");
  });

  it("starts with the system PriorityClasses", async () => {
    const r = await api(
      env,
      "GET",
      "/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical",
    );
    expect(r.body).toMatchObject({ value: 2000001000, preemptionPolicy: "PreemptLowerPriority" });
  });
});

describe("protobuf responses", () => {
  it("answers clients that accept only protobuf in protobuf, where the kind has a schema", async () => {
    await api(env, "POST", `${ns}/configmaps`, { metadata: { name: "pb" }, data: { a: "1" } });
    const pb = "application/vnd.kubernetes.protobuf";
    const r = await api(env, "GET", `${ns}/configmaps/pb`, undefined, { accept: pb });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe(pb);
    const { decodeProtobuf } = await import("../src/http/protobuf.js");
    expect(decodeProtobuf(catalogFor("1.32"), r.bytes)).toMatchObject({
      kind: "ConfigMap",
      metadata: { name: "pb" },
      data: { a: "1" },
    });
    const list = await api(env, "GET", `${ns}/configmaps`, undefined, { accept: pb });
    expect(decodeProtobuf(catalogFor("1.32"), list.bytes)).toMatchObject({ kind: "ConfigMapList" });
    // kube answers the first type the client lists: protobuf for client-go's protobuf clients,
    // JSON for a client that lists JSON first (protobuf-wire.test.ts has the full matrix).
    const both = await api(env, "GET", `${ns}/configmaps/pb`, undefined, {
      accept: `${pb}, application/json`,
    });
    expect(both.headers["content-type"]).toBe(pb);
    const jsonFirst = await api(env, "GET", `${ns}/configmaps/pb`, undefined, {
      accept: `application/json, ${pb}`,
    });
    expect(jsonFirst.headers["content-type"]).toBe("application/json");
  });
});

describe("catalog defaults", () => {
  it("applies the 1.32 +default values of nested types", async () => {
    const r = await api(env, "POST", `${ns}/pods`, {
      metadata: { name: "ceph" },
      spec: {
        containers: [{ name: "c", image: "busybox", ports: [{ containerPort: 80 }] }],
        volumes: [{ name: "data", rbd: { monitors: ["10.0.0.1:6789"], image: "img" } }],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.spec.volumes[0].rbd).toEqual({
      monitors: ["10.0.0.1:6789"],
      image: "img",
      pool: "rbd",
      user: "admin",
      keyring: "/etc/ceph/keyring",
    });
    expect(r.body.spec.containers[0].ports[0].protocol).toBe("TCP");
  });
});

describe("eviction", () => {
  const pod = (name: string, labels: Record<string, string>) => ({
    metadata: { name, labels },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  });
  const evict = (name: string) =>
    api(env, "POST", `${ns}/pods/${name}/eviction`, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name, namespace: "default" },
    });
  const ready = (name: string) =>
    eventually(async () => {
      const p = (await api(env, "GET", `${ns}/pods/${name}`)).body;
      expect(p.status.conditions).toContainEqual(
        expect.objectContaining({ type: "Ready", status: "True" }),
      );
    });

  it("deletes a pod no budget covers", async () => {
    await api(env, "POST", `${ns}/pods`, pod("free", { app: "free" }));
    await ready("free");
    const r = await evict("free");
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      code: 201,
    });
    const after = await api(env, "GET", `${ns}/pods/free`);
    expect(after.status === 404 || after.body.metadata.deletionTimestamp).toBeTruthy();
  });

  it("refuses with 429 when the budget allows no disruption, and records the ones it allows", async () => {
    for (const n of ["db-0", "db-1"]) {
      await api(env, "POST", `${ns}/pods`, pod(n, { app: "db" }));
      await ready(n);
    }
    await api(env, "POST", pdbs, {
      metadata: { name: "db" },
      spec: { minAvailable: 2, selector: { matchLabels: { app: "db" } } },
    });
    const status = await eventually(async () => {
      const s = (await api(env, "GET", `${pdbs}/db`)).body.status;
      expect(s.observedGeneration).toBe(1);
      return s;
    });
    expect(status).toMatchObject({
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
      disruptionsAllowed: 0,
    });
    expect(status.conditions[0]).toMatchObject({
      type: "DisruptionAllowed",
      status: "False",
      reason: "InsufficientPods",
    });

    const refused = await evict("db-0");
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      reason: "TooManyRequests",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          {
            reason: "DisruptionBudget",
            message: "The disruption budget db needs 2 healthy pods and has 2 currently",
          },
        ],
      },
    });
    const drain = await kubectl(env, [
      "drain",
      "envtest-node",
      "--pod-selector=app=db",
      "--force",
      "--timeout=2s",
    ]);
    expect(drain.code).not.toBe(0);
    expect(drain.stderr).toContain(
      "Cannot evict pod as it would violate the pod's disruption budget.",
    );
    await kubectl(env, ["uncordon", "envtest-node"]);

    await api(
      env,
      "PATCH",
      `${pdbs}/db`,
      { spec: { minAvailable: 1 } },
      { contentType: "application/merge-patch+json" },
    );
    await eventually(async () => {
      expect((await api(env, "GET", `${pdbs}/db`)).body.status).toMatchObject({
        observedGeneration: 2,
        disruptionsAllowed: 1,
      });
    });
    expect((await evict("db-0")).status).toBe(201);
    const after = (await api(env, "GET", `${pdbs}/db`)).body.status;
    expect(after.disruptionsAllowed).toBe(0);
    const second = await evict("db-1");
    expect(second.status).toBe(429);
  });

  it("refuses a pod under two budgets", async () => {
    await api(env, "POST", `${ns}/pods`, pod("twice", { app: "twice" }));
    await ready("twice");
    for (const n of ["twice-a", "twice-b"])
      await api(env, "POST", pdbs, {
        metadata: { name: n },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: "twice" } } },
      });
    const r = await evict("twice");
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      "Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
    );
  });
});

describe("binding and access reviews", () => {
  it("binds a pod to a node once", async () => {
    const env2 = await startTestEnv({});
    try {
      await api(env2, "POST", `${ns}/pods`, {
        metadata: { name: "p" },
        spec: { containers: [{ name: "c", image: "x" }] },
      });
      const bind = (node: string) =>
        api(env2, "POST", `${ns}/pods/p/binding`, {
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name: "p" },
          target: { kind: "Node", name: node },
        });
      expect((await bind("n1")).status).toBe(201);
      const p = (await api(env2, "GET", `${ns}/pods/p`)).body;
      expect(p.spec.nodeName).toBe("n1");
      expect(p.status.conditions).toContainEqual(
        expect.objectContaining({ type: "PodScheduled", status: "True" }),
      );
      const again = await bind("n2");
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(
        'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n1"',
      );
    } finally {
      await env2.stop();
    }
  });

  it("answers LocalSubjectAccessReview for its namespace only", async () => {
    const review = (namespace: string) =>
      api(
        env,
        "POST",
        "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
        {
          apiVersion: "authorization.k8s.io/v1",
          kind: "LocalSubjectAccessReview",
          spec: { user: "jane", resourceAttributes: { namespace, verb: "get", resource: "pods" } },
        },
      );
    const ok = await review("default");
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      kind: "LocalSubjectAccessReview",
      metadata: { namespace: "default" },
      status: { allowed: true },
    });
    const other = await review("kube-system");
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(
      "spec.resourceAttributes.namespace must match namespace: default",
    );
  });
});

describe("/metrics", () => {
  it("serves the request metrics in Prometheus text, to those allowed /metrics", async () => {
    await api(env, "GET", "/api/v1/namespaces/default/configmaps");
    await api(
      env,
      "PATCH",
      "/api/v1/namespaces/default/configmaps/applied?fieldManager=t",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\n",
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    const r = await api(env, "GET", "/metrics");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(r.text).toContain("# TYPE apiserver_request_total counter\n");
    expect(r.text).toMatch(
      /^apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"\} [1-9]\d*$/m,
    );
    expect(r.text).toMatch(
      /^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"\} 1$/m,
    );
    expect(r.text).toMatch(/^apiserver_request_duration_seconds_count\{.*verb="APPLY".*\} 1$/m);
    const jane = await api(env, "GET", "/metrics", undefined, { token: env.tokenFor("jane") });
    expect(jane.status).toBe(200); // no RBAC in this environment: everyone is allowed
  });
});
