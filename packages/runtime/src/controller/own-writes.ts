/**
 * A controller's read-your-writes bookkeeping: the expectations each request key's reconciles
 * recorded (see cache/expectation.ts), and the keys parked until theirs are met. A key whose
 * writes the cache has not shown yet is not reconciled: its worker releases it at once and takes
 * other keys, and the key is queued again when the last expectation ends, so a waiting key never
 * holds a worker slot. Each expectation expires `timeoutMs` after its write; the key then runs
 * anyway (as controller-runtime always does) and the expiry is logged at debug level and counted.
 */
import type { Expectation, WriteSink } from "../cache/expectation.js";
import type { Logger } from "../log/logger.js";

interface KeyWrites {
  pending: Set<Expectation>;
  /** A reconcile of the key was due and is held until `pending` empties. */
  parked: boolean;
}

export interface OwnWritesDeps {
  timeoutMs: number;
  log: Logger;
  /** Queues `key` again (it was parked and may now run). */
  requeue(key: string): void;
  /** An expectation expired before the cache showed the write. */
  onTimeout(): void;
}

export class OwnWrites {
  private readonly keys = new Map<string, KeyWrites>();
  private stopping = false;

  constructor(private readonly deps: OwnWritesDeps) {}

  /** The sink the client reports the writes of one reconcile of `key` to. */
  sink(key: string): WriteSink {
    return { record: (expectations) => this.record(key, expectations) };
  }

  /** Whether `key` may be reconciled now; if not it is parked and requeued once it may. */
  ready(key: string): boolean {
    const state = this.keys.get(key);
    if (!state) return true;
    state.parked = true;
    return false;
  }

  /** Keys with writes the cache has not shown yet. */
  waiting(): number {
    return this.keys.size;
  }

  /** Drops every expectation without requeueing, logging or counting (the controller stopped). */
  stop(): void {
    this.stopping = true;
    for (const state of [...this.keys.values()]) for (const e of [...state.pending]) e.expire();
    this.keys.clear();
  }

  private record(key: string, expectations: Expectation[]): void {
    if (this.stopping) return;
    for (const e of expectations) {
      if (e.outcome) continue;
      let state = this.keys.get(key);
      if (!state) {
        state = { pending: new Set(), parked: false };
        this.keys.set(key, state);
      }
      state.pending.add(e);
      const timer = setTimeout(() => e.expire(), this.deps.timeoutMs);
      // A write nobody waits for must not keep the process alive.
      timer.unref?.();
      e.onSettled((outcome) => {
        clearTimeout(timer);
        this.settled(key, e, outcome === "expired");
      });
    }
  }

  private settled(key: string, e: Expectation, expired: boolean): void {
    const state = this.keys.get(key);
    if (!state?.pending.delete(e) || this.stopping) return;
    if (expired) {
      this.deps.onTimeout();
      const slash = key.indexOf("/");
      this.deps.log.debug("Cache did not show a write of an earlier reconcile in time", {
        namespace: key.slice(0, slash),
        name: key.slice(slash + 1),
        kind: e.write.kind,
        object: e.key,
        uid: e.write.uid,
        resourceVersion: e.write.resourceVersion,
        timeoutMs: this.deps.timeoutMs,
      });
    }
    if (state.pending.size > 0) return;
    this.keys.delete(key);
    if (state.parked) this.deps.requeue(key);
  }
}
