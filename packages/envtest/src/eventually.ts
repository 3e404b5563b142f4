/**
 * `eventually`: retries an assertion until it passes or a timeout elapses, then rethrows the
 * last failure (Gomega's `Eventually` for vitest/jest-style tests).
 */

export interface EventuallyOptions {
  /** Total time to keep trying, in ms (default 10 000). */
  timeout?: number;
  /** Pause between attempts, in ms (default 50). */
  interval?: number;
}

export async function eventually<T>(
  fn: () => T | Promise<T>,
  opts: EventuallyOptions = {},
): Promise<T> {
  const timeout = opts.timeout ?? 10_000;
  const interval = opts.interval ?? 50;
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(0, deadline - Date.now()))));
  }
  if (last instanceof Error) {
    last.message = `eventually: still failing after ${timeout} ms: ${last.message}`;
    throw last;
  }
  throw new Error(`eventually: still failing after ${timeout} ms: ${String(last)}`);
}
