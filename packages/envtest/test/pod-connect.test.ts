/**
 * The pod connect subresources (`pods/log`, `exec`, `attach`, `portforward`) through the real
 * kubectl 1.32 and raw requests: kube's answers up to the kubelet envtest does not run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { parseRFC3339 } from "../src/registry/core/pod-connect-options.js";
import { api, kubectl } from "./helpers.js";

const rbac = "/apis/rbac.authorization.k8s.io/v1";
const pods = "/api/v1/namespaces/default/pods";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ auth: "rbac" });
  const pod = (name: string, spec: object) => api(env, "POST", pods, { metadata: { name }, spec });
  await pod("solo", { containers: [{ name: "app", image: "busybox" }] });
  await pod("multi", {
    initContainers: [{ name: "setup", image: "busybox" }],
    containers: [
      { name: "app", image: "busybox" },
      { name: "side", image: "busybox" },
    ],
  });
  // Scheduled onto nodes: one that does not exist, one without addresses, one with a kubelet port.
  for (const [name, node] of [
    ["lost", "missing"],
    ["bare", "bare"],
    ["placed", "n1"],
  ])
    await pod(name, { nodeName: node, containers: [{ name: "app", image: "busybox" }] });
  await api(env, "POST", "/api/v1/nodes", { metadata: { name: "bare" } });
  await api(env, "POST", "/api/v1/nodes", { metadata: { name: "n1" } });
  const status = await api(
    env,
    "PATCH",
    "/api/v1/nodes/n1/status",
    {
      status: {
        addresses: [{ type: "InternalIP", address: "10.0.0.7" }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10255 } },
      },
    },
    { contentType: "application/merge-patch+json" },
  );
  expect(status.status).toBe(200);
  await api(
    env,
    "PATCH",
    `${pods}/placed/status`,
    { status: { phase: "Running" } },
    {
      contentType: "application/merge-patch+json",
    },
  );
  await api(env, "POST", `${rbac}/namespaces/default/roles`, {
    metadata: { name: "pod-reader" },
    rules: [{ apiGroups: [""], resources: ["pods", "pods/exec"], verbs: ["get"] }],
  });
  await api(env, "POST", `${rbac}/namespaces/default/rolebindings`, {
    metadata: { name: "bob-reads-pods" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
    subjects: [{ kind: "User", name: "bob", apiGroup: "rbac.authorization.k8s.io" }],
  });
});
afterAll(async () => {
  await env?.stop();
});

describe("discovery", () => {
  it("lists the connect subresources with the verbs kube 1.32 lists", async () => {
    const r = await api(env, "GET", "/api/v1");
    const subs = Object.fromEntries(
      (r.body.resources as { name: string; kind: string; verbs: string[] }[])
        .filter((x) => x.name.startsWith("pods/"))
        .map((x) => [x.name, `${x.kind} ${x.verbs.join(",")}`]),
    );
    expect(subs).toMatchObject({
      "pods/attach": "PodAttachOptions create,get",
      "pods/exec": "PodExecOptions create,get",
      "pods/log": "Pod get",
      "pods/portforward": "PodPortForwardOptions create,get",
    });
  });
});

describe("pods/log", () => {
  it("answers 204 with no body for a pod no scheduler placed; kubectl logs prints nothing", async () => {
    const r = await api(env, "GET", `${pods}/solo/log`, undefined, { accept: "text/plain" });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    const logs = await kubectl(env, ["logs", "solo"]);
    expect(logs).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const side = await kubectl(env, ["logs", "multi", "-c", "side"]);
    expect(side).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("needs a container name when the pod has several, listing init containers too", async () => {
    const r = await api(env, "GET", `${pods}/multi/log`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      reason: "BadRequest",
      message: "a container name must be specified for pod multi, choose one of: [setup app side]",
    });
    const bad = await api(env, "GET", `${pods}/multi/log?container=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("container nope is not valid for pod multi");
    const init = await api(env, "GET", `${pods}/multi/log?container=setup`);
    expect(init.status).toBe(204);
  });

  it("validates PodLogOptions as kube does, before reading the pod", async () => {
    const get = async (query: string, name = "solo") =>
      (await api(env, "GET", `${pods}/${name}/log?${query}`)).body;
    expect(await get("tailLines=-1", "ghost")).toMatchObject({
      code: 422,
      reason: "Invalid",
      message:
        'PodLogOptions "ghost" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
      details: { name: "ghost", kind: "PodLogOptions" },
    });
    expect((await get("limitBytes=0")).message).toBe(
      'PodLogOptions "solo" is invalid: limitBytes: Invalid value: 0: must be greater than 0',
    );
    expect((await get("sinceSeconds=0")).message).toBe(
      'PodLogOptions "solo" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0',
    );
    expect((await get("sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z&tailLines=-2")).message).toBe(
      'PodLogOptions "solo" is invalid: [tailLines: Invalid value: -2: must be greater than or equal to 0, : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified]',
    );
  });

  it("refuses options the parameter codec cannot convert with a 400", async () => {
    const get = async (query: string) => (await api(env, "GET", `${pods}/solo/log?${query}`)).body;
    expect(await get("tailLines=ten")).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: 'strconv.ParseInt: parsing "ten": invalid syntax',
    });
    expect((await get("limitBytes=99999999999999999999")).message).toBe(
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expect((await get("sinceTime=yesterday")).message).toBe(
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
    expect((await get("sinceTime=2024-13-01T00:00:00Z")).message).toBe(
      'parsing time "2024-13-01T00:00:00Z": month out of range',
    );
    expect((await get("sinceTime=2024-01-01 00:00:00Z")).message).toBe(
      'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"',
    );
    // Booleans are lenient (anything but "0"/"false" is true) and a valid sinceTime passes.
    const ok = await api(
      env,
      "GET",
      `${pods}/solo/log?follow=yes&sinceTime=2024-01-01T10:00:00%2B02:00`,
    );
    expect(ok.status).toBe(204);
  });

  it("answers 404 for a missing pod or node, 500 for a node without addresses or kubelet", async () => {
    expect((await api(env, "GET", `${pods}/ghost/log`)).body).toMatchObject({
      code: 404,
      reason: "NotFound",
      message: 'pods "ghost" not found',
    });
    expect(await kubectl(env, ["logs", "lost"])).toMatchObject({
      code: 1,
      stderr: 'Error from server (NotFound): nodes "missing" not found',
    });
    const bare = await api(env, "GET", `${pods}/bare/log`);
    expect(bare.status).toBe(500);
    expect(bare.body.reason).toBeUndefined();
    expect(bare.body.message).toBe("no preferred addresses found; known addresses: []");
    const placed = await kubectl(env, ["logs", "placed", "--tail=3", "--timestamps"]);
    expect(placed.code).toBe(1);
    expect(placed.stderr).toBe(
      'Error from server: Get "https://10.0.0.7:10255/containerLogs/default/placed/app?tailLines=3&timestamps=true": envtest runs no kubelet to answer it',
    );
  });
});

describe("pods/exec, attach and portforward", () => {
  it("refuses kubectl exec and attach on a pod with no host, with kube's 400", async () => {
    const exec = await kubectl(env, ["exec", "solo", "--", "ls"]);
    expect(exec).toMatchObject({
      code: 1,
      stderr: "Error from server (BadRequest): pod solo does not have a host assigned",
    });
    const attach = await kubectl(env, ["attach", "solo"]);
    expect(attach.code).toBe(1);
    expect(attach.stderr).toContain(
      "Error from server (BadRequest): pod solo does not have a host assigned",
    );
    const container = await kubectl(env, ["exec", "multi", "-c", "nope", "--", "ls"]);
    expect(container.stderr).toBe(
      "Error from server (BadRequest): container nope is not valid for pod multi",
    );
  });

  it("locates the kubelet as kube does and answers the failed dial before any upgrade", async () => {
    expect((await kubectl(env, ["exec", "lost", "--", "ls"])).stderr).toBe(
      'Error from server (NotFound): nodes "missing" not found',
    );
    expect((await kubectl(env, ["exec", "bare", "--", "ls"])).stderr).toBe(
      "Error from server: no preferred addresses found; known addresses: []",
    );
    expect((await kubectl(env, ["exec", "placed", "--", "ls"])).stderr).toBe(
      "Error from server: error dialing backend: envtest runs no kubelet to dial at 10.0.0.7:10255",
    );
    const pf = await kubectl(env, ["port-forward", "placed", "18080:80"]);
    expect(pf.code).toBe(1);
    expect(pf.stderr).toContain(
      "error upgrading connection: error dialing backend: envtest runs no kubelet to dial at 10.0.0.7:10255",
    );
    // kubectl itself refuses to forward to a pod that is not Running.
    expect((await kubectl(env, ["port-forward", "lost", "18080:80"])).stderr).toContain(
      "unable to forward port because pod is not running. Current status=Pending",
    );
  });

  it("checks the connect options and method as the connect handler does", async () => {
    const plain = await api(env, "POST", `${pods}/placed/exec?command=ls&stdout=1`);
    expect(plain.body).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: "Upgrade request required",
    });
    const upgrade = { headers: { Connection: "Upgrade", Upgrade: "SPDY/3.1" } };
    const spdy = await api(env, "POST", `${pods}/placed/attach?stdout=1`, undefined, upgrade);
    expect(spdy.status).toBe(500);
    const dryRun = await api(env, "POST", `${pods}/placed/exec?command=ls&dryRun=All`);
    expect(dryRun.body.message).toBe("dryRun is not supported");
    const ports = await api(env, "POST", `${pods}/placed/portforward?ports=80,http`);
    expect(ports.body.message).toBe(
      'cannot convert to []int32: strconv.ParseUint: parsing "http": invalid syntax',
    );
    const tooBig = await api(env, "GET", `${pods}/placed/portforward?ports=70000`);
    expect(tooBig.body.message).toBe(
      'cannot convert to []int32: strconv.ParseUint: parsing "70000": value out of range',
    );
    expect((await api(env, "PUT", `${pods}/placed/exec`, {})).status).toBe(405);
    expect((await api(env, "GET", `${pods}/ghost/exec?command=ls`)).body.message).toBe(
      'pods "ghost" not found',
    );
  });
});

describe("authorization", () => {
  it("authorizes pods/log as get and the WebSocket exec as get, as kube 1.32 does", async () => {
    const logs = await kubectl(env, ["logs", "solo", "--as", "bob"]);
    expect(logs.code).toBe(1);
    expect(logs.stderr).toBe(
      'Error from server (Forbidden): pods "solo" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "default"',
    );
    // 1.32 has no AuthorizePodWebsocketUpgradeCreatePermission (1.35): the WebSocket upgrade
    // (GET) is authorized as `get pods/exec` and meets the unscheduled pod ...
    const ws = await api(env, "GET", `${pods}/solo/exec?command=ls&stdout=true`, undefined, {
      headers: { "Impersonate-User": "bob", Connection: "Upgrade", Upgrade: "websocket" },
    });
    expect(ws.body.message).toBe("pod solo does not have a host assigned");
    // ... which kubectl takes for a failed upgrade: it falls back to SPDY, a POST, a `create`.
    const exec = await kubectl(env, ["exec", "solo", "--as", "bob", "--", "ls"]);
    expect(exec.stderr).toBe(
      'Error from server (Forbidden): pods "solo" is forbidden: User "bob" cannot create resource "pods/exec" in API group "" in the namespace "default"',
    );
  });
});

describe("with simulate", () => {
  it("locates the simulated node's kubelet by its Hostname address, which no kubelet serves", async () => {
    const sim = await startTestEnv({ simulate: true });
    try {
      await kubectl(sim, ["run", "web", "--image=nginx"]);
      const wait = await kubectl(sim, [
        "wait",
        "pod/web",
        "--for=condition=Ready",
        "--timeout=20s",
      ]);
      expect(wait.code).toBe(0);
      const logs = await kubectl(sim, ["logs", "web"]);
      expect(logs.stderr).toBe(
        'Error from server: Get "https://envtest-node:10250/containerLogs/default/web/web": envtest runs no kubelet to answer it',
      );
    } finally {
      await sim.stop();
    }
  });
});

describe("sinceTime as Go's time.Parse(RFC3339) reads it", () => {
  const message = (v: string) => {
    try {
      return parseRFC3339(v);
    } catch (e) {
      return (e as Error).message;
    }
  };
  it("normalizes offsets and fractions to UTC seconds, and empty or null to the zero time", () => {
    expect(message("2024-01-01T10:00:00+02:00")).toBe("2024-01-01T08:00:00Z");
    expect(message("2024-01-01T00:00:00.123456Z")).toBe("2024-01-01T00:00:00Z");
    expect(message("")).toBe("0001-01-01T00:00:00Z");
    expect(message("null")).toBe("0001-01-01T00:00:00Z");
  });
  it("words failures as Go does", () => {
    expect(message("2024-01-01T00:00:00")).toBe(
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    );
    expect(message("2024-02-30T00:00:00Z")).toBe(
      'parsing time "2024-02-30T00:00:00Z": day out of range',
    );
    expect(message("2024-01-01T25:00:00Z")).toBe(
      'parsing time "2024-01-01T25:00:00Z": hour out of range',
    );
    expect(message("2024-01-01T00:00:00Zjunk")).toBe(
      'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"',
    );
  });
});
