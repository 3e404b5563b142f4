/**
 * Bounds the reviews the metrics filter sends to the API server: at most `maxConcurrent` at once,
 * at most `maxPending` waiting, and one request per key in flight (callers asking the same
 * question share the answer, as the apiserver's cached token authenticator does with its
 * singleflight). A full queue is refused at once rather than queued without end.
 */
export class TooManyRequestsError extends Error {
  override readonly name = "TooManyRequestsError";
}

export class ReviewLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxPending: number,
  ) {}

  /** Runs `fn` for `key`, or joins the run already in flight for it. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const joined = this.inflight.get(key);
    if (joined) return joined as Promise<T>;
    if (this.active >= this.maxConcurrent && this.waiting.length >= this.maxPending) {
      return Promise.reject(new TooManyRequestsError("too many pending reviews"));
    }
    const run = this.slot()
      .then(async () => {
        try {
          return await fn();
        } finally {
          this.release();
        }
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, run);
    return run;
  }

  private slot(): Promise<void> {
    if (this.active < this.maxConcurrent) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.active--;
  }
}
