/**
 * A controller (controller-runtime's internal controller): event sources feed request keys into a
 * workqueue; `maxConcurrentReconciles` workers take keys and run the reconciler; the result decides
 * whether and when the key comes back. Errors retry with per-item backoff, TerminalErrors do not,
 * thrown non-Error values are counted as panics and retried. A 409 Conflict is retried the same
 * way but logged as one info line: another writer got there first, which is routine, not a fault.
 * Each reconcile gets an AbortSignal and a logger carrying controller, namespace, name and
 * reconcileID. Reads its writes: a reconcile of a key does not start before the cache shows the
 * writes the previous reconciles of that key made through the manager's client (own-writes.ts).
 */
import { randomUUID } from "node:crypto";
import { isConflict } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import { reconcileWrites } from "../cache/expectation.js";
import type { SharedInformer } from "../cache/informer.js";
import type { MapFunc } from "../handler/handler.js";
import type { Logger } from "../log/logger.js";
import { nullLogger } from "../log/logger.js";
import type { ControllerMetrics, ReconcileResultLabel } from "../metrics/metrics.js";
import {
  acceptsCreate,
  acceptsDelete,
  acceptsUpdate,
  type Predicate,
} from "../predicate/predicate.js";
import {
  isTerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from "../reconcile/reconcile.js";
import { WorkQueue } from "../workqueue/queue.js";
import {
  type ControllerRateLimiterOptions,
  defaultControllerRateLimiter,
  type RateLimiter,
} from "../workqueue/ratelimiter.js";
import { OwnWrites } from "./own-writes.js";

export interface ControllerOptions {
  /** Workers reconciling distinct keys in parallel (default 1). */
  maxConcurrentReconciles?: number;
  /** Replaces the default per-item exponential limiter. */
  rateLimiter?: RateLimiter<string>;
  /** Tunes the default limiter (base/max delay, optional token bucket). */
  backoff?: ControllerRateLimiterOptions;
  /** Abort each reconcile's signal after this many ms (default: no timeout). */
  reconcileTimeoutMs?: number;
  /** Run only while this manager is the leader (default true). */
  needLeaderElection?: boolean;
  /**
   * Read-your-writes: how long (ms) after a write through the manager's client the next
   * reconcile of the same request may wait for the cache to show it (default 5000; 0 turns the
   * wait off, as controller-runtime has it). Past it the reconcile runs anyway.
   */
  expectationTimeoutMs?: number;
}

export interface ControllerDeps {
  log?: Logger;
  metrics?: (name: string, maxConcurrent: number, queue: WorkQueue<string>) => ControllerMetrics;
}

/** Encodes a request as the queue key "namespace/name" (namespace empty when cluster-scoped). */
export function requestKey(req: Request): string {
  return `${req.namespace ?? ""}/${req.name}`;
}

function parseKey(key: string): Request {
  const slash = key.indexOf("/");
  const namespace = key.slice(0, slash);
  return namespace ? { namespace, name: key.slice(slash + 1) } : { name: key.slice(slash + 1) };
}

const noMetrics: ControllerMetrics = {
  reconcileTotal() {},
  reconcileError() {},
  terminalError() {},
  panic() {},
  timeout() {},
  expectationTimeout() {},
  reconcileTime() {},
  activeWorkers() {},
  queue: {},
};

export class Controller {
  readonly queue: WorkQueue<string>;
  readonly maxConcurrentReconciles: number;
  readonly needLeaderElection: boolean;
  private readonly log: Logger;
  private readonly metrics: ControllerMetrics;
  private readonly ownWrites?: OwnWrites;
  private started = false;

  constructor(
    readonly name: string,
    private readonly reconciler: Reconciler,
    private readonly opts: ControllerOptions = {},
    deps: ControllerDeps = {},
  ) {
    this.maxConcurrentReconciles = opts.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(this.maxConcurrentReconciles) || this.maxConcurrentReconciles < 1) {
      throw new Error(`controller ${name}: maxConcurrentReconciles must be a positive integer`);
    }
    this.needLeaderElection = opts.needLeaderElection ?? true;
    this.log = (deps.log ?? nullLogger).withValues({ controller: name });
    // The queue and its metrics need each other: sink hooks are resolved lazily.
    let metrics: ControllerMetrics = noMetrics;
    this.queue = new WorkQueue<string>({
      rateLimiter: opts.rateLimiter ?? defaultControllerRateLimiter<string>(opts.backoff),
      metrics: {
        onAdd: () => metrics.queue.onAdd?.(),
        onGet: (s) => metrics.queue.onGet?.(s),
        onDone: (s) => metrics.queue.onDone?.(s),
        onRetry: () => metrics.queue.onRetry?.(),
      },
    });
    metrics = deps.metrics?.(name, this.maxConcurrentReconciles, this.queue) ?? noMetrics;
    this.metrics = metrics;
    const expectationTimeoutMs = opts.expectationTimeoutMs ?? 5000;
    if (!(expectationTimeoutMs >= 0)) {
      throw new Error(`controller ${name}: expectationTimeoutMs must be 0 or more`);
    }
    if (expectationTimeoutMs > 0) {
      this.ownWrites = new OwnWrites({
        timeoutMs: expectationTimeoutMs,
        log: this.log,
        requeue: (key) => this.queue.add(key),
        onTimeout: () => this.metrics.expectationTimeout(),
      });
    }
  }

  /** Feeds `informer`'s events, filtered by `predicates` and mapped by `map`, into the queue. */
  watch<T extends KubeObject>(
    informer: SharedInformer<T>,
    map: MapFunc<T>,
    predicates: Predicate<T>[] = [],
  ): void {
    informer.addEventHandler({
      onAdd: (obj) => {
        if (predicates.every((p) => acceptsCreate(p, obj))) this.enqueueAll(map(obj));
      },
      onUpdate: (oldObj, newObj) => {
        if (!predicates.every((p) => acceptsUpdate(p, oldObj, newObj))) return;
        // Old and new may map to different requests (an owner reference moved).
        this.enqueueAll([...map(oldObj), ...map(newObj)]);
      },
      onDelete: (obj) => {
        if (predicates.every((p) => acceptsDelete(p, obj))) this.enqueueAll(map(obj));
      },
    });
  }

  /** Adds a request directly (a "generic" event source, or tests). */
  enqueue(req: Request): void {
    this.queue.add(requestKey(req));
  }

  /**
   * Runs the workers until `stop` aborts, then lets in-flight reconciles finish; `hardStop`
   * aborts their signals (the manager fires it when the graceful-shutdown timeout expires).
   */
  async start(stop: AbortSignal, hardStop: AbortSignal = stop): Promise<void> {
    if (this.started) throw new Error(`controller ${this.name} already started`);
    this.started = true;
    this.log.info("Starting workers", { workerCount: this.maxConcurrentReconciles });
    const workers = Array.from({ length: this.maxConcurrentReconciles }, () =>
      this.worker(hardStop),
    );
    if (!stop.aborted) {
      await new Promise<void>((resolve) =>
        stop.addEventListener("abort", () => resolve(), { once: true }),
      );
    }
    this.log.info("Shutdown signal received, waiting for all workers to finish");
    this.queue.shutDown();
    await Promise.all(workers);
    this.ownWrites?.stop();
    this.log.info("All workers finished");
  }

  private enqueueAll(reqs: Request[]): void {
    // One event must add a key once: a waiting worker takes the first add at once, and a second
    // add of the same key would then count as a change during processing and run it again.
    for (const key of new Set(reqs.map(requestKey))) this.queue.add(key);
  }

  private async worker(hardStop: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      if (this.ownWrites && !this.ownWrites.ready(key)) {
        // Parked until the cache shows this key's writes; the worker takes other keys meanwhile.
        this.queue.done(key);
        continue;
      }
      this.metrics.activeWorkers(1);
      try {
        await this.reconcileKey(key, hardStop);
      } finally {
        this.metrics.activeWorkers(-1);
        this.queue.done(key);
      }
    }
  }

  private async reconcileKey(key: string, hardStop: AbortSignal): Promise<void> {
    const req = parseKey(key);
    const reconcileID = randomUUID();
    const log = this.log.withValues({
      namespace: req.namespace ?? "",
      name: req.name,
      reconcileID,
    });
    // AbortSignal.any registers on its sources; only combine when a timeout asks for it.
    const timeout = this.opts.reconcileTimeoutMs
      ? AbortSignal.timeout(this.opts.reconcileTimeoutMs)
      : undefined;
    const signal = timeout ? AbortSignal.any([hardStop, timeout]) : hardStop;
    const ctx: ReconcileContext = {
      signal,
      log,
      reconcileID,
      controller: this.name,
    };
    const started = performance.now();
    let result: Result | undefined;
    let failure: { err: unknown } | undefined;
    try {
      log.debug("Reconciling");
      const reconcile = () => this.reconciler.reconcile(req, ctx);
      result =
        (await (this.ownWrites
          ? reconcileWrites.run(this.ownWrites.sink(key), reconcile)
          : reconcile())) ?? {};
    } catch (err) {
      failure = { err };
    }
    this.metrics.reconcileTime((performance.now() - started) / 1000);
    if (timeout?.aborted) this.metrics.timeout();
    const outcome = failure
      ? this.onFailure(key, failure.err, log)
      : this.onResult(key, result ?? {}, log);
    this.metrics.reconcileTotal(outcome);
  }

  private onFailure(key: string, err: unknown, log: Logger): ReconcileResultLabel {
    this.metrics.reconcileError();
    if (!(err instanceof Error)) {
      // JavaScript's closest thing to a Go panic: something threw a non-Error value.
      this.metrics.panic();
      log.error("Observed a panic in reconciler", err);
      this.queue.addRateLimited(key);
      return "error";
    }
    if (isTerminalError(err)) {
      this.metrics.terminalError();
      log.error("Reconciler error (terminal, not retried)", err);
      this.queue.forget(key);
      return "error";
    }
    if (conflictIn(err)) {
      // Optimistic concurrency doing its job: the next attempt reads the fresh object. Counted as
      // an error (as controller-runtime does) but not worth an error line and a stack trace.
      log.info("Reconcile hit a conflict, requeuing", { error: err.message });
      this.queue.addRateLimited(key);
      return "error";
    }
    log.error("Reconciler error", err);
    this.queue.addRateLimited(key);
    return "error";
  }

  private onResult(key: string, result: Result, log: Logger): ReconcileResultLabel {
    if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
      this.queue.forget(key);
      this.queue.addAfter(key, result.requeueAfterMs);
      return "requeue_after";
    }
    if (result.requeue) {
      this.queue.addRateLimited(key);
      return "requeue";
    }
    this.queue.forget(key);
    log.debug("Reconcile successful");
    return "success";
  }
}

/** Whether `err` or an error in its `cause` chain is a 409 Conflict (errors.Is over wrapping). */
function conflictIn(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 16 && e !== undefined && e !== null; depth++) {
    if (isConflict(e)) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}
