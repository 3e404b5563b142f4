/**
 * Simulated workload controllers whose creates are refused (here by a ResourceQuota) report it as
 * kube-controller-manager does: Warning FailedCreate events on the owner, the ReplicaSet's and
 * the Deployment's ReplicaFailure condition, and retries that succeed once the quota allows.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, mintServingCertificate, startTestEnv, type TestEnv } from "../src/index.js";
import { kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
  hooks?.closeAllConnections();
  await new Promise((r) => hooks?.close(r) ?? r(undefined));
});

let hooks: Server | undefined;
// biome-ignore lint/suspicious/noExplicitAny: reviews are arbitrary JSON
const reviews: any[] = [];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
async function getJson(args: string[]): Promise<any> {
  const r = await kubectl(env, [...args, "-o", "json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function namespaceWithQuota(ns: string, hard: string) {
  expect((await kubectl(env, ["create", "namespace", ns])).code).toBe(0);
  const q = await kubectl(env, ["create", "quota", "q", `--hard=${hard}`, "-n", ns]);
  expect(q.code, q.stderr).toBe(0);
  // Admission enforces the quota once its controller has filled in status.hard.
  await eventually(async () =>
    expect((await getJson(["get", "quota", "q", "-n", ns])).status?.hard).toBeDefined(),
  );
}

const exceeded = (name: RegExp | string, resource = "pods") =>
  `${resource} "${typeof name === "string" ? name : name.source}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1`;

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
const warnings = (list: any, kind: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  list.items.filter((e: any) => e.type === "Warning" && e.involvedObject.kind === kind);

describe("refused pod creates under simulate: true", () => {
  it("reports FailedCreate on the ReplicaSet and Deployment, and recovers when the quota grows", async () => {
    const ns = "quota-rs";
    await namespaceWithQuota(ns, "pods=1");
    const created = await kubectl(env, [
      "create",
      "deployment",
      "web",
      "--image=nginx",
      "--replicas=3",
      "-n",
      ns,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const message =
      /^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1$/;
    const rs = await eventually(async () => {
      const [rs] = (await getJson(["get", "rs", "-n", ns])).items;
      const cond = rs.status.conditions?.find((c: { type: string }) => c.type === "ReplicaFailure");
      expect(cond).toMatchObject({
        type: "ReplicaFailure",
        status: "True",
        reason: "FailedCreate",
      });
      expect(cond.message).toMatch(message);
      expect(Object.keys(cond).sort()).toEqual([
        "lastTransitionTime",
        "message",
        "reason",
        "status",
        "type",
      ]);
      expect(rs.status.replicas).toBe(1);
      return rs;
    });
    const events = await getJson(["get", "events", "-n", ns]);
    const failed = warnings(events, "ReplicaSet");
    // Slow start: one pod, then a batch of two that the quota refuses.
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const e of failed) {
      expect(e.reason).toBe("FailedCreate");
      expect(e.message).toMatch(new RegExp(`^Error creating: ${message.source.slice(1)}`));
      expect(e.source).toEqual({ component: "replicaset-controller" });
      expect(e.reportingComponent).toBe("replicaset-controller");
      expect(e.involvedObject).toMatchObject({
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: rs.metadata.name,
        namespace: ns,
        uid: rs.metadata.uid,
      });
      expect(e.metadata.name).toMatch(new RegExp(`^${rs.metadata.name}\\.[0-9a-f]+$`));
      expect(e.count).toBeGreaterThanOrEqual(1);
    }
    const made = events.items.filter((e: { reason: string }) => e.reason === "SuccessfulCreate");
    expect(made).toHaveLength(1);
    expect(made[0].message).toMatch(/^Created pod: web-[a-z0-9]+-[a-z0-9]{5}$/);

    // The Deployment carries the new ReplicaSet's failure.
    await eventually(async () => {
      const d = await getJson(["get", "deployment", "web", "-n", ns]);
      const cond = d.status.conditions.find((c: { type: string }) => c.type === "ReplicaFailure");
      expect(cond).toMatchObject({ status: "True", reason: "FailedCreate" });
      expect(cond.message).toMatch(message);
      expect(cond.lastUpdateTime).toBe(cond.lastTransitionTime);
    });

    // kubectl describe shows them as on a cluster.
    const described = await kubectl(env, ["describe", "rs", rs.metadata.name, "-n", ns]);
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toMatch(/\n {2}ReplicaFailure {3}True {4}FailedCreate\n/);
    expect(described.stdout).toMatch(
      /\n {2}Warning {2}FailedCreate +\S+( \(x\d+ over \S+\))? +replicaset-controller +Error creating: pods "web-/,
    );
    expect(described.stdout).toMatch(
      /\n {2}Normal {3}SuccessfulCreate +\S+ +replicaset-controller +Created pod: web-/,
    );

    // Raising the quota lets the retries through; the failure conditions go away.
    const raised = await kubectl(env, [
      "patch",
      "quota",
      "q",
      "-n",
      ns,
      "--type=merge",
      "-p",
      '{"spec":{"hard":{"pods":"5"}}}',
    ]);
    expect(raised.code, raised.stderr).toBe(0);
    await eventually(
      async () => {
        const rs = (await getJson(["get", "rs", "-n", ns])).items[0];
        expect(rs.status.replicas).toBe(3);
        expect(rs.status.conditions).toBeUndefined();
        const d = await getJson(["get", "deployment", "web", "-n", ns]);
        expect(d.status.conditions.map((c: { type: string }) => c.type)).toEqual([
          "Available",
          "Progressing",
        ]);
      },
      { timeout: 15_000 },
    );
    const pods = await getJson(["get", "pods", "-n", ns]);
    expect(pods.items).toHaveLength(3);
  });

  it("reports a StatefulSet's refused pod in its own words, and a Job's", async () => {
    const ns = "quota-sts";
    await namespaceWithQuota(ns, "pods=1");
    // The quota's one pod is taken.
    const first = await kubectl(env, ["run", "first", "--image=nginx", "-n", ns]);
    expect(first.code, first.stderr).toBe(0);
    const sts = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db", namespace: ns },
      spec: {
        serviceName: "db",
        replicas: 1,
        selector: { matchLabels: { app: "db" } },
        template: {
          metadata: { labels: { app: "db" } },
          spec: { containers: [{ name: "db", image: "postgres" }] },
        },
      },
    };
    expect((await kubectl(env, ["apply", "-f", "-"], JSON.stringify(sts))).code).toBe(0);
    const job = await kubectl(env, ["create", "job", "once", "--image=busybox", "-n", ns]);
    expect(job.code, job.stderr).toBe(0);
    await eventually(async () => {
      const events = await getJson(["get", "events", "-n", ns]);
      const [s] = warnings(events, "StatefulSet");
      expect(s).toMatchObject({
        reason: "FailedCreate",
        message: `create Pod db-0 in StatefulSet db failed error: ${exceeded("db-0")}`,
        source: { component: "statefulset-controller" },
      });
      const [j] = warnings(events, "Job");
      expect(j.reason).toBe("FailedCreate");
      expect(j.source).toEqual({ component: "job-controller" });
      expect(j.message).toMatch(
        new RegExp(`^Error creating: ${exceeded(/once-[a-z0-9]{5}/).replace(/[=,]/g, "\\$&")}$`),
      );
    });
    // Freeing the pod lets the StatefulSet's retry create db-0.
    expect((await kubectl(env, ["delete", "pod", "first", "-n", ns, "--wait=false"])).code).toBe(0);
    await eventually(
      async () => {
        const pod = await kubectl(env, ["get", "pod", "db-0", "-n", ns]);
        expect(pod.code, pod.stderr).toBe(0);
      },
      { timeout: 15_000 },
    );
    const events = await getJson(["get", "events", "-n", ns]);
    expect(
      events.items.some(
        (e: { reason: string; message: string }) =>
          e.reason === "SuccessfulCreate" &&
          e.message === "create Pod db-0 in StatefulSet db successful",
      ),
    ).toBe(true);
  });

  it("reports pods Pod Security refuses, with its message", async () => {
    const ns = "restricted";
    expect((await kubectl(env, ["create", "namespace", ns])).code).toBe(0);
    const label = await kubectl(env, [
      "label",
      "namespace",
      ns,
      "pod-security.kubernetes.io/enforce=restricted",
    ]);
    expect(label.code, label.stderr).toBe(0);
    const ds = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        metadata: { name: "agent", namespace: ns },
        spec: {
          selector: { matchLabels: { app: "agent" } },
          template: {
            metadata: { labels: { app: "agent" } },
            spec: { containers: [{ name: "agent", image: "busybox" }] },
          },
        },
      }),
    );
    expect(ds.code, ds.stderr).toBe(0);
    await eventually(async () => {
      const [e] = warnings(await getJson(["get", "events", "-n", ns]), "DaemonSet");
      expect(e).toMatchObject({
        reason: "FailedCreate",
        source: { component: "daemonset-controller" },
      });
      expect(e.message).toMatch(
        /^Error creating: pods "agent-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "agent" must set securityContext\.allowPrivilegeEscalation=false\), /,
      );
    });
  });

  it("reports a Deployment whose ReplicaSet is refused", async () => {
    const ns = "quota-deploy";
    expect((await kubectl(env, ["create", "namespace", ns])).code).toBe(0);
    const q = await kubectl(env, [
      "create",
      "quota",
      "q",
      "--hard=count/replicasets.apps=0",
      "-n",
      ns,
    ]);
    expect(q.code, q.stderr).toBe(0);
    await eventually(async () =>
      expect((await getJson(["get", "quota", "q", "-n", ns])).status?.hard).toBeDefined(),
    );
    expect(
      (await kubectl(env, ["create", "deployment", "api", "--image=nginx", "-n", ns])).code,
    ).toBe(0);
    await eventually(async () => {
      const d = await getJson(["get", "deployment", "api", "-n", ns]);
      const cond = d.status?.conditions?.find((c: { type: string }) => c.type === "Progressing");
      expect(cond).toMatchObject({ status: "False", reason: "ReplicaSetCreateError" });
      expect(cond.message).toMatch(
        /^Failed to create new replica set "api-[a-z0-9]+": replicasets\.apps "api-[a-z0-9]+" is forbidden: exceeded quota: q, requested: count\/replicasets\.apps=1, used: count\/replicasets\.apps=0, limited: count\/replicasets\.apps=0$/,
      );
      const [e] = warnings(await getJson(["get", "events", "-n", ns]), "Deployment");
      expect(e).toMatchObject({
        reason: "ReplicaSetCreateError",
        message: cond.message,
        source: { component: "deployment-controller" },
      });
    });
  });

  it("sends the controllers' creates through admission webhooks, as their service accounts", async () => {
    const cert = mintServingCertificate("127.0.0.1");
    hooks = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const review = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        reviews.push(review);
        const { uid, object } = review.request;
        const response = req.url?.startsWith("/mutate")
          ? {
              uid,
              allowed: true,
              patchType: "JSONPatch",
              patch: Buffer.from(
                JSON.stringify([{ op: "add", path: "/metadata/labels/injected", value: "yes" }]),
              ).toString("base64"),
            }
          : object.metadata.labels?.deny === "yes"
            ? { uid, allowed: false, status: { code: 403, message: "no pods here" } }
            : { uid, allowed: true };
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response }),
        );
      });
    });
    await new Promise<void>((r) => hooks?.listen(0, "127.0.0.1", r));
    const port = (hooks.address() as AddressInfo).port;
    const webhook = (kind: string, path: string) => ({
      apiVersion: "admissionregistration.k8s.io/v1",
      kind,
      metadata: { name: path },
      webhooks: [
        {
          name: `${path}.example.com`,
          admissionReviewVersions: ["v1"],
          sideEffects: "None",
          clientConfig: {
            url: `https://127.0.0.1:${port}/${path}`,
            caBundle: Buffer.from(cert.caPem).toString("base64"),
          },
          namespaceSelector: { matchLabels: { hooked: "yes" } },
          rules: [
            { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"] },
          ],
        },
      ],
    });
    for (const w of [
      webhook("MutatingWebhookConfiguration", "mutate"),
      webhook("ValidatingWebhookConfiguration", "deny"),
    ]) {
      const r = await kubectl(env, ["apply", "-f", "-"], JSON.stringify(w));
      expect(r.code, r.stderr).toBe(0);
    }
    const ns = "hooked";
    expect((await kubectl(env, ["create", "namespace", ns])).code).toBe(0);
    expect((await kubectl(env, ["label", "namespace", ns, "hooked=yes"])).code).toBe(0);
    expect(
      (await kubectl(env, ["create", "deployment", "ok", "--image=nginx", "-n", ns])).code,
    ).toBe(0);
    const pod = await eventually(async () => {
      const [pod] = (await getJson(["get", "pods", "-n", ns, "-l", "app=ok"])).items;
      expect(pod).toBeDefined();
      return pod;
    });
    // The mutating webhook's label is on the pod the ReplicaSet controller created.
    expect(pod.metadata.labels.injected).toBe("yes");
    const call = reviews.find((r) => r.request.object.metadata.labels?.app === "ok");
    expect(call.request.userInfo).toEqual({
      username: "system:serviceaccount:kube-system:replicaset-controller",
      groups: [
        "system:serviceaccounts",
        "system:serviceaccounts:kube-system",
        "system:authenticated",
      ],
    });

    const denied = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        metadata: { name: "no", namespace: ns },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: "no" } },
          template: {
            metadata: { labels: { app: "no", deny: "yes" } },
            spec: { containers: [{ name: "c", image: "nginx" }] },
          },
        },
      }),
    );
    expect(denied.code, denied.stderr).toBe(0);
    await eventually(async () => {
      const [e] = warnings(await getJson(["get", "events", "-n", ns]), "ReplicaSet");
      expect(e.reason).toBe("FailedCreate");
      expect(e.message).toMatch(
        /^Error creating: admission webhook "deny\.example\.com" denied the request: no pods here$/,
      );
      const rs = await getJson(["get", "rs", "no", "-n", ns]);
      expect(rs.status.conditions).toEqual([
        expect.objectContaining({
          type: "ReplicaFailure",
          reason: "FailedCreate",
          message: 'admission webhook "deny.example.com" denied the request: no pods here',
        }),
      ]);
    });
  });
});
