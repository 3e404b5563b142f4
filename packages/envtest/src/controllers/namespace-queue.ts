/**
 * The work queue of controllers that recompute a whole namespace (PDB status, endpoints, quota):
 * store events in the buckets they watch mark the namespace, and one microtask after the write
 * that announced a change syncs each marked namespace once, as a controller's queue would batch
 * them. A namespace is never synced twice at once (a mark during its sync runs it again after),
 * and a sync that lost a write to a conflict, or answered true, is retried with backoff.
 */
import type { Store, StoreEvent } from "../store/store.js";
import { failedSync, retryDelay } from "./work-queue.js";

export class NamespaceQueue {
  private unsubscribe: () => void = () => {};
  private readonly dirty = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly store: Store,
    /** The watched buckets, or a test of a bucket's name (quota counts any resource). */
    private readonly buckets: ReadonlySet<string> | ((bucket: string) => boolean),
    /** Syncs one namespace; true (or a conflict thrown) when it must be retried. */
    private readonly sync: (namespace: string) => boolean | Promise<boolean>,
  ) {}

  /** Marks the namespaces of `initial` (the objects present at start) and subscribes. */
  start(initial: Iterable<{ metadata?: { namespace?: string } }>): void {
    this.stopped = false;
    for (const o of initial) this.add(o.metadata?.namespace ?? "");
    this.unsubscribe = this.store.subscribeAll((ev: StoreEvent) => {
      const watched =
        typeof this.buckets === "function" ? this.buckets(ev.bucket) : this.buckets.has(ev.bucket);
      if (watched) this.add(ev.object.metadata?.namespace ?? "");
    });
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const t of this.retries.values()) clearTimeout(t);
    this.retries.clear();
  }

  /** Marks `namespace` for a sync one microtask from now. */
  add(namespace: string): void {
    if (this.stopped) return;
    this.dirty.add(namespace);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const namespaces = [...this.dirty];
      this.dirty.clear();
      for (const ns of namespaces) void this.run(ns);
    });
  }

  private async run(namespace: string): Promise<void> {
    if (this.running.has(namespace)) {
      this.again.add(namespace);
      return;
    }
    this.running.add(namespace);
    let failed = false;
    try {
      failed = await this.sync(namespace);
    } catch (e) {
      failed = failedSync(e);
    } finally {
      this.running.delete(namespace);
    }
    if (failed) this.retryLater(namespace);
    else this.failures.delete(namespace);
    if (this.again.delete(namespace)) this.add(namespace);
  }

  private retryLater(namespace: string): void {
    if (this.stopped || this.retries.has(namespace)) return;
    const n = (this.failures.get(namespace) ?? 0) + 1;
    this.failures.set(namespace, n);
    const timer = setTimeout(() => {
      this.retries.delete(namespace);
      this.add(namespace);
    }, retryDelay(n));
    timer.unref();
    this.retries.set(namespace, timer);
  }
}
