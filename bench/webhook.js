// Benchmarks of @opgen/runtime's webhook server (HTTPS with keep-alive, as the API server calls it):
//   webhook.admissionLatency     one defaulting AdmissionReview (decode, defaulter, JSON Patch,
//                                verdict) answered, median per request, beside a bare node:https
//                                server that answers a fixed review on the same TLS setup;
//   webhook.admissionThroughput  reviews answered per second with 16 in flight, same peer;
//   webhook.convertList500       one ConversionReview of 500 objects (v2 → v1 hub) answered;
//   webhook.patchLargeObject     the defaulting patch of an object with 200 containers when one
//                                label is added (diff only, no HTTP).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { round, row, summarize, timeIt } from "./lib.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = (p) => import(join(root, "packages/runtime/dist", p));
const rt = await dist("index.js");
const { WebhookServer } = await dist("webhook/server.js");
const { defaultingHandler } = await dist("webhook/handlers.js");
const { createJsonPatch } = await dist("webhook/patch.js");
const { selfSignedCertificate } = await dist("tls/self-signed.js");

const Kind = rt.defineKind({
  group: "bench.example.com",
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

function object(i) {
  return {
    apiVersion: "bench.example.com/v1",
    kind: "AppCluster",
    metadata: { name: `a-${i}`, namespace: "default", uid: `uid-${i}` },
    spec: { size: 2, image: "nginx:1.27" },
  };
}

function review(i) {
  return JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: `r-${i}`,
      kind: { group: "bench.example.com", version: "v1", kind: "AppCluster" },
      resource: { group: "bench.example.com", version: "v1", resource: "appclusters" },
      namespace: "default",
      name: `a-${i}`,
      operation: "CREATE",
      userInfo: { username: "kubernetes-admin" },
      object: object(i),
    },
  });
}

function post(agent, port, path, body) {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        servername: "localhost",
        headers: { "Content-Type": "application/json" },
      },
      (res) => {
        let n = 0;
        res.on("data", (c) => {
          n += c.length;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve(n) : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function startServers() {
  const pair = selfSignedCertificate();
  const dir = mkdtempSync(join(tmpdir(), "opgen-bench-webhook-"));
  writeFileSync(join(dir, "tls.crt"), pair.cert);
  writeFileSync(join(dir, "tls.key"), pair.key);
  const server = new WebhookServer(
    { host: "127.0.0.1", port: 0, certDir: dir },
    { log: rt.nullLogger },
  );
  server.registerAdmission(
    "/mutate",
    defaultingHandler(Kind, {
      default(_ctx, obj) {
        obj.metadata.labels = { tier: "web", ...obj.metadata.labels };
      },
    }),
  );
  server.registerConversion({
    group: "bench.example.com",
    kind: "AppCluster",
    hub: "v1",
    spokes: new Map([
      [
        "v2",
        {
          toHub: (o) => ({
            metadata: o.metadata,
            spec: { size: o.spec.replicas, image: o.spec.image },
          }),
          fromHub: (o) => ({
            metadata: o.metadata,
            spec: { replicas: o.spec.size, image: o.spec.image },
          }),
        },
      ],
    ]),
  });
  await server.start();
  // The peer: the least an HTTPS webhook can do, a fixed answer after reading the body.
  const fixed = `${JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid: "x", allowed: true } })}\n`;
  const bare = https.createServer(
    { cert: pair.cert, key: pair.key, minVersion: "TLSv1.2", ALPNProtocols: ["http/1.1"] },
    (req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end(fixed));
    },
  );
  await new Promise((r) => bare.listen(0, "127.0.0.1", r));
  return {
    ca: pair.ca,
    port: server.port,
    barePort: bare.address().port,
    stop: async () => {
      await server.close();
      bare.closeAllConnections();
      await new Promise((r) => bare.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function latency(agent, port, path, n) {
  const samples = [];
  for (let i = 0; i < n + 20; i++) {
    const start = performance.now();
    await post(agent, port, path, review(i));
    if (i >= 20) samples.push(performance.now() - start); // after a warm-up
  }
  return summarize(samples);
}

async function throughput(agent, port, path, n, inFlight) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) await post(agent, port, path, review(next++));
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

export async function run({ quick }) {
  const s = await startServers();
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16, ca: s.ca });
  try {
    const rows = [];
    const n = quick ? 200 : 2000;
    const ours = await latency(agent, s.port, "/mutate", n);
    const peer = await latency(agent, s.barePort, "/", n);
    // Sub-millisecond figures keep two decimals (row() rounds to one).
    const value = round(ours.median, 2);
    const peerValue = round(peer.median, 2);
    rows.push({
      ...row("webhook.admissionLatency", "ms", ours, {
        peer: "bare node:https",
        peerValue,
        note: `median of ${n} defaulting reviews`,
      }),
      value,
      ratio: round(value / peerValue, 2),
    });
    const tOurs = [];
    const tPeer = [];
    for (let r = 0; r < (quick ? 1 : 3); r++) {
      tOurs.push(await throughput(agent, s.port, "/mutate", n, 16));
      tPeer.push(await throughput(agent, s.barePort, "/", n, 16));
    }
    const ourT = summarize(tOurs);
    const peerT = summarize(tPeer);
    rows.push(
      row("webhook.admissionThroughput", "req/s", ourT, {
        peer: "bare node:https",
        peerValue: Math.round(peerT.median),
        note: "16 in flight, keep-alive",
      }),
    );
    const list = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "c",
        desiredAPIVersion: "bench.example.com/v1",
        objects: Array.from({ length: 500 }, (_, i) => ({
          ...object(i),
          apiVersion: "bench.example.com/v2",
          spec: { replicas: i, image: "nginx:1.27" },
        })),
      },
    });
    const conv = await timeIt(() => post(agent, s.port, "/convert", list), {
      runs: quick ? 3 : 10,
    });
    rows.push(
      row("webhook.convertList500", "ms", conv, { note: "one ConversionReview, 500 objects" }),
    );
    const big = {
      ...object(0),
      spec: {
        containers: Array.from({ length: 200 }, (_, i) => ({
          name: `c${i}`,
          image: "nginx:1.27",
          env: [{ name: "A", value: String(i) }],
          ports: [{ containerPort: 8000 + i }],
        })),
      },
    };
    const patch = await timeIt(
      () => {
        const copy = structuredClone(big);
        copy.metadata.labels = { tier: "web" };
        if (createJsonPatch(big, copy).length !== 1) throw new Error("expected one operation");
      },
      { runs: quick ? 5 : 50, warmup: 3 },
    );
    rows.push({
      ...row("webhook.patchLargeObject", "ms", patch, { note: "200 containers, one label added" }),
      value: round(patch.median, 2),
    });
    return rows;
  } finally {
    agent.destroy();
    await s.stop();
  }
}
