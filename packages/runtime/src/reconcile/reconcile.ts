/**
 * The reconcile contract (controller-runtime's pkg/reconcile): a Reconciler gets the namespace and
 * name of an object and drives the world toward its spec, returning when to look again.
 */
import type { NamespacedName } from "../api/types.js";
import type { Logger } from "../log/logger.js";

/** The object to reconcile; only its key, as the object may be gone. */
export type Request = NamespacedName;

/** What to do after a successful reconcile. */
export interface Result {
  /** Reconcile again after this many milliseconds (through the delaying queue). */
  requeueAfterMs?: number;
  /** Reconcile again soon, with the rate limiter's backoff. Prefer `requeueAfterMs`. */
  requeue?: boolean;
}

/** Per-reconcile context. */
export interface ReconcileContext {
  /**
   * Aborted when the manager's graceful-shutdown timeout expires, when its lease is lost (another
   * replica may be leading) or when the reconcile times out.
   */
  signal: AbortSignal;
  /** Carries controller, namespace, name and reconcileID on every line. */
  log: Logger;
  /** A unique id for this reconcile, for correlating log lines. */
  reconcileID: string;
  /** The name of the controller running the reconcile. */
  controller: string;
}

export interface Reconciler {
  reconcile(req: Request, ctx: ReconcileContext): Promise<Result>;
}

/** Adapts a function to the Reconciler interface. */
export function reconcilerFunc(
  fn: (req: Request, ctx: ReconcileContext) => Promise<Result>,
): Reconciler {
  return { reconcile: fn };
}

/**
 * An error that retrying cannot fix (invalid spec, unsupported configuration): it is logged and
 * counted in `controller_runtime_terminal_reconcile_errors_total` but the request is not requeued.
 */
export class TerminalError extends Error {
  override readonly name = "TerminalError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `err` is (or wraps, through `cause`) a TerminalError. */
export function isTerminalError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 10; depth++) {
    if (e instanceof TerminalError) return true;
    e = e.cause;
  }
  return false;
}
