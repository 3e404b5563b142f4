/**
 * The controller workqueue: a FIFO of keys with client-go's guarantees. Duplicate adds collapse
 * into one (the `dirty` set); a key handed to a worker is never handed to another until `done`
 * (the `processing` set); a key re-added while processing is queued again on `done`, so the change
 * that re-added it is reconciled. `addAfter` delays an add (the delaying queue behind
 * `requeueAfterMs`), `addRateLimited` delays it by the rate limiter (retries with backoff).
 */
import { defaultControllerRateLimiter, type RateLimiter } from "./ratelimiter.js";

/** Hooks the metrics module plugs in; all optional so the queue is usable alone. */
export interface QueueMetricsSink {
  /** A key became queued (was not already waiting). */
  onAdd?(): void;
  /** A key was handed to a worker after waiting `waitSeconds` in the queue. */
  onGet?(waitSeconds: number): void;
  /** A worker finished a key after `workSeconds`. */
  onDone?(workSeconds: number): void;
  /** A key was scheduled with a non-zero delay. */
  onRetry?(): void;
}

export interface WorkQueueOptions<T> {
  rateLimiter?: RateLimiter<T>;
  metrics?: QueueMetricsSink;
  /** Monotonic clock in ms; injectable for tests. */
  now?: () => number;
}

/** A snapshot of the queue for gauges and tests. */
export interface QueueStats {
  depth: number;
  processing: number;
  delayed: number;
  /** Sum over in-flight keys of how long each has been processing, in seconds. */
  unfinishedWorkSeconds: number;
  /** How long the longest in-flight key has been processing, in seconds. */
  longestRunningProcessorSeconds: number;
}

export class WorkQueue<T> {
  private readonly rateLimiter: RateLimiter<T>;
  private readonly metrics: QueueMetricsSink;
  private readonly now: () => number;

  /** Queued keys in order; `head` avoids O(n) shifts on a long queue. */
  private items: T[] = [];
  private head = 0;
  /** Keys that need processing (queued, or re-added while processing). */
  private readonly dirty = new Set<T>();
  /** Keys held by a worker, with when the worker got them. */
  private readonly processing = new Map<T, number>();
  /** When each queued key was added, for queue-duration metrics. */
  private readonly addedAt = new Map<T, number>();
  /** Delayed adds: the earliest ready time per key and its timer. */
  private readonly delayed = new Map<T, { readyAt: number; timer: NodeJS.Timeout }>();
  /** Workers blocked in `get`. */
  private waiters: Array<(item: T | undefined) => void> = [];
  private drainWaiters: Array<() => void> = [];
  private shuttingDown = false;

  constructor(opts: WorkQueueOptions<T> = {}) {
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>();
    this.metrics = opts.metrics ?? {};
    this.now = opts.now ?? (() => performance.now());
  }

  /** Marks `item` as needing processing; a no-op if it already waits or the queue is shut down. */
  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.metrics.onAdd?.();
    this.dirty.add(item);
    // A key held by a worker goes back in the queue when the worker calls `done`.
    if (this.processing.has(item)) return;
    this.enqueue(item);
  }

  /** Adds `item` after `delayMs`; the earliest pending delay for a key wins. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    this.metrics.onRetry?.();
    const readyAt = this.now() + delayMs;
    const pending = this.delayed.get(item);
    if (pending && pending.readyAt <= readyAt) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(item);
      this.add(item);
    }, delayMs);
    // A delayed retry alone must not keep the process alive after shutdown.
    timer.unref?.();
    this.delayed.set(item, { readyAt, timer });
  }

  /** Adds `item` after the rate limiter's delay (a retry after failure). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Clears `item`'s failure history (after success). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * The next key to process, waiting until one is available. Resolves `undefined` once the queue
   * is shut down: in-flight keys finish, but queued keys are not handed out any more.
   */
  get(): Promise<T | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.head < this.items.length) return Promise.resolve(this.take());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Releases `item` from its worker; re-queues it if it was added meanwhile. */
  done(item: T): void {
    const started = this.processing.get(item);
    if (started === undefined) return;
    this.processing.delete(item);
    this.metrics.onDone?.((this.now() - started) / 1000);
    if (this.dirty.has(item) && !this.shuttingDown) this.enqueue(item);
    if (this.processing.size === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Number of keys waiting (not counting delayed or in-flight ones). */
  len(): number {
    return this.items.length - this.head;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stops the queue: adds are ignored, waiting workers get `undefined`, delayed adds are dropped. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
  }

  /** Shuts down and resolves once every in-flight key is `done`. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  stats(): QueueStats {
    const now = this.now();
    let unfinished = 0;
    let longest = 0;
    for (const started of this.processing.values()) {
      const s = (now - started) / 1000;
      unfinished += s;
      if (s > longest) longest = s;
    }
    return {
      depth: this.len(),
      processing: this.processing.size,
      delayed: this.delayed.size,
      unfinishedWorkSeconds: unfinished,
      longestRunningProcessorSeconds: longest,
    };
  }

  private enqueue(item: T): void {
    this.addedAt.set(item, this.now());
    const waiter = this.waiters.shift();
    if (waiter) {
      this.items.push(item);
      waiter(this.take());
      return;
    }
    this.items.push(item);
  }

  private take(): T {
    const item = this.items[this.head] as T;
    this.head++;
    // Compact once the consumed prefix dominates, keeping amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.dirty.delete(item);
    this.processing.set(item, this.now());
    const added = this.addedAt.get(item);
    this.addedAt.delete(item);
    if (added !== undefined) this.metrics.onGet?.((this.now() - added) / 1000);
    return item;
  }
}
