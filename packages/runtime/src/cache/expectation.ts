/**
 * Read-your-writes for the cache (kube's controller "expectations", made general): a write the
 * manager's client makes during a reconcile becomes an Expectation on every informer that would
 * hold the written object. The informer meets it from its own event stream, once its store shows
 * the object at the written resourceVersion (or later) or shows it deleted; the controller holds
 * the next reconcile of the same request until then. Nothing polls: expectations are indexed by
 * store key and checked only when an event for that key (or a relist) is applied.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KubeObject } from "../api/types.js";
import { objectKey } from "./store.js";

/** How an expectation ended: the cache showed the write, the informer stopped, or it timed out. */
export type ExpectationOutcome = "observed" | "stopped" | "expired";

/** What a write must make the cache show. */
export interface WrittenObject {
  /** The kind's name, for log lines. */
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
  /**
   * The resourceVersion the server answered the write with: the cache must show the object at it
   * or a later version, or its deletion. Undefined for a delete answered with a Status (the
   * object is gone at once): only its deletion meets the expectation.
   */
  resourceVersion?: string;
}

export class Expectation {
  outcome?: ExpectationOutcome;
  private listeners: Array<(outcome: ExpectationOutcome) => void> = [];

  constructor(
    readonly write: WrittenObject,
    private readonly forget: (e: Expectation) => void = () => {},
  ) {}

  get key(): string {
    return this.write.namespace ? `${this.write.namespace}/${this.write.name}` : this.write.name;
  }

  /** Calls `fn` once the expectation ends (at once if it has). */
  onSettled(fn: (outcome: ExpectationOutcome) => void): void {
    if (this.outcome) fn(this.outcome);
    else this.listeners.push(fn);
  }

  /** Gives up waiting (the controller's timeout); the informer stops tracking it. */
  expire(): void {
    if (this.outcome) return;
    this.forget(this);
    this.settle("expired");
  }

  settle(outcome: ExpectationOutcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    const listeners = this.listeners;
    this.listeners = [];
    for (const fn of listeners) fn(outcome);
  }
}

/**
 * Whether resourceVersion `have` is `want` or later. resourceVersions are opaque to clients, so
 * only equality is certain; the integers every etcd-backed API server (and envtest) serves are
 * also compared numerically, which lets a newer event or a newer list meet an expectation.
 */
export function resourceVersionAtLeast(have: string | undefined, want: string): boolean {
  if (have === undefined) return false;
  if (have === want) return true;
  if (!isNumeric(have) || !isNumeric(want)) return false;
  return have.length !== want.length ? have.length > want.length : have > want;
}

function isNumeric(rv: string): boolean {
  return rv.length > 0 && rv.length < 20 && /^[0-9]+$/.test(rv);
}

/** Whether a store's object shows `w`: the same object at the written version or later. */
function shows(obj: KubeObject | undefined, w: WrittenObject): boolean {
  if (!obj || obj.metadata?.uid !== w.uid || w.resourceVersion === undefined) return false;
  return resourceVersionAtLeast(obj.metadata?.resourceVersion, w.resourceVersion);
}

/**
 * The pending expectations of one informer, by store key, and the uids deleted while writes are
 * in flight: a watch event can overtake the answer to the write that caused it, and a deletion
 * leaves nothing in the store to compare the answer with. `begin` marks a write about to be
 * sent; the log lives only while some write is in flight, so it stays small.
 */
export class ExpectationIndex {
  private readonly byKey = new Map<string, Set<Expectation>>();
  private stopped = false;
  private inFlight = 0;
  /** uids deleted while a write was in flight; `logBase` is the position of its first entry. */
  private deletedLog: string[] = [];
  private logBase = 0;

  /** Pending expectations: the informer checks nothing while this is 0 and no write is in flight. */
  size = 0;

  /** A write is about to be sent; returns its position in the deletion log, for `add`. */
  begin(): number {
    this.inFlight++;
    return this.logBase + this.deletedLog.length;
  }

  /** The write started with `begin` was answered (after `add`) or failed. */
  end(): void {
    if (this.inFlight === 0 || --this.inFlight > 0) return;
    this.logBase += this.deletedLog.length;
    this.deletedLog = [];
  }

  /** Whether the informer has work to do on events (expectations or writes in flight). */
  get active(): boolean {
    return this.size > 0 || this.inFlight > 0;
  }

  /**
   * An expectation on `w`, already met when `current` (the store's object) shows it, or when the
   * object was deleted since position `since` of a write in flight.
   */
  add(w: WrittenObject, current: KubeObject | undefined, since?: number): Expectation {
    const e = new Expectation(w, (x) => this.remove(x));
    if (this.stopped) e.settle("stopped");
    else if (shows(current, w) || (since !== undefined && this.deletedSince(since, w.uid))) {
      e.settle("observed");
    } else {
      let set = this.byKey.get(e.key);
      if (!set) {
        set = new Set();
        this.byKey.set(e.key, set);
      }
      set.add(e);
      this.size++;
    }
    return e;
  }

  /** The store now holds `obj` (a watch ADDED or MODIFIED event). */
  applied(obj: KubeObject): void {
    const set = this.byKey.get(objectKey(obj));
    if (!set) return;
    for (const e of set) if (shows(obj, e.write)) this.observe(e);
  }

  /**
   * `obj` left the store (a watch DELETED event, or a relist that no longer lists it): every
   * expectation on that object is met, since nothing newer will come.
   */
  deleted(obj: KubeObject): void {
    const uid = obj.metadata?.uid;
    if (this.inFlight > 0 && uid) this.deletedLog.push(uid);
    const set = this.byKey.get(objectKey(obj));
    if (!set) return;
    for (const e of set) if (e.write.uid === uid) this.observe(e);
  }

  private deletedSince(since: number, uid: string): boolean {
    for (let i = Math.max(0, since - this.logBase); i < this.deletedLog.length; i++) {
      if (this.deletedLog[i] === uid) return true;
    }
    return false;
  }

  /**
   * A source relisted: its store is now the list's state at `listVersion`. An expectation in the
   * source's namespace (all namespaces when undefined) is met when the store shows it, or when
   * the list is at or past the write (what it shows is then at least as fresh as the write: the
   * object was deleted or changed since). A write after the list arrives on the watch that
   * follows; where versions cannot be ordered, waiting could be forever, so those are met too.
   */
  relisted(
    namespace: string | undefined,
    listVersion: string | undefined,
    current: (key: string) => KubeObject | undefined,
  ): void {
    for (const set of [...this.byKey.values()]) {
      for (const e of set) {
        if (namespace !== undefined && e.write.namespace !== namespace) continue;
        const want = e.write.resourceVersion;
        if (
          shows(current(e.key), e.write) ||
          want === undefined ||
          listVersion === undefined ||
          !isNumeric(want) ||
          !isNumeric(listVersion) ||
          resourceVersionAtLeast(listVersion, want)
        ) {
          this.observe(e);
        }
      }
    }
  }

  /** The informer stopped: nothing will ever be observed; release every waiter. */
  stop(): void {
    this.stopped = true;
    const all = [...this.byKey.values()].flatMap((s) => [...s]);
    this.byKey.clear();
    this.size = 0;
    for (const e of all) e.settle("stopped");
  }

  private observe(e: Expectation): void {
    this.remove(e);
    e.settle("observed");
  }

  private remove(e: Expectation): void {
    const set = this.byKey.get(e.key);
    if (!set?.delete(e)) return;
    this.size--;
    if (set.size === 0) this.byKey.delete(e.key);
  }
}

/** Where the client reports the expectations of a write made inside a reconcile. */
export interface WriteSink {
  record(expectations: Expectation[]): void;
}

/**
 * The reconcile a write belongs to. The controller runs each reconcile inside `run`; the client
 * reads it with `getStore()` after a write, so reconcilers need no changes to get read-your-writes.
 * Outside a reconcile (tests, runnables) there is no sink and writes record nothing.
 */
export const reconcileWrites = new AsyncLocalStorage<WriteSink>();
