// Benchmarks of @opgen/runtime against the embedded API server (run in a child process, as a
// real API server would be):
//   runtime.reconcile1k.wN    1,000 existing CRs → all reconciled with status written, N workers,
//                             beside a plain client-node informer + queue operator written the
//                             obvious way (same reconcile, same worker count);
//   runtime.cacheBytesPerObject  heap bytes per cached ConfigMap at 10k objects, beside the JSON
//                             size and the plain client-node informer's cache;
//   runtime.idleWrites        API writes during a full resync of N unchanged objects (must be 0);
//   runtime.operatorStart     a generated operator's main (one controller) from process spawn to
//                             its first reconcile, and its RSS then (runtime.operatorRss).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { CoreV1Api, CustomObjectsApi, makeInformer } from "@kubernetes/client-node";
import { startEnvtestChild } from "./envtest-child.js";
import { round, row, summarize } from "./lib.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const rt = await import(join(root, "packages/runtime/dist/index.js"));
// The cache-memory rows drive the cache directly over the runtime's internal transport.
const { RestClient } = await import(join(root, "packages/runtime/dist/internal/rest/http.js"));

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

const GROUP = "demo.my.domain";
const AppCluster = rt.defineKind({
  group: GROUP,
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

function crdFile() {
  const dir = mkdtempSync(join(tmpdir(), "opgen-bench-crd-"));
  const file = join(dir, "appclusters.yaml");
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `appclusters.${GROUP}` },
      spec: {
        group: GROUP,
        names: {
          kind: "AppCluster",
          listKind: "AppClusterList",
          plural: "appclusters",
          singular: "appcluster",
        },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: { type: "object", properties: { size: { type: "integer" } } },
                  status: {
                    type: "object",
                    properties: {
                      ready: { type: "integer" },
                      conditions: {
                        type: "array",
                        items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    }),
  );
  return dir;
}

/** Runs `fn` over `items` with `concurrency` in flight. */
async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

let nsSeq = 0;
async function freshNamespace(client) {
  const name = `bench-${process.pid}-${++nsSeq}`;
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  return name;
}

async function createAppClusters(client, ns, n) {
  await pool(
    Array.from({ length: n }, (_, i) => i),
    32,
    (i) =>
      client.create({
        apiVersion: `${GROUP}/v1`,
        kind: "AppCluster",
        metadata: { name: `app-${i}`, namespace: ns },
        spec: { size: (i % 5) + 1 },
      }),
  );
}

function quietManager(kc, extra = {}) {
  return rt.createManager({
    kubeconfig: kc,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    logger: rt.nullLogger,
    ...extra,
  });
}

/** The opgen operator: reconcile = write status.ready = spec.size when it differs. */
async function runtimeReconcile(kc, ns, n, workers) {
  const mgr = quietManager(kc, { namespaces: [ns] });
  let written = 0;
  let done;
  const all = new Promise((r) => {
    done = r;
  });
  mgr
    .controller(AppCluster)
    .options({ maxConcurrentReconciles: workers })
    .complete({
      async reconcile(req) {
        const app = await mgr.client.get(AppCluster, req).catch(rt.ignoreNotFound);
        if (!app || app.status?.ready === app.spec.size) return {};
        app.status = { ready: app.spec.size };
        await mgr.client.status().update(app);
        if (++written === n) done();
        return {};
      },
    });
  const ac = new AbortController();
  const started = performance.now();
  const running = mgr.start(ac.signal);
  await all;
  const ms = performance.now() - started;
  ac.abort();
  await running;
  return ms;
}

/** The same operator written the obvious way on client-node: makeInformer + a Set queue. */
async function plainReconcile(kc, ns, n, workers) {
  const api = kc.makeApiClient(CustomObjectsApi);
  const informer = makeInformer(kc, `/apis/${GROUP}/v1/namespaces/${ns}/appclusters`, () =>
    api.listNamespacedCustomObject({
      group: GROUP,
      version: "v1",
      namespace: ns,
      plural: "appclusters",
    }),
  );
  const queue = new Set();
  const inFlight = new Set();
  let wake;
  const enqueue = (obj) => {
    queue.add(obj.metadata.name);
    wake?.();
  };
  informer.on("add", enqueue);
  informer.on("update", enqueue);
  let written = 0;
  let stopped = false;
  let done;
  const all = new Promise((r) => {
    done = r;
  });
  const worker = async () => {
    while (!stopped) {
      const name = [...queue].find((k) => !inFlight.has(k));
      if (name === undefined) {
        await new Promise((r) => {
          wake = r;
          setTimeout(r, 50);
        });
        continue;
      }
      queue.delete(name);
      inFlight.add(name);
      try {
        const app = informer.get(name, ns);
        if (app && app.status?.ready !== app.spec.size) {
          await api.replaceNamespacedCustomObjectStatus({
            group: GROUP,
            version: "v1",
            namespace: ns,
            plural: "appclusters",
            name,
            body: { ...app, status: { ready: app.spec.size } },
          });
          if (++written === n) done();
        }
      } catch {
        queue.add(name); // retry on conflict or error
      } finally {
        inFlight.delete(name);
      }
    }
  };
  const started = performance.now();
  await informer.start();
  const ws = Array.from({ length: workers }, worker);
  await all;
  const ms = performance.now() - started;
  stopped = true;
  wake?.();
  await Promise.all(ws);
  await informer.stop();
  return ms;
}

async function reconcileRows(kc, client, quick) {
  const rows = [];
  const n = 1000;
  const runs = quick ? 1 : 3;
  for (const workers of [1, 4]) {
    const ours = [];
    const theirs = [];
    for (let r = 0; r < runs; r++) {
      const ns1 = await freshNamespace(client);
      await createAppClusters(client, ns1, n);
      ours.push(await runtimeReconcile(kc, ns1, n, workers));
      const ns2 = await freshNamespace(client);
      await createAppClusters(client, ns2, n);
      theirs.push(await plainReconcile(kc, ns2, n, workers));
    }
    const a = summarize(ours);
    const b = summarize(theirs);
    rows.push({
      name: `runtime.reconcile1k.w${workers}`,
      value: round(a.median),
      unit: "ms",
      runs: a.runs,
      min: round(a.min),
      max: round(a.max),
      peer: "client-node informer + queue",
      peerValue: round(b.median),
      ratio: round(a.median / b.median, 2),
      note: `${n} CRs listed, reconciled and status written, ${workers} worker${workers > 1 ? "s" : ""}; envtest in a child process`,
    });
  }
  return rows;
}

/** Heap in use after letting stopped watchers settle and collecting twice. */
async function heap() {
  await new Promise((r) => setTimeout(r, 300));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function cacheRows(kc, client) {
  const n = 10_000;
  const ns = await freshNamespace(client);
  await pool(
    Array.from({ length: n }, (_, i) => i),
    32,
    (i) =>
      client.create({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: `cm-${i}`,
          namespace: ns,
          labels: { app: "bench", shard: String(i % 10) },
        },
        data: {
          "config.yaml": `replicas: ${i % 7}\nimage: registry.example.com/app:${i}\nlogLevel: info\n`,
        },
      }),
  );
  const sample = await client.list(rt.kinds.ConfigMap, { namespace: ns, uncached: true });
  const jsonBytes =
    sample.reduce((a, o) => a + Buffer.byteLength(JSON.stringify(o)), 0) / sample.length;
  const withManagedFields = sample.filter((o) => o.metadata?.managedFields?.length).length;
  const strippedBytes =
    sample.reduce((a, o) => {
      const { managedFields: _, ...metadata } = o.metadata ?? {};
      return a + Buffer.byteLength(JSON.stringify({ ...o, metadata }));
    }, 0) / sample.length;

  // Heap deltas are noisy (GC timing, lazily compiled code): median of three fresh opgen caches.
  // client-node's informer is measured once, first: a stopped one stays reachable for a while,
  // which would make later deltas of its own meaningless.
  const theirsSamples = [];
  const core = kc.makeApiClient(CoreV1Api);
  {
    const before = await heap();
    const informer = makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: ns }),
    );
    await informer.start();
    while (informer.list(ns).length < n) await new Promise((r) => setTimeout(r, 20));
    theirsSamples.push(((await heap()) - before) / n);
    await informer.stop();
  }
  const reps = 3;
  const oursSamples = [];
  for (let i = 0; i < reps; i++) {
    const rest = new RestClient(kc);
    const cache = new rt.Cache(rest, { namespaces: [ns], resyncPeriodMs: 0 });
    const before = await heap();
    cache.informerFor(rt.kinds.ConfigMap);
    const ac = new AbortController();
    cache.start(ac.signal);
    await cache.waitForSync(60_000);
    oursSamples.push(((await heap()) - before) / n);
    ac.abort();
    await cache.stopped();
    rest.close();
  }
  // Metadata-only informer (WatchesMetadata): what an owns()/watches() of a big kind costs.
  const metaSamples = [];
  for (let i = 0; i < reps; i++) {
    const rest = new RestClient(kc);
    const cache = new rt.Cache(rest, { namespaces: [ns], resyncPeriodMs: 0 });
    const before = await heap();
    cache.informerFor(rt.kinds.ConfigMap, { metadataOnly: true });
    const ac = new AbortController();
    cache.start(ac.signal);
    await cache.waitForSync(60_000);
    metaSamples.push(((await heap()) - before) / n);
    ac.abort();
    await cache.stopped();
    rest.close();
  }
  const meta = summarize(metaSamples);
  const ours = summarize(oursSamples);
  const theirs = summarize(theirsSamples);
  return [
    {
      name: "runtime.cacheBytesPerObject.metadataOnly",
      value: Math.round(meta.median),
      unit: "bytes",
      runs: meta.runs,
      min: Math.round(meta.min),
      max: Math.round(meta.max),
      peer: "client-node informer",
      peerValue: Math.round(theirs.median),
      ratio: round(meta.median / theirs.median, 2),
      note: `heap per object at ${n} ConfigMaps watched as PartialObjectMetadata (owns/watches with metadataOnly)`,
    },
    {
      name: "runtime.cacheBytesPerObject",
      value: Math.round(ours.median),
      unit: "bytes",
      runs: ours.runs,
      min: Math.round(ours.min),
      max: Math.round(ours.max),
      peer: "client-node informer",
      peerValue: Math.round(theirs.median),
      ratio: round(ours.median / theirs.median, 2),
      note: `heap per object at ${n} ConfigMaps; JSON as served ${Math.round(jsonBytes)} B/object (${withManagedFields === n ? "with" : `${withManagedFields}/${n} with`} managedFields), ${Math.round(strippedBytes)} B without`,
    },
  ];
}

async function idleWriteRows(kc, client, quick) {
  const n = quick ? 2000 : 10_000;
  const ns = await freshNamespace(client);
  await createAppClusters(client, ns, n);
  const mgr = quietManager(kc, { namespaces: [ns] });
  let reconciles = 0;
  mgr
    .controller(AppCluster)
    .options({ maxConcurrentReconciles: 4 })
    .complete({
      async reconcile(req) {
        reconciles++;
        const app = await mgr.client.get(AppCluster, req).catch(rt.ignoreNotFound);
        if (!app) return {};
        const conditions = [...(app.status?.conditions ?? [])];
        const changed = rt.setStatusCondition(conditions, {
          type: "Available",
          status: "True",
          reason: "Reconciled",
          message: "reconciled",
          observedGeneration: app.metadata?.generation,
        });
        if (changed || app.status?.ready !== app.spec.size) {
          app.status = { ...app.status, ready: app.spec.size, conditions };
          await mgr.client.status().update(app);
        }
        return {};
      },
    });
  const writes = async () => {
    const m = await mgr.metrics.registry.getSingleMetric("rest_client_requests_total").get();
    return m.values.filter((v) => v.labels.method !== "GET").reduce((a, v) => a + v.value, 0);
  };
  const ac = new AbortController();
  const running = mgr.start(ac.signal);
  await mgr.elected;
  // Converge: every object reconciled and its status written once.
  while ((await writes()) < n) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));
  const before = await writes();
  const reconcilesBefore = reconciles;
  mgr.cache.informerFor(AppCluster).resync();
  while (reconciles < reconcilesBefore + n) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  const idle = (await writes()) - before;
  ac.abort();
  await running;
  return [
    {
      name: "runtime.idleWrites",
      value: idle,
      unit: "writes",
      note: `full resync of ${n} unchanged objects (${reconciles - reconcilesBefore} reconciles); must be 0`,
    },
  ];
}

export async function run({ quick }) {
  const server = await startEnvtestChild([crdFile()]);
  const client = quietManager(server.kc).apiReader;
  try {
    // OPGEN_BENCH_RUNTIME=cache,idle runs a subset (while working on one figure).
    const only = process.env.OPGEN_BENCH_RUNTIME?.split(",");
    const want = (section) => !only || only.includes(section);
    const rows = [];
    if (want("reconcile")) rows.push(...(await reconcileRows(server.kc, client, quick)));
    if (want("cache")) rows.push(...(await cacheRows(server.kc, client)));
    if (want("idle")) rows.push(...(await idleWriteRows(server.kc, client, quick)));
    if (want("start")) rows.push(...(await operatorStartRows(server, client, quick)));
    return rows;
  } finally {
    await server.stop();
  }
}

/**
 * The scaffolded src/main.ts reduced to one ConfigMap controller, run as its own process: the
 * time from spawn to the first reconcile covers Node's start, importing @opgen/runtime (and what it
 * loads of client-node and the catalog), the kubeconfig, the informer's list and the queue.
 */
const OPERATOR_MAIN = `
  const { createManager, managerOptionsFromArgs, kinds } = await import(${JSON.stringify(join(root, "packages/runtime/dist/index.js"))});
  const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(1)), leaderElectionId: "bench" });
  let done = false;
  mgr.controller(kinds.ConfigMap).complete({
    async reconcile() {
      if (!done) {
        done = true;
        process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss }) + "\\n");
        setImmediate(() => process.exit(0));
      }
      return {};
    },
  });
  await mgr.start(new AbortController().signal);
`;

function startOperator(kubeconfigPath) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        OPERATOR_MAIN,
        "--",
        `--kubeconfig=${kubeconfigPath}`,
        "--metrics-bind-address=0",
        "--health-probe-bind-address=0",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    let result;
    const timer = setTimeout(() => child.kill(), 30_000);
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0 && !result)
        result = { ms: performance.now() - started, rss: JSON.parse(out.slice(0, nl)).rss };
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`operator exited with ${code} before reconciling: ${err}`));
    });
  });
}

async function operatorStartRows(server, client, quick) {
  // One object to reconcile (the earlier sections leave none in "default").
  await client
    .create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "operator-start", namespace: "default" },
      data: { a: "b" },
    })
    .catch((e) => {
      if (e?.reason !== "AlreadyExists") throw e;
    });
  const runs = quick ? 3 : 11;
  const ms = [];
  const rss = [];
  for (let i = 0; i < runs + 1; i++) {
    const r = await startOperator(server.kubeconfigPath);
    if (i === 0) continue; // warm-up: the OS file cache
    ms.push(r.ms);
    rss.push(r.rss / 2 ** 20);
  }
  return [
    row("runtime.operatorStart", "ms", summarize(ms), {
      note: "generated main.ts with one controller: spawn to first reconcile (node -e 0 is ~70 ms)",
    }),
    row("runtime.operatorRss", "MiB", summarize(rss), {
      note: "RSS of that operator at its first reconcile",
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run({ quick: process.argv.includes("--quick") });
  console.log(JSON.stringify(rows, null, 2));
}
