/**
 * The work queue of controllers that recompute a whole namespace (PDB status, endpoints): store
 * events in the buckets they watch mark the namespace, and one microtask after the write that
 * announced a change syncs each marked namespace once, as a controller's queue would batch them.
 */
import type { Store, StoreEvent } from "../store/store.js";

export class NamespaceQueue {
  private unsubscribe: () => void = () => {};
  private readonly dirty = new Set<string>();
  private scheduled = false;

  constructor(
    private readonly store: Store,
    /** The watched buckets, or a test of a bucket's name (quota counts any resource). */
    private readonly buckets: ReadonlySet<string> | ((bucket: string) => boolean),
    private readonly sync: (namespace: string) => void,
  ) {}

  /** Marks the namespaces of `initial` (the objects present at start) and subscribes. */
  start(initial: Iterable<{ metadata?: { namespace?: string } }>): void {
    for (const o of initial) this.mark(o.metadata?.namespace ?? "");
    this.unsubscribe = this.store.subscribeAll((ev: StoreEvent) => {
      const watched =
        typeof this.buckets === "function" ? this.buckets(ev.bucket) : this.buckets.has(ev.bucket);
      if (watched) this.mark(ev.object.metadata?.namespace ?? "");
    });
  }

  stop(): void {
    this.unsubscribe();
  }

  private mark(namespace: string): void {
    this.dirty.add(namespace);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const namespaces = [...this.dirty];
      this.dirty.clear();
      for (const ns of namespaces) this.sync(ns);
    });
  }
}
