// Benchmarks of @opgen/envtest (built dist/): start-to-ready and stop, create/get/list throughput
// over HTTPS with keep-alive, server-side apply throughput, watch event rate, memory per stored
// object, watch fan-out to 100 watchers. No peer: kube-apiserver + etcd cannot run on these machines (upstream envtest
// starts in seconds; its figures are not measured here).
import { Agent, request } from "node:https";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { webhookRows } from "./envtest-webhooks.js";
import { round, row, summarize, timeIt } from "./lib.js";

const { ApiServer, startTestEnv } = await import("../packages/envtest/dist/index.js");

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

/** A small HTTPS client with keep-alive for throughput figures (client overhead kept low). */
function client(env, concurrency) {
  const cluster = env.kubeconfig.getCurrentCluster();
  const ca = Buffer.from(cluster.caData, "base64");
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca });
  const send = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${env.url}${path}`,
        {
          method,
          agent,
          headers: {
            Authorization: `Bearer ${env.adminToken}`,
            Accept: "application/json",
            ...(payload
              ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }
              : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            if (res.statusCode >= 300)
              reject(new Error(`${method} ${path}: ${res.statusCode} ${Buffer.concat(chunks)}`));
            else resolve(Buffer.concat(chunks));
          });
        },
      );
      req.on("error", reject);
      if (payload) req.write(payload);
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

/** Runs `count` calls of `fn(i)` with `concurrency` in flight; returns ops/s. */
async function throughput(count, concurrency, fn) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/** Opens a watch and resolves `done` once `expected` events arrived. */
function watch(env, path, expected) {
  const cluster = env.kubeconfig.getCurrentCluster();
  const ca = Buffer.from(cluster.caData, "base64");
  let seen = 0;
  let resolveDone;
  const done = new Promise((r) => {
    resolveDone = r;
  });
  const req = request(`${env.url}${path}`, {
    method: "GET",
    ca,
    headers: { Authorization: `Bearer ${env.adminToken}` },
  });
  const started = new Promise((resolve, reject) => {
    req.on("response", (res) => {
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (c) => {
        buf += c;
        let i = buf.indexOf("\n");
        while (i >= 0) {
          seen++;
          buf = buf.slice(i + 1);
          i = buf.indexOf("\n");
        }
        if (seen >= expected) resolveDone();
      });
      resolve();
    });
    req.on("error", (e) => (e.code === "ECONNRESET" ? undefined : reject(e)));
  });
  req.end();
  return { started, done, close: () => req.destroy() };
}

const cm = (i) => ({
  metadata: { name: `cm-${i}`, labels: { app: "bench", shard: String(i % 10) } },
  data: { key: `value-${i}` },
});

/** A Deployment as three managers apply parts of it (`round` varies what they set). */
function applied(i, manager, round) {
  const metadata = { name: `d-${i}`, labels: { app: `d-${i}` } };
  if (manager === "deployer") {
    return {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata,
      spec: {
        selector: { matchLabels: { app: `d-${i}` } },
        template: {
          metadata: { labels: { app: `d-${i}` } },
          spec: {
            containers: [
              { name: "web", image: `nginx:1.${round % 3}`, ports: [{ containerPort: 80 }] },
              { name: "sidecar", image: "busybox", args: ["sleep", "3600"] },
            ],
          },
        },
      },
    };
  }
  if (manager === "labeller")
    return {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {
        name: `d-${i}`,
        labels: { team: `t-${round % 4}` },
        annotations: { round: `${round}` },
      },
    };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: `d-${i}` },
    spec: { replicas: 1 + (round % 3) },
  };
}

/**
 * Server-side apply throughput: `count` applies to `count / 20` Deployments by three managers in
 * turn (a deployer owning the pod template, a labeller adding labels and annotations, a scaler
 * taking spec.replicas with force), so most applies merge into an object others own parts of.
 */
async function applyRate(http, count) {
  const objects = count / 20;
  const managers = ["deployer", "labeller", "scaler"];
  const base = "/apis/apps/v1/namespaces/default/deployments";
  for (let i = 0; i < objects; i++)
    await http.send("PATCH", `${base}/d-${i}?fieldManager=deployer`, applied(i, "deployer", 0), {
      "Content-Type": "application/apply-patch+yaml",
    });
  return throughput(count, 8, (k) => {
    const i = k % objects;
    const round = Math.floor(k / objects);
    const manager = managers[round % 3];
    const force = manager === "scaler" ? "&force=true" : "";
    return http.send(
      "PATCH",
      `${base}/d-${i}?fieldManager=${manager}${force}`,
      applied(i, manager, round),
      { "Content-Type": "application/apply-patch+yaml" },
    );
  });
}

export async function run({ quick }) {
  const rows = [];

  // Start-to-ready and stop (the first start of a process also generates the RSA key).
  const coldStart = performance.now();
  const cold = await startTestEnv();
  const coldMs = performance.now() - coldStart;
  await cold.stop();
  const stops = [];
  const starts = await timeIt(
    async () => {
      const env = await startTestEnv();
      const t = performance.now();
      await env.stop();
      stops.push(performance.now() - t);
    },
    { runs: quick ? 5 : 15, warmup: 1 },
  );
  rows.push(
    row("envtest.start-to-ready", "ms", starts, {
      note: `first start in a process ${round(coldMs)} ms (RSA key and certificates, then shared)`,
    }),
  );
  rows.push(row("envtest.stop", "ms", summarize(stops)));

  // Throughput over HTTPS, 8 requests in flight.
  const env = await startTestEnv();
  const http = client(env, 8);
  const n = quick ? 1000 : 5000;
  const base = "/api/v1/namespaces/default/configmaps";
  const cpuBefore = process.cpuUsage();
  const createRate = await throughput(n, 8, (i) => http.send("POST", base, cm(i)));
  const cpu = process.cpuUsage(cpuBefore);
  rows.push({
    name: "envtest.create",
    value: round(createRate),
    unit: "ops/s",
    note: `${n} ConfigMaps, 8 in flight`,
  });
  // CPU time moves less than wall time when other processes share the machine.
  rows.push({
    name: "envtest.create-cpu",
    value: round((cpu.user + cpu.system) / n),
    unit: "µs/create",
    note: "process CPU (server and the bench's client) per create above",
  });
  const getRate = await throughput(n, 8, (i) => http.send("GET", `${base}/cm-${i}`));
  rows.push({
    name: "envtest.get",
    value: round(getRate),
    unit: "ops/s",
    note: `${n} gets, 8 in flight`,
  });
  const lists = quick ? 20 : 50;
  const listRate = await throughput(lists, 4, () =>
    http.send("GET", `${base}?labelSelector=shard%3D3`),
  );
  rows.push({
    name: "envtest.list",
    value: round(listRate),
    unit: "lists/s",
    note: `label-selected list of ${n / 10} out of ${n}`,
  });

  const applies = quick ? 400 : 2000;
  rows.push({
    name: "envtest.apply",
    value: round(await applyRate(http, applies)),
    unit: "applies/s",
    note: `${applies} server-side applies of ${applies / 20} Deployments by 3 managers, 8 in flight`,
  });

  // Watch event rate: one watcher while the writes happen.
  const events = quick ? 1000 : 5000;
  const rv = JSON.parse(await http.send("GET", `${base}?limit=1`)).metadata.resourceVersion;
  const w = watch(
    env,
    `/api/v1/namespaces/default/secrets?watch=true&resourceVersion=${rv}`,
    events,
  );
  await w.started;
  const t0 = performance.now();
  await throughput(events, 8, (i) =>
    http.send("POST", "/api/v1/namespaces/default/secrets", { metadata: { name: `s-${i}` } }),
  );
  await w.done;
  rows.push({
    name: "envtest.watch-events",
    value: round(events / ((performance.now() - t0) / 1000)),
    unit: "events/s",
    note: `${events} creates observed by one watch`,
  });
  w.close();

  // Watch fan-out: 100 watchers each receive every event.
  const watchers = 100;
  const writes = quick ? 100 : 500;
  const fan = Array.from({ length: watchers }, () =>
    watch(env, "/api/v1/namespaces/default/endpoints?watch=true", writes),
  );
  await Promise.all(fan.map((x) => x.started));
  const t1 = performance.now();
  await throughput(writes, 8, (i) =>
    http.send("POST", "/api/v1/namespaces/default/endpoints", { metadata: { name: `ep-${i}` } }),
  );
  await Promise.all(fan.map((x) => x.done));
  const fanSeconds = (performance.now() - t1) / 1000;
  rows.push({
    name: "envtest.watch-fanout",
    value: round((watchers * writes) / fanSeconds),
    unit: "events/s",
    note: `${watchers} watchers × ${writes} writes delivered in ${round(fanSeconds * 1000)} ms`,
  });
  for (const x of fan) x.close();
  http.close();
  await env.stop();

  // Memory per stored object (in-process store, no HTTP): ConfigMaps with labels and one key.
  for (const count of quick ? [10_000] : [10_000, 100_000]) {
    const server = new ApiServer();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < count; i++) {
      server.systemCreate("", "v1", "configmaps", {
        ...cm(i),
        metadata: { ...cm(i).metadata, namespace: "default" },
      });
    }
    gc();
    const after = process.memoryUsage().heapUsed;
    rows.push({
      name: `envtest.memory-per-object.${count / 1000}k`,
      value: round((after - before) / count / 1024, 2),
      unit: "KiB/object",
      note: "ConfigMap with 2 labels, 1 data key, managedFields; includes watch history",
    });
    await server.close();
  }
  rows.push(...(await webhookRows({ quick })));
  return rows;
}
