// One operator replica of the soak, in its own process so that it can be killed with SIGKILL: an
// @opgen/runtime manager with leader election that reconciles Widgets (status.value follows
// spec.value), stopping gracefully on SIGTERM as a generated main.ts does. It reports to the soak
// over IPC: every reconcile's start and end (to find overlapping reconciles of one key), the moment
// it became leader, and its heap after a forced GC on request.
import { performance } from "node:perf_hooks";
import {
  createLogger,
  createManager,
  ignoreNotFound,
  setupSignalHandler,
} from "../../packages/runtime/dist/index.js";
import { Widget } from "./widget.js";

const config = JSON.parse(process.env.SOAK_REPLICA ?? "{}");
const now = () => performance.timeOrigin + performance.now();
const send = (msg) => {
  if (process.connected) process.send(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const mgr = createManager({
  kubeconfig: config.kubeconfig,
  metricsBindAddress: "0",
  healthProbeBindAddress: "0",
  leaderElection: true,
  leaderElectionId: "soak",
  leaderElectionNamespace: "default",
  leaseDurationMs: config.leaseMs,
  renewDeadlineMs: config.renewMs,
  retryPeriodMs: config.retryMs,
  // Several workers, so a broken workqueue would show as overlapping reconciles of one key.
  controller: { maxConcurrentReconciles: 4 },
  logger: createLogger({
    level: "error",
    write: (line) => process.stderr.write(`[${config.name}] ${line}\n`),
  }),
});

mgr.controller(Widget).complete({
  async reconcile(req) {
    const id = `${req.namespace}/${req.name}`;
    const start = now();
    send({ type: "start", key: id, at: start });
    try {
      const w = await mgr.client.get(Widget, req).catch(ignoreNotFound);
      if (!w || req.name === config.ignore) return {};
      // The time a real reconcile spends computing or calling out, so reconciles can overlap.
      await sleep(config.workMs);
      const generation = w.metadata?.generation;
      if (w.status?.observedGeneration === generation && w.status?.value === w.spec.value) {
        return {};
      }
      w.status = { value: w.spec.value, observedGeneration: generation };
      await mgr.client.status().update(w);
      return {};
    } finally {
      send({ type: "end", key: id, start, at: now() });
    }
  },
});

process.on("message", (msg) => {
  if (msg?.type !== "heap") return;
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  send({ type: "heap", at: now(), heapUsed, rss });
});

void mgr.elected.then(() => send({ type: "leader", at: now() }));

let code = 0;
try {
  await mgr.start(setupSignalHandler());
} catch (err) {
  process.stderr.write(`[${config.name}] manager stopped: ${err?.message ?? err}\n`);
  code = 1;
}
// The IPC channel would keep the process alive: say goodbye once the last message is out.
if (process.connected) {
  process.send({ type: "stopped", at: now(), code }, () => {
    process.exitCode = code;
    process.disconnect();
  });
} else process.exitCode = code;
