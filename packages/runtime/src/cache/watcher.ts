/**
 * The watcher (kube-rs's `watcher`, client-go's reflector loop): lists a resource, then watches from
 * the list's resourceVersion, turning the stream into `restart` / `apply` / `delete` events. It
 * keeps the resourceVersion opaque, asks for bookmarks so a quiet watch still advances it, relists
 * when the server answers 410 Gone, and reconnects after any other failure with jittered
 * exponential backoff. It stores nothing: the reflector above it does.
 */

import { isGone } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { WatchEvent } from "../internal/rest/http.js";

export type WatcherEvent<T> =
  /** A complete, consistent list (at `resourceVersion`): replaces whatever the consumer knew. */
  | { type: "restart"; objects: T[]; resourceVersion?: string }
  | { type: "apply"; object: T }
  | { type: "delete"; object: T };

export interface ListPage<T> {
  items: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

/** The two API calls a watcher needs; the REST implementation lives in `listwatch.ts`. */
export interface ListerWatcher<T> {
  list(opts: { limit: number; continue?: string }, signal: AbortSignal): Promise<ListPage<T>>;
  watch(
    opts: { resourceVersion: string; timeoutSeconds: number },
    onEvent: (event: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

export interface WatcherOptions<T> {
  /** Applied to every object before it is emitted (e.g. strip managedFields). */
  transform?: (obj: T) => T;
  /** Page size of the initial list (default 500, as client-go). */
  pageSize?: number;
  /** First reconnect delay in ms (default 800, client-go's reflector); doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  /** Longest reconnect delay in ms (default 30 s). */
  maxBackoffMs?: number;
  /** Called on every failure before the backoff, for logging. */
  onError?: (err: unknown, willRelist: boolean) => void;
  /** Server-side watch timeout in s; a random value in [300, 600) by default, as client-go. */
  watchTimeoutSeconds?: () => number;
  random?: () => number;
}

/** Thrown inside the watch callback to end the stream on a watch ERROR event. */
class WatchErrorEvent extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export class Watcher<T extends KubeObject> {
  private resourceVersion: string | undefined;
  /** Objects and bookmarks received on the current watch (ERROR events not counted). */
  private events = 0;
  private readonly transform: (obj: T) => T;

  constructor(
    private readonly lw: ListerWatcher<T>,
    private readonly emit: (event: WatcherEvent<T>) => void,
    private readonly opts: WatcherOptions<T> = {},
  ) {
    this.transform = opts.transform ?? ((o) => o);
  }

  /** The last resourceVersion seen (list, event or bookmark). */
  lastResourceVersion(): string | undefined {
    return this.resourceVersion;
  }

  /** Runs until `signal` aborts. Never throws: failures are retried. */
  async run(signal: AbortSignal): Promise<void> {
    const random = this.opts.random ?? Math.random;
    const initial = this.opts.initialBackoffMs ?? 800;
    const max = this.opts.maxBackoffMs ?? 30_000;
    let backoff = initial;
    const pause = async () => {
      // Jitter spreads reconnects of many informers after an API server restart.
      const delay = Math.min(max, backoff) * (1 + random());
      backoff = Math.min(max, backoff * 2);
      await sleep(delay, signal);
    };
    while (!signal.aborted) {
      let relisted = false;
      try {
        if (this.resourceVersion === undefined) {
          await this.relist(signal);
          relisted = true;
        }
        if (signal.aborted) return;
        const started = Date.now();
        this.events = 0;
        await this.watchOnce(signal);
        if (this.events === 0 && Date.now() - started < 1000) {
          // Closed at once without a single event: a proxy or a sick server, not a server-side
          // timeout. Back off rather than spin reconnecting (client-go's "watch closed too soon").
          await pause();
          continue;
        }
        // A watch the server closed (its timeout) is healthy: resume at once from the last RV.
        backoff = initial;
      } catch (err) {
        if (signal.aborted) return;
        const gone = isGone(err) || (err instanceof WatchErrorEvent && err.code === 410);
        this.opts.onError?.(err, gone);
        if (gone) {
          // History is compacted past our RV: only a fresh list is consistent again.
          this.resourceVersion = undefined;
          // ...at once, unless the RV of a list we just made is already too old: then pace it.
          if (relisted && this.events === 0) await pause();
          continue;
        }
        await pause();
      }
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const objects: T[] = [];
    let cont: string | undefined;
    let rv: string | undefined;
    do {
      const page = await this.lw.list({ limit: this.opts.pageSize ?? 500, continue: cont }, signal);
      for (const item of page.items ?? []) objects.push(this.transform(item));
      cont = page.metadata?.continue || undefined;
      rv = page.metadata?.resourceVersion;
    } while (cont);
    if (!rv) throw new Error("list response carries no resourceVersion");
    this.emit({ type: "restart", objects, resourceVersion: rv });
    this.resourceVersion = rv;
  }

  private async watchOnce(signal: AbortSignal): Promise<void> {
    const timeoutSeconds =
      this.opts.watchTimeoutSeconds?.() ??
      Math.floor(300 + (this.opts.random ?? Math.random)() * 300);
    await this.lw.watch(
      { resourceVersion: this.resourceVersion as string, timeoutSeconds },
      (ev) => this.handle(ev),
      signal,
    );
  }

  private handle(ev: WatchEvent): void {
    if (ev.type === "ERROR") {
      const status = ev.object as { code?: number; reason?: string; message?: string };
      throw new WatchErrorEvent(
        status.code ?? 0,
        status.reason ?? "",
        status.message ?? "watch error",
      );
    }
    this.events++;
    const obj = ev.object as T;
    const rv = obj.metadata?.resourceVersion;
    if (ev.type === "BOOKMARK") {
      if (rv) this.resourceVersion = rv;
      return;
    }
    const object = this.transform(obj);
    if (ev.type === "DELETED") this.emit({ type: "delete", object });
    else this.emit({ type: "apply", object });
    if (rv) this.resourceVersion = rv;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
