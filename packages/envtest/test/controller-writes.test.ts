/**
 * The components envtest runs inside the server write through the API as on a cluster (issue 26):
 * kube-controller-manager's controllers as their service accounts under the field manager
 * `kube-controller-manager`, the kubelet as its node under `kubelet`, status through the status
 * subresource; admission webhooks and ValidatingAdmissionPolicies see (and may refuse) those
 * writes; and a write that lost to another writer is read again and retried.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, mintServingCertificate, startTestEnv, type TestEnv } from "../src/index.js";
import { kubectl } from "./helpers.js";

let env: TestEnv;
let hooks: Server | undefined;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
  hooks?.closeAllConnections();
  await new Promise((r) => hooks?.close(r) ?? r(undefined));
});

async function run(args: string[], input?: string): Promise<string> {
  const r = await kubectl(env, args, input);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
async function getJson(args: string[]): Promise<any> {
  return JSON.parse(await run([...args, "-o", "json", "--show-managed-fields"]));
}

interface Entry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

/** An object's managedFields as `manager operation [subresource]` lines. */
/**
 * Who wrote, sorted: kube orders the entries of one operation by their time in seconds before
 * their manager (sortEncodedManagedFields), so their order depends on whether the writes fell in
 * one second.
 */
function writers(o: { metadata: { managedFields?: Entry[] } }): string[] {
  return (o.metadata.managedFields ?? [])
    .map((m) => [m.manager, m.operation, m.subresource].filter(Boolean).join(" "))
    .sort();
}

const user = (account: string) => ({
  username: `system:serviceaccount:kube-system:${account}`,
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
});

describe("managedFields of what the server's components write", () => {
  it("name kube's field managers, status written through the status subresource", async () => {
    const ns = "managers";
    await run(["create", "namespace", ns]);
    await run(["-n", ns, "create", "deployment", "web", "--image=nginx"]);
    await run(["-n", ns, "expose", "deployment", "web", "--port=80"]);
    await run(["-n", ns, "create", "pdb", "web", "--selector=app=web", "--min-available=1"]);
    const d = await eventually(async () => {
      const d = await getJson(["-n", ns, "get", "deployment", "web"]);
      expect(d.status.readyReplicas).toBe(1);
      return d;
    });
    expect(writers(d)).toEqual(["kube-controller-manager Update status", "kubectl-create Update"]);
    // The revision annotation goes with the status, as kube's Deployment status strategy allows.
    const status = d.metadata.managedFields.find((m: Entry) => m.subresource === "status");
    expect(status.fieldsV1["f:metadata"]).toEqual({
      "f:annotations": { ".": {}, "f:deployment.kubernetes.io/revision": {} },
    });
    expect(status.fieldsV1["f:status"]).toBeDefined();

    const [rs] = (await getJson(["-n", ns, "get", "rs"])).items;
    expect(writers(rs)).toEqual([
      "kube-controller-manager Update",
      "kube-controller-manager Update status",
    ]);
    // The pod: created by the ReplicaSet controller, bound by the scheduler (which leaves no
    // entry: the binding is written in storage), its status reported by the kubelet.
    const [pod] = (await getJson(["-n", ns, "get", "pods"])).items;
    expect(pod.spec.nodeName).toBe("envtest-node");
    expect(writers(pod)).toEqual(["kube-controller-manager Update", "kubelet Update status"]);
    const node = await getJson(["get", "node", "envtest-node"]);
    expect(writers(node)).toEqual(["kubelet Update", "kubelet Update status"]);

    await eventually(async () => {
      const ep = await getJson(["-n", ns, "get", "endpoints", "web"]);
      expect(ep.subsets?.[0]?.addresses).toHaveLength(1);
      expect(writers(ep)).toEqual(["kube-controller-manager Update"]);
      const [slice] = (await getJson(["-n", ns, "get", "endpointslices"])).items;
      expect(slice.endpoints).toHaveLength(1);
      expect(writers(slice)).toEqual(["kube-controller-manager Update"]);
      const pdb = await getJson(["-n", ns, "get", "pdb", "web"]);
      expect(pdb.status.currentHealthy).toBe(1);
      expect(writers(pdb)).toEqual([
        "kube-controller-manager Update status",
        "kubectl-create Update",
      ]);
    });
    const events = (await getJson(["-n", ns, "get", "events"])).items;
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(writers(e)).toEqual(["kube-controller-manager Update"]);

    // kube-apiserver's own controllers (the CRD's naming and establishing) write as it.
    await run(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: "widgets.example.com" },
        spec: {
          group: "example.com",
          names: { kind: "Widget", plural: "widgets" },
          scope: "Namespaced",
          versions: [
            {
              name: "v1",
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: "object" } },
            },
          ],
        },
      }),
    );
    await eventually(async () => {
      const crd = await getJson(["get", "crd", "widgets.example.com"]);
      expect(writers(crd)).toEqual([
        "kube-apiserver Update status",
        "kubectl-client-side-apply Update",
      ]);
    });
  });
});

describe("admission of the components' writes", () => {
  it("holds the kubelet's status writes to policies, and not the scheduler's binding", async () => {
    const ns = "held";
    await run(["create", "namespace", ns]);
    await run(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          {
            apiVersion: "admissionregistration.k8s.io/v1",
            kind: "ValidatingAdmissionPolicy",
            metadata: { name: "no-start" },
            spec: {
              matchConstraints: {
                resourceRules: [
                  {
                    apiGroups: [""],
                    apiVersions: ["v1"],
                    operations: ["UPDATE"],
                    resources: ["pods/status"],
                  },
                ],
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
              },
              validations: [
                {
                  expression:
                    "!request.userInfo.username.startsWith('system:node:') || !has(object.metadata.labels) || !('hold' in object.metadata.labels)",
                  message: "held pods may not start",
                },
              ],
            },
          },
          {
            apiVersion: "admissionregistration.k8s.io/v1",
            kind: "ValidatingAdmissionPolicyBinding",
            metadata: { name: "no-start" },
            spec: { policyName: "no-start", validationActions: ["Deny"] },
          },
        ],
      }),
    );
    await run(["-n", ns, "run", "held", "--image=nginx", "--labels=hold=yes"]);
    await run(["-n", ns, "run", "free", "--image=nginx"]);
    await eventually(async () => {
      const free = await getJson(["-n", ns, "get", "pod", "free"]);
      expect(free.status.phase).toBe("Running");
    });
    // Created before the free one: the scheduler bound it, the kubelet could not report it.
    const held = await getJson(["-n", ns, "get", "pod", "held"]);
    expect(held.spec.nodeName).toBe("envtest-node");
    expect(held.status.phase).toBe("Pending");
    expect(held.status.podIP).toBeUndefined();
  });

  it("sends the garbage collector's deletes to webhooks, which may refuse them", async () => {
    const reviews: { request: Record<string, unknown> }[] = [];
    const port = await serveWebhook((review) => {
      reviews.push(review);
      const old = review.request.oldObject as { metadata: { labels?: Record<string, string> } };
      return old?.metadata.labels?.keep === "yes"
        ? { allowed: false, status: { code: 403, message: "kept" } }
        : { allowed: true };
    });
    const ns = "gc-hooked";
    await run(["create", "namespace", ns]);
    await run(["label", "namespace", ns, "gc-hooked=yes"]);
    await run(
      ["apply", "-f", "-"],
      JSON.stringify(
        webhookConfiguration("gc-deletes", port, "gc-hooked", {
          apiGroups: [""],
          apiVersions: ["v1"],
          operations: ["DELETE"],
          resources: ["configmaps"],
        }),
      ),
    );
    const owner = await getJson(["-n", ns, "create", "configmap", "owner"]);
    await run(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: "dependent",
          namespace: ns,
          labels: { keep: "yes" },
          ownerReferences: [
            { apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid },
          ],
        },
      }),
    );
    const dependent = await getJson(["-n", ns, "get", "configmap", "dependent"]);
    await run(["-n", ns, "delete", "configmap", "owner"]);
    const refused = await eventually(() => {
      const r = reviews.find((x) => (x.request.name as string) === "dependent");
      expect(r).toBeDefined();
      return r!.request;
    });
    expect(refused.userInfo).toEqual(user("generic-garbage-collector"));
    expect(refused.options).toMatchObject({
      kind: "DeleteOptions",
      propagationPolicy: "Background",
      preconditions: { uid: dependent.metadata.uid },
    });
    expect((await kubectl(env, ["-n", ns, "get", "configmap", "dependent"])).code).toBe(0);
    // Allowed once it is no longer kept: the collector's next look deletes it.
    await run(["-n", ns, "label", "configmap", "dependent", "keep-"]);
    await eventually(async () => {
      const r = await kubectl(env, ["-n", ns, "get", "configmap", "dependent"]);
      expect(r.stderr).toMatch(/NotFound/);
    });
  });
});

describe("conflicts", () => {
  it("reads an object written meanwhile again and retries the write", async () => {
    let signalHeld: () => void = () => {};
    const held = new Promise<void>((r) => {
      signalHeld = r;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const updates: { request: Record<string, unknown> }[] = [];
    const port = await serveWebhook(async (review) => {
      const who = (review.request.userInfo as { username: string }).username;
      if (who === user("endpoint-controller").username) {
        updates.push(review);
        // The controller's first update waits while a client changes the object.
        if (updates.length === 1) {
          signalHeld();
          await released;
        }
      }
      return { allowed: true };
    });
    const ns = "conflicts";
    await run(["create", "namespace", ns]);
    await run(["label", "namespace", ns, "conflicts=yes"]);
    await run(
      ["apply", "-f", "-"],
      JSON.stringify(
        webhookConfiguration("endpoint-updates", port, "conflicts", {
          apiGroups: [""],
          apiVersions: ["v1"],
          operations: ["UPDATE"],
          resources: ["endpoints"],
        }),
      ),
    );
    await run(["-n", ns, "create", "service", "clusterip", "db", "--tcp=5432"]);
    await eventually(() => run(["-n", ns, "get", "endpoints", "db"]));
    await run(["-n", ns, "run", "db", "--image=postgres", "--labels=app=db"]);
    await held;
    // Nothing the endpoints controller watches changes: only its retry brings the pod in.
    await run(["-n", ns, "label", "endpoints", "db", "touched=yes"]);
    release();
    await eventually(async () => {
      const ep = await getJson(["-n", ns, "get", "endpoints", "db"]);
      expect(ep.metadata.labels.touched).toBe("yes");
      expect(ep.subsets?.[0]?.addresses).toHaveLength(1);
    });
    expect(updates.length).toBeGreaterThanOrEqual(2);
    const retry = updates[1]!.request.oldObject as { metadata: { labels: Record<string, string> } };
    expect(retry.metadata.labels.touched).toBe("yes");
  });
});

type Review = { request: Record<string, unknown> };
type Answer = { allowed: boolean; status?: { code: number; message: string } };

/** Serves one validating webhook (a second call replaces the first), returning its port. */
async function serveWebhook(answer: (review: Review) => Answer | Promise<Answer>): Promise<number> {
  hooks?.closeAllConnections();
  hooks?.close();
  const cert = mintServingCertificate("127.0.0.1");
  caPem = cert.caPem;
  hooks = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review;
      const response = { uid: review.request.uid, ...(await answer(review)) };
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response }),
      );
    });
  });
  const server = hooks;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

let caPem = "";

function webhookConfiguration(name: string, port: number, nsLabel: string, rule: object) {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name },
    webhooks: [
      {
        name: `${name}.example.com`,
        admissionReviewVersions: ["v1"],
        sideEffects: "None",
        timeoutSeconds: 30,
        clientConfig: {
          url: `https://127.0.0.1:${port}/validate`,
          caBundle: Buffer.from(caPem).toString("base64"),
        },
        namespaceSelector: { matchLabels: { [nsLabel]: "yes" } },
        rules: [rule],
      },
    ],
  };
}
