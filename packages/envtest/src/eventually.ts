/**
 * `eventually`: retries an assertion until it passes or a timeout elapses, then rethrows the
 * last failure (Gomega's `Eventually` for vitest/jest-style tests).
 */

export interface EventuallyOptions {
  /** Total time to keep trying, in ms (default 10 000). */
  timeout?: number;
  /** Pause between attempts, in ms (default 50). */
  interval?: number;
  /**
   * Stop trying when this aborts and reject with its reason (Gomega's `StopTrying`): a failure
   * seen elsewhere, such as `ServiceAccountIdentity.forbidden`, ends the wait at once instead of
   * after the timeout.
   */
  signal?: AbortSignal;
}

export async function eventually<T>(
  fn: () => T | Promise<T>,
  opts: EventuallyOptions = {},
): Promise<T> {
  const timeout = opts.timeout ?? 10_000;
  const interval = opts.interval ?? 50;
  const deadline = Date.now() + timeout;
  const signal = opts.signal;
  let last: unknown;
  for (;;) {
    signal?.throwIfAborted();
    try {
      return await untilAborted(Promise.resolve().then(fn), signal);
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      last = e;
    }
    if (Date.now() >= deadline) break;
    await untilAborted(
      new Promise((r) => setTimeout(r, Math.min(interval, Math.max(0, deadline - Date.now())))),
      signal,
    );
  }
  if (last instanceof Error) {
    last.message = `eventually: still failing after ${timeout} ms: ${last.message}`;
    throw last;
  }
  throw new Error(`eventually: still failing after ${timeout} ms: ${String(last)}`);
}

/** `p`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
