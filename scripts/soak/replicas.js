// The soak's Deployment: keeps `count` operator replicas running (a replica that exits, killed or
// not, is started again after a short delay, as the kubelet restarts a container), and collects
// what they report: reconcile intervals per key, who became leader when, heap samples.
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const REPLICA = fileURLToPath(new URL("./replica.js", import.meta.url));
const now = () => performance.timeOrigin + performance.now();

export class Replicas {
  /** Every process started, in order: { name, child, startedAt, exitedAt, exit, leaderAt, killedWith, heap[] }. */
  incarnations = [];
  /** key → [{ who, start, end, cut }]: one entry per finished reconcile (cut: ended by the process dying). */
  intervals = new Map();
  reconciles = 0;
  errorLines = 0;
  lastErrors = [];
  #open = new Map(); // incarnation → Map(`${key}@${start}` → { key, start })
  #stopping = false;
  #waiters = new Set();
  #counters = new Map();

  constructor({ count, config, restartDelayMs = 1_000, verbose = false }) {
    this.count = count;
    this.config = config;
    this.restartDelayMs = restartDelayMs;
    this.verbose = verbose;
  }

  start() {
    for (let i = 0; i < this.count; i++) this.#spawn(String.fromCharCode(97 + i));
  }

  alive() {
    return this.incarnations.filter((r) => !r.exitedAt);
  }

  /** The live replica that most recently became leader, if any. */
  leader() {
    const leaders = this.alive().filter((r) => r.leaderAt);
    return leaders.sort((a, b) => b.leaderAt - a.leaderAt)[0];
  }

  /** Waits until some replica other than `not` becomes leader after `after`, or `timeoutMs`. */
  async waitForLeader({ after, not, timeoutMs }) {
    const found = () =>
      this.incarnations.find((r) => r !== not && r.leaderAt && r.leaderAt > after && !r.exitedAt);
    const deadline = now() + timeoutMs;
    while (!found() && now() < deadline) await this.#changed(deadline - now());
    return found();
  }

  kill(replica, signal) {
    replica.killedWith = signal;
    replica.killedAt = now();
    replica.child.kill(signal);
  }

  /** Heap after a forced GC of every live replica: [{ replica, at, heapUsed, rss }]. */
  async sampleHeap(timeoutMs = 5_000) {
    const live = this.alive().filter((r) => r.child.connected);
    const results = await Promise.all(
      live.map(
        (r) =>
          new Promise((resolve) => {
            const t = setTimeout(() => done(undefined), timeoutMs);
            const onMsg = (m) => m?.type === "heap" && done(m);
            const done = (m) => {
              clearTimeout(t);
              r.child.off("message", onMsg);
              if (m) r.heap.push({ at: m.at, heapUsed: m.heapUsed, rss: m.rss });
              resolve(m && { replica: r, ...m });
            };
            r.child.on("message", onMsg);
            try {
              r.child.send({ type: "heap" });
            } catch {
              done(undefined);
            }
          }),
      ),
    );
    return results.filter(Boolean);
  }

  /** Stops every replica with SIGTERM (SIGKILL after `graceMs`) and starts no more. */
  async stop(graceMs) {
    this.#stopping = true;
    const live = this.alive();
    for (const r of live) r.child.kill("SIGTERM");
    const deadline = now() + graceMs;
    while (this.alive().length > 0 && now() < deadline) await this.#changed(deadline - now());
    for (const r of this.alive()) r.child.kill("SIGKILL");
    while (this.alive().length > 0) await this.#changed(1_000);
  }

  #spawn(slot) {
    const n = (this.#counters.get(slot) ?? 0) + 1;
    this.#counters.set(slot, n);
    const name = `${slot}${n}`;
    const child = fork(REPLICA, [], {
      env: { ...process.env, SOAK_REPLICA: JSON.stringify({ ...this.config, name }) },
      execArgv: ["--expose-gc"],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    const replica = { name, slot, child, startedAt: now(), heap: [] };
    this.incarnations.push(replica);
    const open = new Map();
    this.#open.set(replica, open);
    child.on("message", (m) => this.#onMessage(replica, open, m));
    let buffered = "";
    child.stderr.on("data", (d) => {
      if (this.verbose) process.stderr.write(d);
      buffered += d;
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) {
        this.errorLines++;
        this.lastErrors.push(line);
        if (this.lastErrors.length > 5) this.lastErrors.shift();
      }
    });
    child.on("exit", (code, signal) => {
      replica.exitedAt = now();
      replica.exit = { code, signal };
      // Reconciles still running when the process died end with it.
      for (const { key, start } of open.values())
        this.#record(key, replica.name, start, replica.exitedAt, true);
      open.clear();
      this.#notify();
      if (!this.#stopping) {
        setTimeout(() => {
          if (!this.#stopping) this.#spawn(slot);
        }, this.restartDelayMs);
      }
    });
  }

  #onMessage(replica, open, m) {
    switch (m?.type) {
      case "start":
        open.set(`${m.key}@${m.at}`, { key: m.key, start: m.at });
        break;
      case "end":
        open.delete(`${m.key}@${m.start}`);
        this.reconciles++;
        this.#record(m.key, replica.name, m.start, m.at, false);
        break;
      case "leader":
        replica.leaderAt = m.at;
        this.#notify();
        break;
      case "stopped":
        replica.stoppedCode = m.code;
        break;
    }
  }

  #record(key, who, start, end, cut) {
    const list = this.intervals.get(key) ?? [];
    if (list.length === 0) this.intervals.set(key, list);
    list.push({ who, start, end, cut });
  }

  #changed(timeoutMs) {
    return new Promise((resolve) => {
      const t = setTimeout(done, Math.max(0, timeoutMs));
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.#waiters.add(done);
    });
  }

  #notify() {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w();
  }
}

/**
 * Reconciles of one key that ran at the same time, in one replica or across two (the workqueue
 * and leader election must both prevent it): [{ key, a, b }].
 */
export function overlaps(intervals) {
  const found = [];
  for (const [key, list] of intervals) {
    const sorted = [...list].sort((x, y) => x.start - y.start);
    let latest;
    for (const iv of sorted) {
      if (latest && iv.start < latest.end) found.push({ key, a: latest, b: iv });
      if (!latest || iv.end > latest.end) latest = iv;
    }
  }
  return found;
}
