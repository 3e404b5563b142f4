/**
 * `pods/<name>/ephemeralcontainers` as kube-apiserver 1.32 serves it, through the real kubectl
 * 1.32 (`kubectl debug`) and raw requests: only spec.ephemeralContainers changes, existing ones
 * stay, static pods take none, the new containers are validated with kube's paths and messages,
 * and a pod may not be created with any.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const rbac = "/apis/rbac.authorization.k8s.io/v1";
const pods = "/api/v1/namespaces/default/pods";
const merge = { contentType: "application/merge-patch+json" };
const strategic = { contentType: "application/strategic-merge-patch+json" };

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ auth: "rbac" });
  await api(env, "POST", `${rbac}/namespaces/default/roles`, {
    metadata: { name: "debugger" },
    rules: [
      { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods/ephemeralcontainers"], verbs: ["patch"] },
    ],
  });
  await api(env, "POST", `${rbac}/namespaces/default/rolebindings`, {
    metadata: { name: "alice-debugs" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "debugger" },
    subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }],
  });
  await api(env, "POST", `${rbac}/namespaces/default/roles`, {
    metadata: { name: "pod-reader" },
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
  });
  await api(env, "POST", `${rbac}/namespaces/default/rolebindings`, {
    metadata: { name: "carol-reads" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
    subjects: [{ kind: "User", name: "carol", apiGroup: "rbac.authorization.k8s.io" }],
  });
});
afterAll(async () => {
  await env?.stop();
});

async function pod(name: string, extra: object = {}) {
  const r = await api(env, "POST", pods, {
    metadata: { name, labels: { app: name } },
    spec: {
      initContainers: [{ name: "init", image: "busybox" }],
      containers: [{ name: "app", image: "nginx:1.27" }],
      volumes: [{ name: "data", emptyDir: {} }],
      ...extra,
    },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const addDebugger = (name: string, container: object) =>
  api(
    env,
    "PATCH",
    `${pods}/${name}/ephemeralcontainers`,
    { spec: { ephemeralContainers: [{ name: "dbg", image: "busybox", ...container }] } },
    strategic,
  );

describe("discovery", () => {
  it("lists pods/ephemeralcontainers as kube 1.32 does", async () => {
    const r = await api(env, "GET", "/api/v1");
    const sub = (r.body.resources as { name: string }[]).find(
      (x) => x.name === "pods/ephemeralcontainers",
    );
    expect(sub).toEqual({
      name: "pods/ephemeralcontainers",
      singularName: "",
      namespaced: true,
      kind: "Pod",
      verbs: ["get", "patch", "update"],
    });
  });
});

describe("kubectl debug", () => {
  it("adds a defaulted ephemeral container, recorded under the subresource's managed fields", async () => {
    await pod("web");
    const debug = await kubectl(env, ["debug", "web", "--image=busybox", "--attach=false"]);
    expect(debug.code).toBe(0);
    const name = /Defaulting debug container name to (debugger-[a-z0-9]{5})\./.exec(
      debug.stdout,
    )?.[1];
    expect(name).toBeDefined();
    const shown = await kubectl(env, [
      "get",
      "pod",
      "web",
      "-o",
      "jsonpath={.spec.ephemeralContainers}",
    ]);
    expect(JSON.parse(shown.stdout)).toEqual([
      {
        image: "busybox",
        imagePullPolicy: "Always",
        name,
        resources: {},
        terminationMessagePath: "/dev/termination-log",
        terminationMessagePolicy: "File",
      },
    ]);
    const got = await api(env, "GET", `${pods}/web/ephemeralcontainers`);
    expect(got.body.kind).toBe("Pod");
    const entry = (got.body.metadata.managedFields as { subresource?: string }[]).find(
      (e) => e.subresource === "ephemeralcontainers",
    );
    expect(entry).toMatchObject({
      manager: "kubectl",
      operation: "Update",
      fieldsV1: { "f:spec": { "f:ephemeralContainers": { [`k:{"name":"${name}"}`]: {} } } },
    });
    // No kubelet reports it: the pod's status has no ephemeral container statuses.
    expect(got.body.status.ephemeralContainerStatuses).toBeUndefined();
  });

  it("refuses a target that names no container, and RBAC without patch on the subresource", async () => {
    await pod("target");
    const target = await kubectl(env, [
      "debug",
      "target",
      "--image=busybox",
      "--attach=false",
      "--target=nope",
      "-c",
      "dbg",
    ]);
    expect(target.code).toBe(1);
    expect(target.stderr).toContain(
      'The Pod "target" is invalid: spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
    );
    const ok = await kubectl(env, [
      "debug",
      "target",
      "--image=busybox",
      "--attach=false",
      "--target=app",
      "-c",
      "dbg",
      "--as",
      "alice",
    ]);
    expect(ok.code).toBe(0);
    const denied = await kubectl(env, [
      "debug",
      "target",
      "--image=busybox",
      "--attach=false",
      "--as",
      "carol",
    ]);
    expect(denied.code).toBe(1);
    expect(denied.stderr.split("\n").at(-1)).toBe(
      'Error from server (Forbidden): pods "target" is forbidden: User "carol" cannot patch resource "pods/ephemeralcontainers" in API group "" in the namespace "default"',
    );
    const raw = await api(
      env,
      "PUT",
      `${pods}/target/ephemeralcontainers`,
      {},
      {
        headers: { "Impersonate-User": "alice" },
      },
    );
    expect(raw.body.message).toBe(
      'pods "target" is forbidden: User "alice" cannot update resource "pods/ephemeralcontainers" in API group "" in the namespace "default"',
    );
  });
});

describe("the subresource's update", () => {
  it("keeps nothing of the request but spec.ephemeralContainers (PUT)", async () => {
    const created = await pod("put");
    const body = structuredClone(created);
    body.metadata.labels = { app: "changed" };
    body.metadata.annotations = { note: "dropped" };
    body.spec.containers[0].image = "nginx:2";
    body.spec.activeDeadlineSeconds = 5;
    body.status = { phase: "Running" };
    body.spec.ephemeralContainers = [{ name: "dbg", image: "busybox:1.36", stdin: true }];
    const r = await api(env, "PUT", `${pods}/put/ephemeralcontainers`, body);
    expect(r.status).toBe(200);
    expect(r.body.metadata.labels).toEqual({ app: "put" });
    expect(r.body.metadata.annotations).toBeUndefined();
    expect(r.body.spec.containers[0].image).toBe("nginx:1.27");
    expect(r.body.spec.activeDeadlineSeconds).toBeUndefined();
    expect(r.body.status.phase).toBe("Pending");
    expect(r.body.spec.ephemeralContainers).toEqual([
      {
        name: "dbg",
        image: "busybox:1.36",
        stdin: true,
        imagePullPolicy: "IfNotPresent",
        resources: {},
        terminationMessagePath: "/dev/termination-log",
        terminationMessagePolicy: "File",
      },
    ]);
    // A stale resourceVersion conflicts as on any update.
    const stale = await api(env, "PUT", `${pods}/put/ephemeralcontainers`, body);
    expect(stale.status).toBe(409);
  });

  it("refuses removing or changing an existing ephemeral container, by any patch type", async () => {
    await pod("keep");
    expect((await addDebugger("keep", {})).status).toBe(200);
    const removed = await api(
      env,
      "PATCH",
      `${pods}/keep/ephemeralcontainers`,
      [{ op: "remove", path: "/spec/ephemeralContainers/0" }],
      { contentType: "application/json-patch+json" },
    );
    expect(removed.status).toBe(422);
    expect(removed.body.message).toBe(
      'Pod "keep" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n',
    );
    const changed = await api(
      env,
      "PATCH",
      `${pods}/keep/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: "dbg", image: "alpine" }] } },
      merge,
    );
    expect(changed.body.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message: expect.stringMatching(
          /^Forbidden: existing ephemeral containers "dbg" may not be changed\n/,
        ),
        field: "spec.ephemeralContainers",
      },
    ]);
    // The same container sent back (false and empty lists as Go's zero values) is no change.
    const same = await api(
      env,
      "PATCH",
      `${pods}/keep/ephemeralcontainers`,
      {
        spec: { ephemeralContainers: [{ name: "dbg", image: "busybox", stdin: false, args: [] }] },
      },
      strategic,
    );
    expect(same.status).toBe(200);
    // The pod itself may not change its ephemeral containers.
    const direct = await api(
      env,
      "PATCH",
      `${pods}/keep`,
      { spec: { ephemeralContainers: [{ name: "other", image: "busybox" }] } },
      strategic,
    );
    expect(direct.status).toBe(422);
    expect(direct.body.message).toContain("pod updates may not change fields other than");
  });

  it("validates new ephemeral containers with kube's field paths and messages", async () => {
    await pod("invalid");
    const r = await addDebugger("invalid", {
      name: "init",
      ports: [{ containerPort: 80 }],
      resources: { limits: { cpu: "1" } },
      restartPolicy: "Always",
      readinessProbe: { exec: { command: ["true"] } },
      lifecycle: {},
      volumeMounts: [{ name: "data", mountPath: "/d", subPath: "x" }],
    });
    expect(r.status).toBe(422);
    const forbidden = "Forbidden: cannot be set for an Ephemeral Container";
    expect(
      (r.body.details.causes as { field: string; message: string }[]).map(
        (c) => `${c.field}: ${c.message}`,
      ),
    ).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "init"',
      `spec.ephemeralContainers[0].ports: ${forbidden}`,
      `spec.ephemeralContainers[0].resources: ${forbidden}`,
      `spec.ephemeralContainers[0].restartPolicy: ${forbidden}`,
      `spec.ephemeralContainers[0].readinessProbe: ${forbidden}`,
      `spec.ephemeralContainers[0].lifecycle: ${forbidden}`,
      `spec.ephemeralContainers[0].volumeMounts[0].subPath: ${forbidden}`,
    ]);
    const unnamed = await addDebugger("invalid", { name: "Bad_Name", image: "" });
    expect(unnamed.body.message).toBe(
      "Pod \"invalid\" is invalid: [spec.ephemeralContainers[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.ephemeralContainers[0].image: Required value]",
    );
  });

  it("refuses any ephemeral container on a static pod", async () => {
    await pod("mirror", { nodeName: "n1" });
    await api(
      env,
      "PATCH",
      `${pods}/mirror`,
      { metadata: { annotations: { "kubernetes.io/config.mirror": "abc" } } },
      merge,
    );
    const r = await kubectl(env, ["debug", "mirror", "--image=busybox", "--attach=false"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'The Pod "mirror" is invalid: []: Forbidden: static pods do not support ephemeral containers',
    );
    // That refusal is the whole answer, whatever else is wrong with the container.
    const invalid = await addDebugger("mirror", { ports: [{ containerPort: 80 }] });
    expect(invalid.body.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message: "Forbidden: static pods do not support ephemeral containers",
        field: "[]",
      },
    ]);
  });

  it("answers a missing pod with 404, also to server-side apply", async () => {
    const patched = await addDebugger("ghost", {});
    expect(patched.status).toBe(404);
    expect(patched.body.message).toBe('pods "ghost" not found');
    const applied = await api(
      env,
      "PATCH",
      `${pods}/ghost/ephemeralcontainers?fieldManager=tool`,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "ghost" },
        spec: { ephemeralContainers: [{ name: "dbg", image: "busybox" }] },
      }),
      { contentType: "application/apply-patch+yaml" },
    );
    expect(applied.status).toBe(404);
    expect((await api(env, "GET", `${pods}/ghost`)).status).toBe(404);
  });

  it("takes a server-side apply, owned by the manager under the subresource", async () => {
    await pod("ssa");
    const r = await api(
      env,
      "PATCH",
      `${pods}/ssa/ephemeralcontainers?fieldManager=tool`,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "ssa" },
        spec: { ephemeralContainers: [{ name: "dbg", image: "busybox" }] },
      }),
      { contentType: "application/apply-patch+yaml" },
    );
    expect(r.status).toBe(200);
    expect(r.body.spec.ephemeralContainers[0].name).toBe("dbg");
    expect(r.body.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: "tool",
        operation: "Apply",
        subresource: "ephemeralcontainers",
      }),
    );
  });
});

describe("pod security admission", () => {
  it("checks a new ephemeral container against the namespace's enforced level", async () => {
    await kubectl(env, ["create", "namespace", "locked"]);
    await kubectl(env, [
      "label",
      "namespace",
      "locked",
      "pod-security.kubernetes.io/enforce=baseline",
    ]);
    expect((await kubectl(env, ["run", "p", "-n", "locked", "--image=nginx"])).code).toBe(0);
    const debug = (profile: string, name: string) =>
      kubectl(env, [
        "debug",
        "p",
        "-n",
        "locked",
        "--image=busybox",
        "--attach=false",
        `--profile=${profile}`,
        "-c",
        name,
      ]);
    const privileged = await debug("sysadmin", "root");
    expect(privileged.stderr.split("\n").at(-1)).toBe(
      'Error from server (Forbidden): pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "root" must not set securityContext.privileged=true)',
    );
    expect((await debug("baseline", "plain")).code).toBe(0);
  });
});

describe("pod create", () => {
  it("refuses spec.ephemeralContainers as ValidatePodCreate does", async () => {
    const r = await api(env, "POST", pods, {
      metadata: { name: "born-with" },
      spec: {
        containers: [{ name: "app", image: "nginx" }],
        ephemeralContainers: [{ name: "dbg", image: "busybox" }],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Pod "born-with" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create',
    );
  });
});

describe("with simulate", () => {
  it("reports the container running, so kubectl debug -i reaches pods/attach, which no kubelet answers", async () => {
    const sim = await startTestEnv({ simulate: true });
    try {
      await kubectl(sim, ["run", "web", "--image=nginx"]);
      expect(
        (await kubectl(sim, ["wait", "pod/web", "--for=condition=Ready", "--timeout=20s"])).code,
      ).toBe(0);
      const debug = await kubectl(sim, ["debug", "web", "--image=busybox", "-i", "-c", "dbg"]);
      expect(debug.code).toBe(1);
      expect(debug.stderr).toContain(
        "warning: couldn't attach to pod/web, falling back to streaming logs: error dialing backend: envtest runs no kubelet to dial at envtest-node:10250",
      );
      const statuses = await kubectl(sim, [
        "get",
        "pod",
        "web",
        "-o",
        "jsonpath={.status.ephemeralContainerStatuses[0].state}",
      ]);
      expect(Object.keys(JSON.parse(statuses.stdout))).toEqual(["running"]);
    } finally {
      await sim.stop();
    }
  });
});
