/** Retrying a read-modify-write on optimistic-concurrency conflicts (client-go's retry.RetryOnConflict). */
import { isConflict } from "@opgen/apimachinery/status";

export interface RetryOptions {
  /** Attempts in total (default 5, client-go's DefaultRetry). */
  steps?: number;
  /** First delay in ms (default 10), multiplied by `factor` (default 1) with 10 % jitter. */
  delayMs?: number;
  factor?: number;
}

/** Runs `fn` again while it throws a Conflict, up to `steps` times; other errors pass through. */
export async function retryOnConflict<T>(
  fn: () => Promise<T>,
  opts: RetryOptions = {},
): Promise<T> {
  const steps = opts.steps ?? 5;
  let delay = opts.delayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || attempt >= steps) throw err;
      await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * 0.1)));
      delay *= opts.factor ?? 1;
    }
  }
}
