/**
 * A controller work queue as client-go's rate-limited workqueue behaves for the simulated
 * controllers: a key added is synced after a short delay, never twice at once (an add during a
 * sync runs it again afterwards), and a sync that failed (answered true, or lost a write to a
 * 409 Conflict) is retried with exponential backoff (5ms doubling) until one succeeds; an add
 * cuts a pending retry short.
 */
import { isConflict } from "@opgen/apimachinery/status";

/** The longest a failed sync waits for its retry (kube's limiter goes up to 1000s). */
export const MAX_RETRY_MS = 1000;

/**
 * The wait before the `n`th consecutive retry (5ms, 10ms, ...), capped so that a quota raised in
 * a test lets the pods come without a long wait.
 */
export function retryDelay(n: number): number {
  return Math.min(5 * 2 ** n, MAX_RETRY_MS);
}

/**
 * Whether a sync that threw is retried: a conflict is (the sync reads the object again, as
 * kube's requeue does); any other refusal waits for the next event on the object (a namespace
 * being deleted refuses new children, a webhook refused the write).
 */
export function failedSync(e: unknown): boolean {
  return isConflict(e);
}

export class WorkQueue {
  /** Keys waiting, with their timer (none for keys due at once, run together: see flush). */
  private readonly pending = new Map<string, { timer?: NodeJS.Timeout; due: number }>();
  private readonly ready = new Set<string>();
  private flushScheduled = false;
  private readonly failures = new Map<string, number>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  private stopped = false;

  /** `sync` answers true when the key failed and must be retried. */
  constructor(
    private readonly sync: (key: string) => boolean | Promise<boolean>,
    private readonly delayMs: number,
  ) {}

  add(key: string, delay = this.delayMs): void {
    if (this.stopped) return;
    const due = Date.now() + delay;
    const pending = this.pending.get(key);
    if (pending && pending.due <= due) return;
    if (pending?.timer) clearTimeout(pending.timer);
    if (delay <= 0) {
      // Right after the write that announced it: one setImmediate for all such keys.
      this.pending.set(key, { due });
      this.ready.add(key);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(key);
      void this.run(key);
    }, delay);
    this.pending.set(key, { timer, due });
  }

  private flush(): void {
    this.flushScheduled = false;
    const keys = [...this.ready];
    this.ready.clear();
    for (const key of keys) {
      // Moved to a timer meanwhile, or dropped by stop().
      if (this.pending.get(key)?.timer !== undefined || !this.pending.has(key)) continue;
      this.pending.delete(key);
      void this.run(key);
    }
  }

  /** Accepts keys again after stop() (a server restarted on its port). */
  start(): void {
    this.stopped = false;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.pending.values()) if (t.timer) clearTimeout(t.timer);
    this.pending.clear();
    this.ready.clear();
    this.notifyIdle();
  }

  /** Resolves once no key is waiting or being synced (retries of failed keys count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private isIdle(): boolean {
    return this.stopped || (this.pending.size === 0 && this.processing.size === 0);
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async run(key: string): Promise<void> {
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.processing.add(key);
    let failed = false;
    try {
      failed = await this.sync(key);
    } catch (e) {
      failed = failedSync(e);
    } finally {
      this.processing.delete(key);
    }
    if (failed) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.add(key, retryDelay(n));
    } else this.failures.delete(key);
    if (this.dirty.delete(key)) this.add(key);
    this.notifyIdle();
  }
}
