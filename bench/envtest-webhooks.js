// Webhook figures of @opgen/envtest (built dist/), part of `npm run bench -- --only envtest`:
// creates through a validating and a mutating admission webhook, and gets and lists of a custom
// resource served through its conversion webhook, against an in-process HTTPS webhook server set
// up by startTestEnv({ webhooks }). Compare with envtest.create/get/list (no webhooks).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { round } from "./lib.js";

const { startTestEnv, waitForWebhookServer } = await import("../packages/envtest/dist/index.js");

const group = "bench.example.com";

function crd() {
  const schema = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { size: { type: "integer" }, replicas: { type: "integer" } },
      },
    },
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `things.${group}` },
    spec: {
      group,
      names: { kind: "Thing", plural: "things" },
      scope: "Namespaced",
      conversion: {
        strategy: "Webhook",
        webhook: {
          clientConfig: {
            service: { name: "webhook-service", namespace: "system", path: "/convert" },
          },
          conversionReviewVersions: ["v1"],
        },
      },
      versions: ["v1", "v2"].map((name) => ({
        name,
        served: true,
        storage: name === "v1",
        schema: { openAPIV3Schema: schema },
      })),
    },
  };
}

/** The webhook server: allows everything, patches nothing, converts by rewriting apiVersion. */
function answer(path, review) {
  if (path === "/convert") {
    const { uid, desiredAPIVersion, objects } = review.request;
    const convertedObjects = objects.map((o) => ({ ...o, apiVersion: desiredAPIVersion }));
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      response: { uid, result: { status: "Success" }, convertedObjects },
    };
  }
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: { uid: review.request.uid, allowed: true },
  };
}

function client(env, concurrency) {
  const ca = Buffer.from(env.kubeconfig.getCurrentCluster().caData, "base64");
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca });
  const send = (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${env.url}${path}`,
        {
          method,
          agent,
          headers: {
            Authorization: `Bearer ${env.adminToken}`,
            ...(payload
              ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            if (res.statusCode >= 300)
              reject(new Error(`${method} ${path}: ${res.statusCode} ${Buffer.concat(chunks)}`));
            else resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

async function throughput(count, concurrency, fn) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return (count / (performance.now() - start)) * 1000;
}

const hook = (env, name, path) => ({
  name,
  admissionReviewVersions: ["v1"],
  sideEffects: "None",
  clientConfig: { url: env.webhook.url(path), caBundle: env.webhook.caBundle.toString("base64") },
  rules: [
    { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
  ],
});

export async function webhookRows({ quick }) {
  const dir = mkdtempSync(join(tmpdir(), "bench-envtest-webhooks-"));
  writeFileSync(join(dir, "crd.json"), JSON.stringify(crd()));
  const env = await startTestEnv({ crdDirectoryPaths: [join(dir, "crd.json")], webhooks: {} });
  const wh = env.webhook;
  const server = createServer(
    {
      cert: readFileSync(join(wh.certDir, "tls.crt")),
      key: readFileSync(join(wh.certDir, "tls.key")),
    },
    (req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const path = new URL(req.url, "https://x").pathname;
        const body = JSON.stringify(answer(path, JSON.parse(Buffer.concat(chunks).toString())));
        res.writeHead(200, { "Content-Type": "application/json" }).end(body);
      });
    },
  );
  await new Promise((r) => server.listen(wh.port, wh.host, r));
  await waitForWebhookServer(wh);
  const http = client(env, 8);
  const rows = [];
  try {
    const admission = "/apis/admissionregistration.k8s.io/v1";
    await http.send("POST", `${admission}/validatingwebhookconfigurations`, {
      metadata: { name: "v" },
      webhooks: [hook(env, "v.bench.example.com", "/validate")],
    });
    await http.send("POST", `${admission}/mutatingwebhookconfigurations`, {
      metadata: { name: "m" },
      webhooks: [hook(env, "m.bench.example.com", "/mutate")],
    });
    const n = quick ? 500 : 2000;
    const rate = await throughput(n, 8, (i) =>
      http.send("POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: `w-${i}` } }),
    );
    rows.push({
      name: "envtest.create-with-webhooks",
      value: round(rate),
      unit: "ops/s",
      note: `${n} ConfigMaps through a mutating and a validating webhook, 8 in flight`,
    });

    const things = `/apis/${group}/v1/namespaces/default/things`;
    const count = 500;
    await throughput(count, 8, (i) =>
      http.send("POST", things, {
        apiVersion: `${group}/v1`,
        kind: "Thing",
        metadata: { name: `t-${i}` },
        spec: { size: i },
      }),
    );
    const gets = quick ? 500 : 2000;
    const getRate = await throughput(gets, 8, (i) =>
      http.send("GET", `/apis/${group}/v2/namespaces/default/things/t-${i % count}`),
    );
    rows.push({
      name: "envtest.get-converted",
      value: round(getRate),
      unit: "ops/s",
      note: `${gets} gets in a non-storage version (one ConversionReview each), 8 in flight`,
    });
    const lists = quick ? 10 : 40;
    const start = performance.now();
    for (let i = 0; i < lists; i++)
      await http.send("GET", `/apis/${group}/v2/namespaces/default/things`);
    rows.push({
      name: "envtest.list-converted",
      value: round((performance.now() - start) / lists),
      unit: "ms",
      note: `list of ${count} in a non-storage version (one ConversionReview)`,
    });
  } finally {
    http.close();
    server.closeAllConnections();
    server.close();
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
