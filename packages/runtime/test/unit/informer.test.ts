import { ApiError } from "@opgen/apimachinery/status";
import { describe, expect, it } from "vitest";
import { SharedInformer } from "../../src/cache/informer.js";
import type { ListerWatcher, ListPage } from "../../src/cache/watcher.js";
import { defineKind, type KubeObject } from "../../src/index.js";
import type { WatchEvent } from "../../src/internal/rest/http.js";

const Thing = defineKind<KubeObject>({
  group: "t.io",
  version: "v1",
  kind: "Thing",
  plural: "things",
  namespaced: true,
});

const thing = (name: string, rv: string, ns = "a"): KubeObject => ({
  apiVersion: "t.io/v1",
  kind: "Thing",
  metadata: { name, namespace: ns, resourceVersion: rv, managedFields: [{ manager: "x" }] },
});

/** A scriptable list/watch backend. */
class FakeLW implements ListerWatcher<KubeObject> {
  objects = new Map<string, KubeObject>();
  rv = 10;
  lists: Array<{ limit: number; continue?: string }> = [];
  watches: string[] = [];
  listError?: unknown;
  private current?: { emit: (e: WatchEvent) => void; end: (err?: unknown) => void };
  private watchWaiters: Array<() => void> = [];

  async list(opts: { limit: number; continue?: string }): Promise<ListPage<KubeObject>> {
    this.lists.push(opts);
    if (this.listError) {
      const e = this.listError;
      this.listError = undefined;
      throw e;
    }
    const all = [...this.objects.values()].map((o) => {
      const c = structuredClone(o);
      delete c.apiVersion; // list items come without apiVersion/kind
      delete c.kind;
      return c;
    });
    const start = opts.continue ? Number(opts.continue) : 0;
    const page = all.slice(start, start + opts.limit);
    const next = start + opts.limit < all.length ? String(start + opts.limit) : undefined;
    return { items: page, metadata: { resourceVersion: String(this.rv), continue: next } };
  }

  watch(
    opts: { resourceVersion: string },
    onEvent: (e: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    this.watches.push(opts.resourceVersion);
    return new Promise((resolve, reject) => {
      const end = (err?: unknown) => {
        this.current = undefined;
        if (err) reject(err);
        else resolve();
      };
      // Like the REST client: a throwing handler ends the stream with that error.
      const emit = (e: WatchEvent) => {
        try {
          onEvent(e);
        } catch (err) {
          end(err);
        }
      };
      this.current = { emit, end };
      if (signal.aborted) return end(new Error("aborted"));
      signal.addEventListener("abort", () => end(new Error("aborted")), { once: true });
      for (const w of this.watchWaiters.splice(0)) w();
    });
  }

  async watching(): Promise<void> {
    if (this.current) return;
    await new Promise<void>((r) => this.watchWaiters.push(r));
  }

  put(obj: KubeObject, type: "ADDED" | "MODIFIED" = "MODIFIED"): void {
    this.rv++;
    obj.metadata!.resourceVersion = String(this.rv);
    this.objects.set(obj.metadata!.name!, obj);
    this.current?.emit({ type, object: structuredClone(obj) as Record<string, unknown> });
  }

  remove(name: string, silently = false): void {
    const obj = this.objects.get(name)!;
    this.objects.delete(name);
    this.rv++;
    if (!silently)
      this.current?.emit({
        type: "DELETED",
        object: structuredClone(obj) as Record<string, unknown>,
      });
  }

  bookmark(): void {
    this.rv++;
    this.current?.emit({
      type: "BOOKMARK",
      object: { metadata: { resourceVersion: String(this.rv) } },
    });
  }

  expire(asEvent: boolean): void {
    if (asEvent)
      this.current?.emit({
        type: "ERROR",
        object: { code: 410, reason: "Expired", message: "too old" },
      });
    else this.current?.end(new ApiError(410, "Expired", "too old"));
  }

  drop(err?: unknown): void {
    this.current?.end(err);
  }
}

function record(inf: SharedInformer<KubeObject>) {
  const events: string[] = [];
  inf.addEventHandler({
    onAdd: (o, initial) => events.push(`add:${o.metadata?.name}${initial ? ":initial" : ""}`),
    onUpdate: (o, n) =>
      events.push(
        `update:${n.metadata?.name}:${o.metadata?.resourceVersion}->${n.metadata?.resourceVersion}`,
      ),
    onDelete: (o) => events.push(`delete:${o.metadata?.name}`),
  });
  return events;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

function setup() {
  const lw = new FakeLW();
  lw.objects.set("x", thing("x", "1"));
  lw.objects.set("y", thing("y", "2"));
  const inf = new SharedInformer(Thing, [{ lw }], {
    transform: (o) => {
      o.apiVersion ??= Thing.apiVersion;
      o.kind ??= Thing.kind;
      delete o.metadata?.managedFields;
      return o;
    },
    initialBackoffMs: 1,
    maxBackoffMs: 4,
    pageSize: 1,
  });
  const events = record(inf);
  const ac = new AbortController();
  const running = inf.run(ac.signal);
  return { lw, inf, events, ac, running };
}

describe("SharedInformer over a watcher", () => {
  it("lists in pages, syncs, strips managedFields, fills apiVersion/kind, then watches from the list RV", async () => {
    const { lw, inf, events, ac, running } = setup();
    await inf.waitForSync();
    expect(lw.lists.map((l) => l.continue)).toEqual([undefined, "1"]);
    expect(events).toEqual(["add:x:initial", "add:y:initial"]);
    const x = inf.store.get("a/x")!;
    expect(x.metadata?.managedFields).toBeUndefined();
    expect(x.kind).toBe("Thing");
    await lw.watching();
    expect(lw.watches).toEqual(["10"]);
    ac.abort();
    await running;
  });

  it("delivers watch events and tracks bookmarks for the next watch", async () => {
    const { lw, inf, events, ac, running } = setup();
    await lw.watching();
    lw.put(thing("z", "", "a"), "ADDED");
    lw.put({ ...thing("x", ""), spec: { n: 1 } } as KubeObject);
    lw.remove("y");
    lw.bookmark();
    expect(events.slice(2)).toEqual(["add:z", "update:x:1->12", "delete:y"]);
    expect(inf.store.size()).toBe(2);
    lw.drop(); // server closed the watch normally: resume from the bookmark, no relist
    await until(() => lw.watches.length === 2, "rewatch");
    expect(lw.watches[1]).toBe("14");
    expect(lw.lists.length).toBe(2);
    ac.abort();
    await running;
  });

  it.each([true, false])(
    "relists on 410 (as watch event: %s) and emits only the differences",
    async (asEvent) => {
      const { lw, inf, events, ac, running } = setup();
      await lw.watching();
      const listsBefore = lw.lists.length;
      // While "disconnected": x changes, y is deleted, w is created; none of it seen on the watch.
      lw.drop(new Error("connection reset"));
      lw.put({ ...thing("x", ""), spec: { n: 2 } } as KubeObject);
      lw.remove("y", true);
      lw.objects.set("w", thing("w", String(++lw.rv)));
      await lw.watching();
      lw.expire(asEvent);
      await until(() => lw.lists.length > listsBefore, "relist");
      await lw.watching();
      expect(events.slice(2).sort()).toEqual(["add:w", "delete:y", "update:x:1->11"]);
      expect([...inf.store.keys()].sort()).toEqual(["a/w", "a/x"]);
      ac.abort();
      await running;
    },
  );

  it("reconnects with backoff after errors, including a failing list", async () => {
    const { lw, ac, running } = setup();
    await lw.watching();
    lw.listError = new ApiError(500, "InternalError", "boom");
    lw.expire(false);
    await until(() => lw.lists.length >= 4 && lw.watches.length >= 2, "recovery");
    ac.abort();
    await running;
  });

  it("replays existing objects to a late handler and resyncs as updates", async () => {
    const { inf, events, ac, running } = setup();
    await inf.waitForSync();
    const late = record(inf);
    expect(late).toEqual(["add:x:initial", "add:y:initial"]);
    inf.resync();
    expect(events.slice(2)).toEqual(["update:x:1->1", "update:y:2->2"]);
    ac.abort();
    await running;
  });

  it("indexes objects and keeps indexes current", async () => {
    const { lw, inf, ac, running } = setup();
    inf.addIndex("spec.owner", (o) => [
      String((o as { spec?: { owner?: string } }).spec?.owner ?? ""),
    ]);
    await lw.watching();
    lw.put({ ...thing("x", ""), spec: { owner: "o1" } } as KubeObject);
    lw.put({ ...thing("y", ""), spec: { owner: "o1" } } as KubeObject);
    expect([...inf.store.byIndex("spec.owner", "o1")].map((o) => o.metadata?.name).sort()).toEqual([
      "x",
      "y",
    ]);
    lw.put({ ...thing("y", ""), spec: { owner: "o2" } } as KubeObject);
    expect([...inf.store.byIndex("spec.owner", "o1")].map((o) => o.metadata?.name)).toEqual(["x"]);
    lw.remove("x");
    expect([...inf.store.byIndex("spec.owner", "o1")]).toEqual([]);
    ac.abort();
    await running;
  });

  it("prunes only its own namespace on a relist of a namespaced source", async () => {
    const a = new FakeLW();
    const b = new FakeLW();
    a.objects.set("x", thing("x", "1", "a"));
    b.objects.set("y", thing("y", "1", "b"));
    const inf = new SharedInformer(
      Thing,
      [
        { namespace: "a", lw: a },
        { namespace: "b", lw: b },
      ],
      { initialBackoffMs: 1 },
    );
    const ac = new AbortController();
    const running = inf.run(ac.signal);
    await inf.waitForSync();
    expect(inf.store.size()).toBe(2);
    await a.watching();
    a.expire(false);
    await until(() => a.lists.length === 2, "relist of a");
    expect([...inf.store.keys()].sort()).toEqual(["a/x", "b/y"]);
    ac.abort();
    await running;
  });

  it("backs off instead of spinning when watches close at once without events", async () => {
    const lw = new FakeLW();
    const inf = new SharedInformer(Thing, [{ lw }], { initialBackoffMs: 1, maxBackoffMs: 20 });
    const ac = new AbortController();
    const running = inf.run(ac.signal);
    await lw.watching();
    const started = Date.now();
    // The server (or a proxy) ends every watch immediately.
    const ender = setInterval(() => lw.drop(), 0);
    // At least 100 ms by the wall clock: a timer may fire a millisecond early by Date.now().
    while (Date.now() - started < 100) await new Promise((r) => setTimeout(r, 5));
    clearInterval(ender);
    // Jittered backoff doubling from 1 ms to 20 ms allows about ten reconnects in 100 ms; without
    // it the watcher reconnects on every drop, about once a millisecond.
    expect(lw.watches.length).toBeLessThan(30);
    expect(lw.lists.length).toBe(1); // no relist: the resourceVersion is still good
    ac.abort();
    await running;
  });
});
