/**
 * A controller work queue as client-go's rate-limited workqueue behaves for the simulated
 * controllers: a key added is synced after a short delay, never twice at once (an add during a
 * sync runs it again afterwards), and a sync that failed is retried with exponential backoff
 * (5ms doubling) until one succeeds; an add cuts a pending retry short.
 */

/** The longest a failed sync waits for its retry (kube's limiter goes up to 1000s). */
export const MAX_RETRY_MS = 1000;

export class WorkQueue {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; due: number }>();
  private readonly failures = new Map<string, number>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
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
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.pending.delete(key);
      void this.run(key);
    }, delay);
    this.pending.set(key, { timer, due });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.pending.values()) clearTimeout(t.timer);
    this.pending.clear();
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
    } catch {
      // A namespace being deleted refuses new children; the next event retries.
    } finally {
      this.processing.delete(key);
    }
    if (failed) {
      // A retry's wait doubles with each consecutive failure (5ms, 10ms, ...), capped so that a
      // quota raised in a test lets the pods come without a long wait.
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.add(key, Math.min(5 * 2 ** n, MAX_RETRY_MS));
    } else this.failures.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }
}
