/**
 * client-go's `retry.RetryOnConflict` for the server's own writers: a read-modify-write that lost
 * to another writer (409 Conflict on its resourceVersion) is read and done again, a bounded number
 * of times with a short wait between, after which the conflict is the caller's (its work queue
 * requeues it).
 */
import { isConflict } from "@opgen/apimachinery/status";

/** retry.DefaultRetry: 5 attempts, 10ms apart. */
export const DEFAULT_RETRY = { steps: 5, delayMs: 10 };

export async function retryOnConflict<T>(
  attempt: () => Promise<T>,
  backoff: { steps: number; delayMs: number } = DEFAULT_RETRY,
): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      if (!isConflict(e) || i >= backoff.steps) throw e;
    }
    await new Promise((r) => setTimeout(r, backoff.delayMs));
  }
}
