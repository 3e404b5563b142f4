// Shared helpers for the benchmark modules: repeated timing with median/min/max, child-process
// timing, and the row shape every module returns (see docs/dev/contracts.md).
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

/** Runs `fn` `runs` times (after `warmup` untimed runs) and returns { median, min, max, runs } in ms. */
export async function timeIt(fn, { runs = 5, warmup = 1 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1), runs: sorted.length };
}

/** Spawns a command synchronously and throws with its output when it fails. */
export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { encoding: "utf8", ...options });
  if (result.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** A row from a timing summary; `peer` timing (if any) gives peerValue and ratio = value / peerValue. */
export function row(name, unit, t, extra = {}) {
  const out = {
    name,
    value: round(t.median),
    unit,
    runs: t.runs,
    min: round(t.min),
    max: round(t.max),
    ...extra,
  };
  if (extra.peerValue !== undefined) out.ratio = round(out.value / extra.peerValue, 2);
  return out;
}

export function round(n, digits = 1) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
