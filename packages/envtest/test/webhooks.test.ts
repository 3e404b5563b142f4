/**
 * Admission and conversion webhooks against a tiny HTTPS webhook server in the test: envtest
 * installs the configurations with startTestEnv({ webhooks }) and calls them as kube-apiserver
 * does (mutation by JSONPatch, denial texts, failure policy, timeouts, selectors, dry-run,
 * caBundle verification, conversion on read, list, watch and write, kubectl's view).
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  mintServingCertificate,
  startTestEnv,
  type TestEnv,
  waitForWebhookServer,
} from "../src/index.js";
import { api, kubectl, watchStream } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: reviews are arbitrary JSON
type Json = any;

const dir = mkdtempSync(join(tmpdir(), "webhooks-test-"));
const group = "demo.example.com";

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: appclusters.${group}
spec:
  group: ${group}
  names: { kind: AppCluster, listKind: AppClusterList, plural: appclusters, singular: appcluster }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer }
    - name: v2
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                replicas: { type: integer }
`;

// Kubebuilder's config/crd/patches/webhook_in_<plural>.yaml: conversion is a kustomize patch.
const conversionPatch = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: appclusters.${group}
spec:
  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service: { namespace: system, name: webhook-service, path: /convert }
      conversionReviewVersions: [v1]
`;

// As controller-gen writes them (service references, no caBundle): the option rewrites both.
const webhooks = `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /mutate-demo-example-com-v1-appcluster }
  failurePolicy: Fail
  name: mappcluster-v1.kb.io
  rules:
  - apiGroups: [${group}]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [appclusters]
  sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /validate-demo-example-com-v1-appcluster }
  failurePolicy: Fail
  name: vappcluster-v1.kb.io
  rules:
  - apiGroups: [${group}]
    apiVersions: [v1]
    operations: [CREATE, UPDATE, DELETE]
    resources: [appclusters]
  sideEffects: None
`;

/** Racing writes made by the /race webhook. */
let races = 1;

/** What the webhook server saw, by path. */
const seen = new Map<string, Json[]>();
let env: TestEnv;
let server: Server;

function allow(review: Json, extra: Json = {}) {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: { uid: review.request.uid, allowed: true, ...extra },
  };
}

function jsonPatch(ops: unknown[]) {
  return { patchType: "JSONPatch", patch: Buffer.from(JSON.stringify(ops)).toString("base64") };
}

/** The webhook behaviours, by path (what an operator's webhook server would do). */
const handlers: Record<string, (review: Json) => Json | Promise<Json>> = {
  "/mutate-demo-example-com-v1-appcluster": (r) => {
    const labels = r.request.object.metadata.labels;
    if (labels?.tier) return allow(r);
    return allow(
      r,
      labels
        ? jsonPatch([{ op: "add", path: "/metadata/labels/tier", value: "web" }])
        : jsonPatch([{ op: "add", path: "/metadata/labels", value: { tier: "web" } }]),
    );
  },
  "/validate-demo-example-com-v1-appcluster": (r) => {
    const size = r.request.object?.spec?.size;
    if (typeof size === "number" && size > 10) {
      return {
        ...allow(r),
        response: {
          uid: r.request.uid,
          allowed: false,
          status: {
            code: 403,
            reason: "Forbidden",
            message: `spec.size: Invalid value: ${size}: must be at most 10`,
          },
        },
      };
    }
    return allow(r, { warnings: ["validated by the test webhook"] });
  },
  "/convert": (r) => {
    const to = r.request.desiredAPIVersion as string;
    if ((r.request.objects as Json[]).some((o) => o.metadata.labels?.convert === "fail")) {
      return {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        response: {
          uid: r.request.uid,
          result: { status: "Failure", message: "spec.size cannot be converted" },
        },
      };
    }
    const convertedObjects = (r.request.objects as Json[]).map((o) => {
      const spec = { ...(o.spec ?? {}) };
      if (to.endsWith("/v2")) {
        spec.replicas = spec.size;
        delete spec.size;
      } else {
        spec.size = spec.replicas;
        delete spec.replicas;
      }
      return { ...o, apiVersion: to, spec };
    });
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      response: { uid: r.request.uid, result: { status: "Success" }, convertedObjects },
    };
  },
  "/deny-all": (r) => ({
    ...allow(r),
    response: { uid: r.request.uid, allowed: false, status: { message: "no configmaps here" } },
  }),
  "/dry": (r) => allow(r),
  "/slow": async (r) => {
    await new Promise((res) => setTimeout(res, 1500));
    return allow(r);
  },
  "/reinvoke-a": (r) =>
    r.request.object.metadata.annotations?.a
      ? allow(r)
      : allow(r, jsonPatch([{ op: "add", path: "/metadata/annotations", value: { a: "done" } }])),
  "/reinvoke-b": (r) =>
    r.request.object.metadata.labels?.b
      ? allow(r)
      : allow(r, jsonPatch([{ op: "add", path: "/metadata/labels", value: { b: "done" } }])),
  "/patch-always": (r) =>
    allow(r, jsonPatch([{ op: "add", path: "/metadata/annotations", value: { x: "y" } }])),
  "/deny-silently": (r) => ({ ...allow(r), response: { uid: r.request.uid, allowed: false } }),
  // Writes the object itself while the first request it sees waits for it.
  "/race": async (r) => {
    if ((seen.get("/race") ?? []).length === 1) {
      const w = await api(
        env,
        "PATCH",
        "/api/v1/namespaces/apps/configmaps/raced",
        { data: { b: String(++races) } },
        { contentType: "application/merge-patch+json" },
      );
      if (w.status !== 200) throw new Error(w.text);
    }
    return allow(r);
  },
  "/wrong-uid": (r) => ({ ...allow(r), response: { uid: "not-the-uid", allowed: true } }),
};

beforeAll(async () => {
  writeFileSync(join(dir, "crd.yaml"), crd);
  writeFileSync(join(dir, "manifests.yaml"), webhooks);
  writeFileSync(join(dir, "webhook_in_appclusters.yaml"), conversionPatch);
  env = await startTestEnv({
    crdDirectoryPaths: [join(dir, "crd.yaml")],
    webhooks: { paths: [join(dir, "manifests.yaml"), join(dir, "webhook_in_appclusters.yaml")] },
  });
  const wh = env.webhook!;
  server = createServer(
    {
      cert: readFileSync(join(wh.certDir, "tls.crt")),
      key: readFileSync(join(wh.certDir, "tls.key")),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const path = new URL(req.url ?? "/", "https://x").pathname;
        const review = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        seen.set(path, [...(seen.get(path) ?? []), { review, url: req.url }]);
        const handler = handlers[path];
        if (!handler) {
          res.writeHead(404).end();
          return;
        }
        const answer = JSON.stringify(await handler(review));
        if (res.destroyed) return;
        res.writeHead(200, { "Content-Type": "application/json" }).end(answer);
      });
    },
  );
  await listen(server, wh.port, wh.host);
  await waitForWebhookServer(wh);
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "apps" } });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await env?.stop();
});

const v1 = `/apis/${group}/v1/namespaces/apps/appclusters`;
const v2 = `/apis/${group}/v2/namespaces/apps/appclusters`;

function appcluster(name: string, size: number, labels?: Record<string, string>) {
  return {
    apiVersion: `${group}/v1`,
    kind: "AppCluster",
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { size },
  };
}

function listen(s: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once("error", reject);
    s.listen(port, host, () => {
      s.off("error", reject);
      resolve();
    });
  });
}

/** A minimal valid CRD object (for validation tests). */
function yamlCrd(plural: string): Json {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind: "Widget", plural },
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
  };
}

/** Creates a configuration for one test and returns its name. */
async function configure(kind: "mutating" | "validating", name: string, hook: Json) {
  const r = await api(
    env,
    "POST",
    `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`,
    {
      metadata: { name },
      webhooks: [hook],
    },
  );
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe("startTestEnv({ webhooks })", () => {
  it("mints a serving certificate into certDir (0600) and installs the rewritten configurations", async () => {
    const wh = env.webhook!;
    expect(wh.host).toBe("127.0.0.1");
    expect(wh.port).toBeGreaterThan(0);
    for (const f of ["tls.crt", "tls.key"]) {
      expect(statSync(join(wh.certDir, f)).mode & 0o777).toBe(0o600);
    }
    expect(wh.url("/convert")).toBe(`https://127.0.0.1:${wh.port}/convert`);
    const m = await api(
      env,
      "GET",
      "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/mutating-webhook-configuration",
    );
    const hook = m.body.webhooks[0];
    expect(hook.clientConfig).toEqual({
      url: `https://127.0.0.1:${wh.port}/mutate-demo-example-com-v1-appcluster`,
      caBundle: wh.caBundle.toString("base64"),
    });
    // kube's defaults on create.
    expect(hook).toMatchObject({
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: "Never",
    });
    expect(hook.rules[0].scope).toBe("*");
    const c = await api(
      env,
      "GET",
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/appclusters.${group}`,
    );
    // The conversion patch applied, pointed at the local server.
    expect(c.body.spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: { url: wh.url("/convert"), caBundle: wh.caBundle.toString("base64") },
        conversionReviewVersions: ["v1"],
      },
    });
  });
});

describe("admission webhooks", () => {
  it("applies a mutating webhook's JSONPatch before storing, and sends kube's AdmissionReview", async () => {
    const r = await api(env, "POST", v1, appcluster("small", 2));
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.labels).toEqual({ tier: "web" });
    expect(r.headers.warning).toContain("validated by the test webhook");
    const stored = await api(env, "GET", `${v1}/small`);
    expect(stored.body.metadata.labels).toEqual({ tier: "web" });
    const call = seen.get("/mutate-demo-example-com-v1-appcluster")!.at(-1);
    expect(call.url).toBe("/mutate-demo-example-com-v1-appcluster?timeout=10s");
    expect(call.review.apiVersion).toBe("admission.k8s.io/v1");
    expect(call.review.request).toMatchObject({
      kind: { group, version: "v1", kind: "AppCluster" },
      resource: { group, version: "v1", resource: "appclusters" },
      requestKind: { group, version: "v1", kind: "AppCluster" },
      name: "small",
      namespace: "apps",
      operation: "CREATE",
      dryRun: false,
      oldObject: null,
      options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    });
    expect(call.review.request.userInfo.groups).toContain("system:masters");
    expect(call.review.request.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("denies with the webhook's status, worded as kube words it", async () => {
    const r = await api(env, "POST", v1, appcluster("big", 20));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Forbidden",
      code: 403,
      message:
        'admission webhook "vappcluster-v1.kb.io" denied the request: spec.size: Invalid value: 20: must be at most 10',
    });
    expect((await api(env, "GET", `${v1}/big`)).status).toBe(404);
  });

  it("shows the denial through the real kubectl", async () => {
    const manifest = JSON.stringify(appcluster("kubectl-big", 20));
    const r = await kubectl(env, ["apply", "-n", "apps", "-f", "-"], manifest);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): error when creating "STDIN": admission webhook "vappcluster-v1.kb.io" denied the request: spec.size: Invalid value: 20: must be at most 10',
    );
  });

  it("calls validating webhooks on UPDATE (oldObject) and DELETE (no object)", async () => {
    await api(env, "POST", v1, appcluster("lifecycle", 1));
    const up = await api(
      env,
      "PATCH",
      `${v1}/lifecycle`,
      { spec: { size: 30 } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(up.status).toBe(403);
    const ok = await api(
      env,
      "PATCH",
      `${v1}/lifecycle`,
      { spec: { size: 3 } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(ok.status, ok.text).toBe(200);
    const update = seen.get("/validate-demo-example-com-v1-appcluster")!.at(-1).review.request;
    expect(update.operation).toBe("UPDATE");
    expect(update.oldObject.spec.size).toBe(1);
    expect(update.object.spec.size).toBe(3);
    expect((await api(env, "DELETE", `${v1}/lifecycle`)).status).toBe(200);
    const del = seen.get("/validate-demo-example-com-v1-appcluster")!.at(-1).review.request;
    expect(del).toMatchObject({ operation: "DELETE", object: null, name: "lifecycle" });
    expect(del.oldObject.spec.size).toBe(3);
    expect(del.options.kind).toBe("DeleteOptions");
  });

  it("calls a v1 webhook for a v2 request with the object converted (matchPolicy Equivalent)", async () => {
    const r = await api(env, "POST", v2, {
      apiVersion: `${group}/v2`,
      kind: "AppCluster",
      metadata: { name: "v2-big" },
      spec: { replicas: 20 },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain("spec.size: Invalid value: 20");
    const call = seen.get("/validate-demo-example-com-v1-appcluster")!.at(-1).review.request;
    expect(call.kind.version).toBe("v1");
    expect(call.requestKind.version).toBe("v2");
    expect(call.object.apiVersion).toBe(`${group}/v1`);
  });

  it("fails closed or open on a server that is down (failurePolicy Fail / Ignore), as selected by objectSelector", async () => {
    const down = "https://127.0.0.1:1/down";
    const hook = (name: string, failurePolicy: string) => ({
      name,
      failurePolicy,
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: { url: down, caBundle: env.webhook!.caBundle.toString("base64") },
      objectSelector: { matchLabels: { webhook: failurePolicy } },
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
      ],
    });
    await configure("validating", "down-fail", hook("down-fail.example.com", "Fail"));
    await configure("validating", "down-ignore", hook("down-ignore.example.com", "Ignore"));
    const cm = (name: string, labels: Record<string, string>) => ({
      metadata: { name, labels },
    });
    const failed = await api(
      env,
      "POST",
      "/api/v1/namespaces/apps/configmaps",
      cm("f", { webhook: "Fail" }),
    );
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({
      reason: "InternalError",
      message:
        'Internal error occurred: failed calling webhook "down-fail.example.com": failed to call webhook: Post "https://127.0.0.1:1/down?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused',
    });
    const ignored = await api(
      env,
      "POST",
      "/api/v1/namespaces/apps/configmaps",
      cm("i", { webhook: "Ignore" }),
    );
    expect(ignored.status, ignored.text).toBe(201);
    // Neither selector matches: neither webhook is called.
    const other = await api(
      env,
      "POST",
      "/api/v1/namespaces/apps/configmaps",
      cm("o", { webhook: "none" }),
    );
    expect(other.status, other.text).toBe(201);
  });

  it("bounds a call by timeoutSeconds", async () => {
    const hook = (name: string, failurePolicy: string) => ({
      name,
      failurePolicy,
      timeoutSeconds: 1,
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: {
        url: env.webhook!.url("/slow"),
        caBundle: env.webhook!.caBundle.toString("base64"),
      },
      objectSelector: { matchLabels: { slow: failurePolicy } },
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["secrets"] },
      ],
    });
    await configure("validating", "slow", hook("slow.example.com", "Fail"));
    await configure("validating", "slow-ignore", hook("slow-ignore.example.com", "Ignore"));
    const failed = await api(env, "POST", "/api/v1/namespaces/apps/secrets", {
      metadata: { name: "s1", labels: { slow: "Fail" } },
    });
    expect(failed.status).toBe(500);
    expect(failed.body.message).toBe(
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${env.webhook!.url("/slow")}?timeout=1s": context deadline exceeded`,
    );
    const ignored = await api(env, "POST", "/api/v1/namespaces/apps/secrets", {
      metadata: { name: "s2", labels: { slow: "Ignore" } },
    });
    expect(ignored.status, ignored.text).toBe(201);
  });

  it("matches namespaceSelector against the namespace's labels", async () => {
    await api(env, "POST", "/api/v1/namespaces", {
      metadata: { name: "guarded", labels: { guarded: "yes" } },
    });
    await configure("validating", "guard", {
      name: "guard.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: {
        url: env.webhook!.url("/deny-all"),
        caBundle: env.webhook!.caBundle.toString("base64"),
      },
      namespaceSelector: { matchLabels: { guarded: "yes" } },
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
      ],
    });
    const denied = await api(env, "POST", "/api/v1/namespaces/guarded/configmaps", {
      metadata: { name: "c" },
    });
    expect(denied.status).toBe(400);
    expect(denied.body.message).toBe(
      'admission webhook "guard.example.com" denied the request: no configmaps here',
    );
    const elsewhere = await api(env, "POST", "/api/v1/namespaces/apps/configmaps", {
      metadata: { name: "c" },
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it("calls side-effect-free webhooks on dry-run with dryRun true, storing nothing", async () => {
    await configure("mutating", "dry", {
      name: "dry.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "NoneOnDryRun",
      clientConfig: {
        url: env.webhook!.url("/dry"),
        caBundle: env.webhook!.caBundle.toString("base64"),
      },
      rules: [
        {
          apiGroups: [""],
          apiVersions: ["v1"],
          operations: ["CREATE"],
          resources: ["serviceaccounts"],
        },
      ],
    });
    const r = await api(env, "POST", "/api/v1/namespaces/apps/serviceaccounts?dryRun=All", {
      metadata: { name: "dry" },
    });
    expect(r.status, r.text).toBe(201);
    const call = seen.get("/dry")!.at(-1).review.request;
    expect(call.dryRun).toBe(true);
    expect(call.options.dryRun).toEqual(["All"]);
    expect((await api(env, "GET", "/api/v1/namespaces/apps/serviceaccounts/dry")).status).toBe(404);
  });

  it("fails a call whose server certificate the caBundle does not sign", async () => {
    const otherCa = Buffer.from(mintServingCertificate("127.0.0.1").caPem).toString("base64");
    await configure("validating", "bad-ca", {
      name: "bad-ca.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: { url: env.webhook!.url("/dry"), caBundle: otherCa },
      rules: [
        {
          apiGroups: [""],
          apiVersions: ["v1"],
          operations: ["CREATE"],
          resources: ["persistentvolumeclaims"],
        },
      ],
    });
    const r = await api(env, "POST", "/api/v1/namespaces/apps/persistentvolumeclaims", {
      metadata: { name: "pvc" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      `Internal error occurred: failed calling webhook "bad-ca.example.com": failed to call webhook: Post "${env.webhook!.url("/dry")}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it("treats an answer for another request as a call failure", async () => {
    await configure("validating", "wrong-uid", {
      name: "wrong-uid.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: {
        url: env.webhook!.url("/wrong-uid"),
        caBundle: env.webhook!.caBundle.toString("base64"),
      },
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["services"] },
      ],
    });
    const r = await api(env, "POST", "/api/v1/namespaces/apps/services", {
      metadata: { name: "svc" },
      spec: { ports: [{ port: 80 }] },
    });
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "wrong-uid.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-uid"$/,
    );
  });
});

describe("admission webhooks, continued", () => {
  const ca = () => env.webhook!.caBundle.toString("base64");
  const rule = (resources: string[], operations = ["CREATE"], apiGroups = [""]) => [
    { apiGroups, apiVersions: ["v1"], operations, resources },
  ];

  it("reinvokes an IfNeeded webhook once when a later webhook changed the object", async () => {
    const hook = (name: string, path: string) => ({
      name,
      reinvocationPolicy: "IfNeeded",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: { url: env.webhook!.url(path), caBundle: ca() },
      rules: rule(["endpoints"]),
    });
    await configure("mutating", "reinvoke-a", hook("a.reinvoke.example.com", "/reinvoke-a"));
    await configure("mutating", "reinvoke-b", hook("b.reinvoke.example.com", "/reinvoke-b"));
    const r = await api(env, "POST", "/api/v1/namespaces/apps/endpoints", {
      metadata: { name: "ep" },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata).toMatchObject({ annotations: { a: "done" }, labels: { b: "done" } });
    const calls = (path: string) =>
      (seen.get(path) ?? []).filter((c) => c.review.request.name === "ep").length;
    expect(calls("/reinvoke-a")).toBe(2);
    expect(calls("/reinvoke-b")).toBe(1);
  });

  it("skips a webhook whose matchConditions are false, and refuses one that does not compile", async () => {
    await configure("validating", "conditional", {
      name: "conditional.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: { url: env.webhook!.url("/deny-all"), caBundle: ca() },
      matchConditions: [
        { name: "only-guarded-names", expression: "object.metadata.name.startsWith('guarded-')" },
        { name: "not-the-admin", expression: "request.userInfo.username != 'nobody'" },
      ],
      rules: rule(["replicationcontrollers"]),
    });
    const rc = (name: string) => ({
      metadata: { name },
      spec: {
        selector: { app: name },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    const skipped = await api(
      env,
      "POST",
      "/api/v1/namespaces/apps/replicationcontrollers",
      rc("free"),
    );
    expect(skipped.status, skipped.text).toBe(201);
    const denied = await api(
      env,
      "POST",
      "/api/v1/namespaces/apps/replicationcontrollers",
      rc("guarded-1"),
    );
    expect(denied.body.message).toBe(
      'admission webhook "conditional.example.com" denied the request: no configmaps here',
    );
    const bad = await api(
      env,
      "POST",
      "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
      {
        metadata: { name: "bad-condition" },
        webhooks: [
          {
            name: "bad-condition.example.com",
            admissionReviewVersions: ["v1"],
            sideEffects: "None",
            clientConfig: { url: env.webhook!.url("/deny-all") },
            matchConditions: [{ name: "typo", expression: "objekt.metadata.name == 'x'" }],
            rules: rule(["configmaps"]),
          },
        ],
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0].field).toBe("webhooks[0].matchConditions[0].expression");
    expect(bad.body.details.causes[0].message).toContain(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'objekt' (in container '')",
    );
  });

  it("reaches subresource requests only through rules naming the subresource", async () => {
    const deny = (name: string, resources: string[]) =>
      configure("validating", name, {
        name: `${name}.example.com`,
        admissionReviewVersions: ["v1"],
        sideEffects: "None",
        clientConfig: { url: env.webhook!.url("/deny-all"), caBundle: ca() },
        rules: rule(resources, ["UPDATE"]),
      });
    const pod = await api(env, "POST", "/api/v1/namespaces/apps/pods", {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    });
    expect(pod.status, pod.text).toBe(201);
    await deny("pods-only", ["pods"]);
    const status = { status: { phase: "Running" } };
    const merge = { contentType: "application/merge-patch+json" };
    const passed = await api(env, "PATCH", "/api/v1/namespaces/apps/pods/p/status", status, merge);
    expect(passed.status, passed.text).toBe(200);
    await deny("pods-status", ["pods/status"]);
    const denied = await api(env, "PATCH", "/api/v1/namespaces/apps/pods/p/status", status, merge);
    expect(denied.body.message).toBe(
      'admission webhook "pods-status.example.com" denied the request: no configmaps here',
    );
    let call = seen.get("/deny-all")!.at(-1).review.request;
    expect(call).toMatchObject({
      subResource: "status",
      requestSubResource: "status",
      operation: "UPDATE",
    });
    // A POST to a subresource: webhooks see its own kind.
    await configure("validating", "evictions", {
      name: "evictions.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: { url: env.webhook!.url("/deny-all"), caBundle: ca() },
      rules: rule(["pods/eviction"]),
    });
    const evicted = await api(env, "POST", "/api/v1/namespaces/apps/pods/p/eviction", {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "p", namespace: "apps" },
    });
    expect(evicted.body.message).toBe(
      'admission webhook "evictions.example.com" denied the request: no configmaps here',
    );
    call = seen.get("/deny-all")!.at(-1).review.request;
    expect(call).toMatchObject({
      kind: { group: "policy", version: "v1", kind: "Eviction" },
      resource: { group: "", version: "v1", resource: "pods" },
      subResource: "eviction",
      operation: "CREATE",
    });
    expect((await api(env, "GET", "/api/v1/namespaces/apps/pods/p")).status).toBe(200);
  });
});

describe("webhook outcomes", () => {
  const hook = (name: string, path: string, resources: string[], operations: string[]) => ({
    name,
    admissionReviewVersions: ["v1"],
    sideEffects: "None",
    clientConfig: {
      url: env.webhook!.url(path),
      caBundle: env.webhook!.caBundle.toString("base64"),
    },
    rules: [{ apiGroups: ["coordination.k8s.io"], apiVersions: ["v1"], operations, resources }],
  });
  const leases = "/apis/coordination.k8s.io/v1/namespaces/apps/leases";

  it("refuses a patch on DELETE and words a denial without a status", async () => {
    expect((await api(env, "POST", leases, { metadata: { name: "l1" } })).status).toBe(201);
    await configure(
      "mutating",
      "patch-on-delete",
      hook("patch.example.com", "/patch-always", ["leases"], ["DELETE"]),
    );
    const del = await api(env, "DELETE", `${leases}/l1`);
    expect(del.status).toBe(500);
    expect(del.body.message).toBe(
      'Internal error occurred: admission webhook "patch.example.com" attempted to modify the object, which is not supported for this operation',
    );
    await configure(
      "validating",
      "deny-silently",
      hook("silent.example.com", "/deny-silently", ["leases"], ["CREATE"]),
    );
    const created = await api(env, "POST", leases, { metadata: { name: "l2" } });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      status: "Failure",
      message: 'admission webhook "silent.example.com" denied the request without explanation',
    });
  });
});

describe("writes racing their webhooks", () => {
  it("patches again from the new object when another write landed meanwhile, as GuaranteedUpdate does", async () => {
    const cms = "/api/v1/namespaces/apps/configmaps";
    expect(
      (await api(env, "POST", cms, { metadata: { name: "raced", labels: { race: "yes" } } }))
        .status,
    ).toBe(201);
    await configure("mutating", "race", {
      name: "race.example.com",
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      clientConfig: {
        url: env.webhook!.url("/race"),
        caBundle: env.webhook!.caBundle.toString("base64"),
      },
      objectSelector: { matchLabels: { race: "yes" } },
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["UPDATE"], resources: ["configmaps"] },
      ],
    });
    const merge = { contentType: "application/merge-patch+json" };
    const r = await api(env, "PATCH", `${cms}/raced`, { data: { a: "1" } }, merge);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ a: "1", b: "2" });
    // First try, the racing write, and the second try.
    expect(seen.get("/race")).toHaveLength(3);
    // With a resourceVersion the client asserted, losing the race is a conflict.
    const current = await api(env, "GET", `${cms}/raced`);
    seen.set("/race", []);
    const stale = await api(
      env,
      "PATCH",
      `${cms}/raced`,
      { metadata: { resourceVersion: current.body.metadata.resourceVersion }, data: { c: "3" } },
      merge,
    );
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on configmaps "raced": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
});

describe("webhook configuration validation", () => {
  it("refuses what kube refuses, with its messages", async () => {
    const r = await api(
      env,
      "POST",
      "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
      {
        metadata: { name: "invalid" },
        webhooks: [
          {
            name: "twice.example.com",
            clientConfig: { url: "http://example.com/x?a=b" },
            rules: [],
            timeoutSeconds: 31,
          },
          {
            name: "twice.example.com",
            sideEffects: "Some",
            admissionReviewVersions: ["v1"],
            clientConfig: { url: "https://example.com/x", service: { namespace: "a", name: "b" } },
          },
          {
            name: "lists.example.com",
            sideEffects: "None",
            admissionReviewVersions: ["v2"],
            clientConfig: { url: "https://example.com/x" },
            rules: [
              {
                operations: ["*", "CREATE"],
                apiGroups: [""],
                apiVersions: ["v1"],
                resources: ["pods"],
              },
            ],
          },
        ],
      },
    );
    expect(r.status).toBe(422);
    const causes = r.body.details.causes.map((c: Json) => `${c.field}: ${c.message}`);
    expect(causes).toEqual(
      expect.arrayContaining([
        "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
        "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
        "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
        `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        "webhooks[1].clientConfig: Required value: exactly one of url or service is required",
        'webhooks[1].name: Duplicate value: "twice.example.com"',
        // List values as Go prints them (the same text `opgen manifests` prints at the marker).
        'webhooks[2].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
        'webhooks[2].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      ]),
    );
  });
});

describe("CRD conversion webhook", () => {
  it("stores a v2 write in the storage version and serves every version through the webhook", async () => {
    const r = await api(env, "POST", v2, {
      apiVersion: `${group}/v2`,
      kind: "AppCluster",
      metadata: { name: "converted" },
      spec: { replicas: 3 },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ apiVersion: `${group}/v2`, spec: { replicas: 3 } });
    // The mutating v1 webhook ran on the converted object; its label survives conversion.
    expect(r.body.metadata.labels).toEqual({ tier: "web" });
    const asV1 = await api(env, "GET", `${v1}/converted`);
    expect(asV1.body).toMatchObject({ apiVersion: `${group}/v1`, spec: { size: 3 } });
    const asV2 = await api(env, "GET", `${v2}/converted`);
    expect(asV2.body.spec).toEqual({ replicas: 3 });
    const list = await api(env, "GET", v2);
    const item = list.body.items.find((i: Json) => i.metadata.name === "converted");
    expect(item).toMatchObject({ apiVersion: `${group}/v2`, spec: { replicas: 3 } });
    const review = seen.get("/convert")!.at(-1).review;
    expect(review.apiVersion).toBe("apiextensions.k8s.io/v1");
    expect(review.request.desiredAPIVersion).toBe(`${group}/v2`);
    const viaKubectl = await kubectl(env, [
      "get",
      `appclusters.v2.${group}`,
      "-n",
      "apps",
      "converted",
      "-o",
      "jsonpath={.spec.replicas}",
    ]);
    expect(viaKubectl.stdout).toBe("3");
    // A plain `kubectl get` uses the preferred version (v2): every object is converted.
    const table = await kubectl(env, ["get", "appclusters", "-n", "apps"]);
    expect(table.stderr).toBe("");
    expect(table.stdout).toMatch(/^NAME\s+AGE\n/);
    expect(table.stdout).toContain("converted");
  });

  it("converts an update in a non-storage version, bumping generation in the stored one", async () => {
    const before = await api(env, "GET", `${v1}/converted`);
    const r = await api(
      env,
      "PATCH",
      `${v2}/converted`,
      { spec: { replicas: 5 } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec).toEqual({ replicas: 5 });
    const after = await api(env, "GET", `${v1}/converted`);
    expect(after.body.spec).toEqual({ size: 5 });
    expect(after.body.metadata.generation).toBe(before.body.metadata.generation + 1);
    // The v1 validating webhook saw the update converted (Equivalent), old and new.
    const call = seen.get("/validate-demo-example-com-v1-appcluster")!.at(-1).review.request;
    expect(call).toMatchObject({ operation: "UPDATE", requestKind: { version: "v2" } });
    expect(call.oldObject.spec).toEqual({ size: 3 });
    expect(call.object.spec).toEqual({ size: 5 });
  });

  it("validates spec.conversion as kube does", async () => {
    const base = yamlCrd("widgets");
    const r = await api(env, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      ...base,
      spec: {
        ...base.spec,
        conversion: { strategy: "Webhook", webhook: { conversionReviewVersions: ["v9"] } },
      },
    });
    expect(r.status).toBe(422);
    const causes = r.body.details.causes.map((c: Json) => `${c.field}: ${c.message}`);
    expect(causes).toEqual([
      "spec.conversion.webhook.clientConfig: Required value: required when strategy is set to Webhook",
      'spec.conversion.webhook.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1',
    ]);
  });

  it("converts watch events", async () => {
    const w = await watchStream(env, `${v2}?watch=true&resourceVersion=0`);
    try {
      await api(env, "POST", v1, appcluster("watched", 4));
      await expect
        .poll(() => w.events.find((e) => e.object.metadata.name === "watched"))
        .toBeTruthy();
      const ev = w.events.find((e) => e.object.metadata.name === "watched");
      expect(ev.object).toMatchObject({ apiVersion: `${group}/v2`, spec: { replicas: 4 } });
    } finally {
      w.close();
    }
  });

  it("fails a read with the webhook's message when it reports a failed conversion", async () => {
    const created = await api(env, "POST", v1, appcluster("unconvertible", 1, { convert: "fail" }));
    expect(created.status, created.text).toBe(201);
    const r = await api(env, "GET", `${v2}/unconvertible`);
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      `Internal error occurred: conversion webhook for ${group}/v1, Kind=AppCluster failed: spec.size cannot be converted`,
    );
    expect((await api(env, "DELETE", `${v1}/unconvertible`)).status).toBe(200);
  });

  it("fails reads in other versions with kube's error when the webhook is down", async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    try {
      const r = await api(env, "GET", `${v2}/converted`);
      expect(r.status).toBe(500);
      expect(r.body.message).toBe(
        `Internal error occurred: conversion webhook for ${group}/v1, Kind=AppCluster failed: Post "${env.webhook!.url("/convert")}?timeout=30s": dial tcp 127.0.0.1:${env.webhook!.port}: connect: connection refused`,
      );
      // The storage version needs no conversion.
      expect((await api(env, "GET", `${v1}/converted`)).status).toBe(200);
    } finally {
      await listen(server, env.webhook!.port, env.webhook!.host);
    }
  });
});
