/**
 * Rate limiters for the workqueue: how long an item waits before it is retried. Mirrors client-go's
 * `util/workqueue/default_rate_limiters.go`: per-item exponential backoff, an overall token bucket,
 * and the max of several.
 */

/** Decides the delay before an item is re-added after a failure. */
export interface RateLimiter<T> {
  /** The delay in milliseconds for the next retry of `item`; records the attempt. */
  when(item: T): number;
  /** Clears the item's failure history (called after a successful reconcile). */
  forget(item: T): void;
  /** How many times the item has been retried since it was last forgotten. */
  numRequeues(item: T): number;
}

/** Per-item exponential backoff: `base * 2^failures`, capped at `max` (client-go defaults 5 ms, 1000 s). */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1_000_000,
  ) {
    if (baseDelayMs <= 0 || maxDelayMs < baseDelayMs) {
      throw new Error(`invalid backoff: base ${baseDelayMs} ms, max ${maxDelayMs} ms`);
    }
  }

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    // 2^exp overflows to Infinity long before it matters; compare before multiplying.
    const backoff = this.baseDelayMs * 2 ** exp;
    return Number.isFinite(backoff) && backoff < this.maxDelayMs ? backoff : this.maxDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket (`qps` refill, `burst` capacity) shared by all items: each call reserves a
 * token and returns how long until that token exists, like golang.org/x/time/rate's Reserve.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly now: () => number = Date.now,
  ) {
    if (qps <= 0 || burst < 1) throw new Error(`invalid token bucket: ${qps} qps, burst ${burst}`);
    this.tokens = burst;
    this.last = now();
  }

  when(_item: T): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay of several limiters (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    if (limiters.length === 0) throw new Error("MaxOfRateLimiter needs at least one limiter");
    this.limiters = limiters;
  }

  when(item: T): number {
    // Every limiter must record the attempt, so no short-circuit.
    return Math.max(...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** Options for the default controller rate limiter. */
export interface ControllerRateLimiterOptions {
  /** First retry delay in ms (default 5). */
  baseDelayMs?: number;
  /** Maximum retry delay in ms (default 1,000,000 = 1000 s). */
  maxDelayMs?: number;
  /**
   * Add the classic overall token bucket (10 qps, burst 100) on top of per-item backoff, as
   * controller-runtime does when its priority queue is off. Default false, as controller-runtime
   * ≥ 0.23 whose default priority queue uses per-item backoff only.
   */
  bucket?: boolean | { qps: number; burst: number };
}

/** The rate limiter controllers use unless given one. */
export function defaultControllerRateLimiter<T>(
  opts: ControllerRateLimiterOptions = {},
): RateLimiter<T> {
  const exp = new ItemExponentialFailureRateLimiter<T>(
    opts.baseDelayMs ?? 5,
    opts.maxDelayMs ?? 1_000_000,
  );
  if (!opts.bucket) return exp;
  const { qps, burst } = opts.bucket === true ? { qps: 10, burst: 100 } : opts.bucket;
  return new MaxOfRateLimiter<T>(exp, new BucketRateLimiter<T>(qps, burst));
}
