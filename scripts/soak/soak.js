#!/usr/bin/env node
// `npm run soak`: the fault soak. Starts @opgen/envtest in this process with a Widget CRD, runs
// operator replicas built on @opgen/runtime with leader election in child processes, keeps a writer
// changing Widgets while it injects every fault of faults.js in cycles, then stops the faults and
// measures how long every object takes to converge, whether two reconciles of one key ever ran at
// once, how long leader hand-overs took and how the replicas' heaps grew. Exits 1 when an object
// does not converge within the bound, a reconcile overlapped, or a hand-over did not happen.
// Figures and what each fault models: docs/reliability.md.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startTestEnv } from "../../packages/envtest/dist/index.js";
import { createLogger, createManager } from "../../packages/runtime/dist/index.js";
import { FAULTS } from "./faults.js";
import { overlaps, Replicas } from "./replicas.js";
import { converged, Widget, widget, writeWidgetCrd } from "./widget.js";

const USAGE = `Usage: npm run soak -- [options]
  --duration <time>          whole fault cycles are run until this has passed (default 60s)
  --objects <n>              Widgets reconciled (default 200)
  --replicas <n>             operator replicas with leader election (default 2)
  --writes <n>               spec updates per second during the faults (default 20)
  --kills-every <n>          stop the leader in the first cycle and every n-th after it (default 1;
                             a large n keeps the later replicas alive, to measure their heap longer)
  --storm <time>             length of each 409/429/5xx storm (default 3s)
  --gap <time>               quiet time after each fault (default 2s)
  --lease <time>             lease duration (default 15s, controller-runtime's)
  --renew <time>             renew deadline (default 10s)
  --retry <time>             retry period (default 2s)
  --work <time>              time each reconcile spends working (default 5ms)
  --converge-timeout <time>  bound on convergence after the faults stop (default 120s)
  --ignore <name>            the replicas never reconcile this Widget (to see the soak fail)
  --json                     print the results as JSON instead of a table
  --verbose                  pass the replicas' error logs through`;

function fail(message) {
  process.stderr.write(`soak: ${message}\n`);
  process.exit(2);
}

function duration(flag, text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text ?? "");
  if (!m) fail(`${flag} ${text}: expected a duration such as 500ms, 30s or 2m`);
  return Number(m[1]) * { ms: 1, s: 1_000, m: 60_000 }[m[2]];
}

function count(flag, text, min) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) fail(`${flag} ${text}: expected an integer >= ${min}`);
  return n;
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        duration: { type: "string", default: "60s" },
        objects: { type: "string", default: "200" },
        replicas: { type: "string", default: "2" },
        writes: { type: "string", default: "20" },
        "kills-every": { type: "string", default: "1" },
        storm: { type: "string", default: "3s" },
        gap: { type: "string", default: "2s" },
        lease: { type: "string", default: "15s" },
        renew: { type: "string", default: "10s" },
        retry: { type: "string", default: "2s" },
        work: { type: "string", default: "5ms" },
        "converge-timeout": { type: "string", default: "120s" },
        ignore: { type: "string" },
        json: { type: "boolean", default: false },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (e) {
    fail(`${e.message.split("\n")[0]}\n${USAGE}`);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const o = {
    durationMs: duration("--duration", parsed.duration),
    objects: count("--objects", parsed.objects, 1),
    replicas: count("--replicas", parsed.replicas, 2),
    writesPerSecond: count("--writes", parsed.writes, 0),
    killsEvery: count("--kills-every", parsed["kills-every"], 1),
    stormMs: duration("--storm", parsed.storm),
    gapMs: duration("--gap", parsed.gap),
    leaseMs: duration("--lease", parsed.lease),
    renewMs: duration("--renew", parsed.renew),
    retryMs: duration("--retry", parsed.retry),
    workMs: duration("--work", parsed.work),
    convergeTimeoutMs: duration("--converge-timeout", parsed["converge-timeout"]),
    ignore: parsed.ignore,
    json: parsed.json,
    verbose: parsed.verbose,
  };
  // client-go's (and the runtime's) rules for the three leader-election durations.
  if (o.leaseMs <= o.renewMs) fail("--lease must be longer than --renew");
  if (o.renewMs <= o.retryMs * 1.2) fail("--renew must be longer than 1.2 × --retry");
  return o;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Keeps setting spec.value of random Widgets to a new value with merge patches (no read, no
 * conflict), as users and other controllers would; a write refused by a fault is not counted.
 */
function startWriter(client, o) {
  const stats = { ok: 0, failed: 0 };
  const values = new Map();
  let running = o.writesPerSecond > 0;
  const loop = (async () => {
    const interval = 1000 / Math.max(1, o.writesPerSecond);
    while (running) {
      const started = now();
      const name = `w-${Math.floor(Math.random() * o.objects)}`;
      const value = (values.get(name) ?? 0) + 1;
      try {
        await client.patch(widget(name, 0), { spec: { value } });
        values.set(name, value);
        stats.ok++;
      } catch {
        stats.failed++;
      }
      await sleep(Math.max(0, interval - (now() - started)));
    }
  })();
  return {
    stats,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Polls the server until every Widget has converged or `timeoutMs` passes. */
async function waitConverged(client, timeoutMs) {
  const started = now();
  for (;;) {
    let pending;
    try {
      pending = (await client.list(Widget, { namespace: "default" })).filter((w) => !converged(w));
    } catch {
      pending = undefined;
    }
    if (pending && pending.length === 0) return { ms: now() - started, pending: [] };
    if (now() - started > timeoutMs) {
      return { ms: now() - started, pending: (pending ?? []).map((w) => w.metadata.name) };
    }
    await sleep(100);
  }
}

function heapGrowth(replicas, sinceMs) {
  // The longest-lived replica that is still running, from its first sample after warming up.
  const live = replicas
    .alive()
    .map((r) => ({ r, samples: r.heap.filter((s) => s.at >= r.startedAt + sinceMs) }))
    .filter((x) => x.samples.length >= 2)
    .sort((x, y) => x.r.startedAt - y.r.startedAt);
  const first = live[0];
  if (!first) return undefined;
  const a = first.samples[0];
  const b = first.samples.at(-1);
  // Past its first minute (JIT, caches and pools warmed up) growth should be nil: a leak shows here.
  const late = first.samples.filter((s) => s.at >= first.r.startedAt + 60_000);
  const lateSpan = late.length >= 2 ? late.at(-1).at - late[0].at : 0;
  return {
    late:
      lateSpan >= 60_000
        ? { overMs: lateSpan, growthMiB: (late.at(-1).heapUsed - late[0].heapUsed) / 2 ** 20 }
        : undefined,
    replica: first.r.name,
    overMs: b.at - a.at,
    fromMiB: a.heapUsed / 2 ** 20,
    toMiB: b.heapUsed / 2 ** 20,
    growthMiB: (b.heapUsed - a.heapUsed) / 2 ** 20,
    rssMiB: b.rss / 2 ** 20,
  };
}

async function main() {
  const o = options();
  const startedAt = now();
  const tmp = mkdtempSync(join(os.tmpdir(), "opgen-soak-"));
  const env = await startTestEnv({
    crdDirectoryPaths: [writeWidgetCrd(tmp)],
    kubeconfigPath: join(tmp, "kubeconfig"),
    gc: false,
  });
  const client = createManager({
    kubeconfig: env.kubeconfig,
    metricsBindAddress: "0",
    logger: createLogger({ level: "error", write: () => {} }),
  }).apiReader;
  const replicas = new Replicas({
    count: o.replicas,
    verbose: o.verbose,
    config: {
      kubeconfig: env.kubeconfigPath,
      leaseMs: o.leaseMs,
      renewMs: o.renewMs,
      retryMs: o.retryMs,
      workMs: o.workMs,
      ignore: o.ignore,
    },
  });
  const failures = [];
  const results = { options: o, faults: [], failures, handovers: [] };
  let heapTimer;
  let writer;
  try {
    for (let i = 0; i < o.objects; i++) await client.create(widget(`w-${i}`, 0));
    replicas.start();
    const initial = await waitConverged(client, o.convergeTimeoutMs + o.leaseMs);
    results.initialConvergenceMs = initial.ms;
    if (initial.pending.length > 0) {
      throw new Error(
        `${initial.pending.length} of ${o.objects} Widgets did not converge before any fault (${initial.pending.slice(0, 5).join(", ")})`,
      );
    }
    await replicas.sampleHeap();
    heapTimer = setInterval(() => void replicas.sampleHeap(), 5_000);

    // The fault phase: whole cycles until the duration has passed (at least one).
    writer = startWriter(client, o);
    const ctx = {
      env,
      replicas,
      failures,
      handovers: results.handovers,
      stormMs: o.stormMs,
      leaseMs: o.leaseMs,
      renewMs: o.renewMs,
    };
    const phaseStart = now();
    let cycle = 0;
    while (cycle === 0 || now() - phaseStart < o.durationMs) {
      const faults = FAULTS.filter((f) => !f.leaderKill || cycle % o.killsEvery === 0);
      for (const fault of faults) {
        const at = now();
        const note = await fault.inject(ctx);
        results.faults.push({ fault: fault.name, at: at - phaseStart, ms: now() - at, note });
        // No quiet time after the last fault: convergence is measured from its end.
        const last = fault === faults.at(-1) && now() - phaseStart >= o.durationMs;
        if (!last) await sleep(o.gapMs);
      }
      cycle++;
    }
    await writer.stop();
    env.faults.reset();
    const faultsStoppedAt = now();
    results.faultPhaseMs = faultsStoppedAt - phaseStart;
    results.cycles = cycle;
    results.writes = writer.stats;

    // Convergence: every Widget's status reflects its last spec, read from the server.
    const end = await waitConverged(client, o.convergeTimeoutMs);
    results.convergenceMs = end.ms;
    results.unconverged = end.pending;
    if (end.pending.length > 0) {
      failures.push(
        `${end.pending.length} of ${o.objects} Widgets did not converge within ${o.convergeTimeoutMs / 1000} s (${end.pending.slice(0, 5).join(", ")})`,
      );
    }
    // Let the last reconciles finish before counting, then take the final heap samples.
    await sleep(Math.max(1_000, o.retryMs));
    clearInterval(heapTimer);
    await replicas.sampleHeap();
    results.heap = heapGrowth(replicas, 5_000);
    // Every sample, for --json readers who want the curve rather than its two ends.
    results.heapSamples = replicas.incarnations.map((r) => ({
      replica: r.name,
      samples: r.heap.map((h) => [
        Math.round(h.at - startedAt),
        Number((h.heapUsed / 2 ** 20).toFixed(2)),
      ]),
    }));
    for (const r of replicas.incarnations) {
      if (r.killedWith === "SIGTERM" && r.exit && r.exit.code !== 0) {
        failures.push(
          `${r.name} did not stop cleanly on SIGTERM (exit ${r.exit.code ?? r.exit.signal})`,
        );
      }
    }
    results.unexpectedExits = replicas.incarnations
      .filter((r) => r.exit && !r.killedWith)
      .map((r) => ({ replica: r.name, code: r.exit.code, signal: r.exit.signal }));
  } catch (e) {
    failures.push(e.message);
  } finally {
    clearInterval(heapTimer);
    await writer?.stop();
    await replicas.stop(45_000);
    await env.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  const found = overlaps(replicas.intervals);
  results.overlaps = found.length;
  if (found.length > 0) {
    const { key, a, b } = found[0];
    failures.push(
      `${found.length} overlapping reconciles of one key (first: ${key}, ${a.who} and ${b.who})`,
    );
  }
  results.reconciles = replicas.reconciles;
  results.replicaErrorLines = replicas.errorLines;
  results.incarnations = replicas.incarnations.length;
  results.totalMs = now() - startedAt;
  results.machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "unknown",
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
  process.stdout.write(o.json ? `${JSON.stringify(results, null, 2)}\n` : report(results));
  if (failures.length > 0) {
    process.stderr.write(`${failures.map((f) => `soak failed: ${f}`).join("\n")}\n`);
    if (replicas.lastErrors.length > 0 && !o.json) {
      process.stderr.write(`last replica errors:\n${replicas.lastErrors.join("\n")}\n`);
    }
  }
  process.exitCode = failures.length > 0 ? 1 : 0;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
}

function report(r) {
  const o = r.options;
  const lines = [];
  const table = (rows) => {
    const w = Math.max(...rows.map(([a]) => a.length));
    for (const [a, b] of rows) lines.push(`  ${a.padEnd(w)}  ${b}`);
  };
  lines.push(
    `opgen soak: ${o.objects} Widgets, ${o.replicas} replicas (leader stopped in ${o.killsEvery === 1 ? "every cycle" : `cycle 1 and every ${o.killsEvery}th`}; lease ${seconds(o.leaseMs)}, renew ${seconds(o.renewMs)}, retry ${seconds(o.retryMs)}), ${o.writesPerSecond} writes/s, storms of ${seconds(o.stormMs)}`,
    `machine: ${r.machine.cpus} cores (${r.machine.cpu}), Node ${r.machine.node}, ${r.machine.platform}`,
    "",
    "faults injected:",
  );
  table(r.faults.map((f) => [`${seconds(f.at).padStart(7)}  ${f.fault}`, f.note]));
  const byKind = (signal) => r.handovers.filter((h) => h.signal === signal).map((h) => h.ms);
  const range = (xs) =>
    xs.length === 0
      ? "none"
      : `${seconds(Math.min(...xs))} – ${seconds(Math.max(...xs))} (${xs.length})`;
  lines.push("", "figures:");
  table([
    ["fault phase", `${seconds(r.faultPhaseMs ?? 0)} (${r.cycles ?? 0} cycle(s))`],
    [
      "writer updates",
      r.writes ? `${r.writes.ok} applied, ${r.writes.failed} refused by faults` : "-",
    ],
    ["initial convergence", seconds(r.initialConvergenceMs ?? 0)],
    [
      "convergence after the faults stopped",
      r.convergenceMs === undefined
        ? "-"
        : `${seconds(r.convergenceMs)} (${o.objects - (r.unconverged?.length ?? o.objects)}/${o.objects} Widgets; bound ${seconds(o.convergeTimeoutMs)})`,
    ],
    ["overlapping reconciles of one key", String(r.overlaps)],
    ["leader hand-over, SIGKILL", range(byKind("SIGKILL"))],
    ["leader hand-over, graceful release", range(byKind("SIGTERM"))],
    [
      "replica heap growth",
      r.heap
        ? `${signed(r.heap.growthMiB)} MiB (${r.heap.fromMiB.toFixed(1)} → ${r.heap.toMiB.toFixed(1)} MiB after GC, ${r.heap.replica} over ${seconds(r.heap.overMs)}${r.heap.late ? `; ${signed(r.heap.late.growthMiB)} MiB in its last ${seconds(r.heap.late.overMs)}` : ""}; RSS ${r.heap.rssMiB.toFixed(0)} MiB)`
        : "no replica lived long enough to measure",
    ],
    ["reconciles", String(r.reconciles)],
    [
      "replica processes",
      `${r.incarnations} started; unexpected exits: ${(r.unexpectedExits ?? []).map((x) => `${x.replica} (${x.code ?? x.signal})`).join(", ") || "none"}`,
    ],
    ["total run", seconds(r.totalMs)],
  ]);
  lines.push("", r.failures.length === 0 ? "PASS" : `FAIL (${r.failures.length})`, "");
  return lines.join("\n");
}

await main();
