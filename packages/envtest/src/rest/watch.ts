/**
 * Watch streams (`handlers/watch.go`, the cacher's `cache_watcher.go`): resourceVersion
 * semantics (initial ADDEDs for 0/unset, replay after N, 410 Expired as an ERROR event when N
 * fell out of history), selector transitions (ADDED/DELETED when an object starts/stops
 * matching), bookmarks, sendInitialEvents, timeoutSeconds. Streams newline-delimited JSON.
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketOf } from "../api/registry.js";
import { groupVersion, type KubeObject } from "../api/types.js";
import type { Store, StoreEvent } from "../store/store.js";
import { checkIntegerParams } from "./list-options.js";
import type { ObjectRest } from "./objects.js";
import { parseBool, type RequestScope } from "./scope.js";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** Where a watch writes: the HTTP layer adapts a response to it. */
export interface WatchSink {
  send(type: WatchEventType, object: KubeObject): void;
  end(): void;
  onClose(fn: () => void): void;
}

export interface WatchOptions {
  /** Turns each object into what is sent (Table rows for kubectl get -w). */
  render?: (obj: KubeObject, first: boolean) => KubeObject;
  /** Interval of periodic bookmarks when allowed (upstream ~60 s). */
  bookmarkIntervalMs?: number;
  /** Turns a stored object into the served one (default: the requested version's view). */
  present?: (stored: KubeObject) => KubeObject;
}

export interface ActiveWatch {
  close(): void;
}

/** Validates watch options before the response starts (errors here are plain HTTP errors). */
export function checkWatchOptions(scope: RequestScope): void {
  const q = scope.query;
  checkIntegerParams(q);
  const sie = q.get("sendInitialEvents");
  const rvMatch = q.get("resourceVersionMatch");
  if (sie !== null && parseBool(sie)) {
    if (rvMatch !== "NotOlderThan") {
      throw errors.invalidOptions("ListOptions", [
        {
          type: "FieldValueForbidden",
          field: "resourceVersionMatch",
          detail: "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        },
      ]);
    }
  } else if (rvMatch) {
    throw errors.invalidOptions("ListOptions", [
      {
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
      },
    ]);
  }
  const rv = q.get("resourceVersion");
  if (rv && !/^\d+$/.test(rv)) throw errors.badRequest(`invalid resource version: ${rv}`);
}

export function startWatch(
  store: Store,
  rest: ObjectRest,
  scope: RequestScope,
  sink: WatchSink,
  opts: WatchOptions = {},
): ActiveWatch {
  const q = scope.query;
  const bucket = bucketOf(scope.info);
  const match = rest.matcher(scope);
  const present = opts.present ?? ((o: KubeObject) => rest.view(scope.info, scope.version, o));
  let first = true;
  let lastRV = 0;
  const render = (o: KubeObject): KubeObject => {
    const out = opts.render ? opts.render(o, first) : o;
    first = false;
    return out;
  };
  const allowBookmarks = parseBool(q.get("allowWatchBookmarks"));
  const sendInitial = parseBool(q.get("sendInitialEvents"));
  const rvParam = q.get("resourceVersion") ?? "";
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  let unsubscribe: () => void = () => {};

  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    for (const t of timers) clearTimeout(t);
    sink.end();
  };
  sink.onClose(() => {
    if (closed) return;
    closed = true;
    unsubscribe();
    for (const t of timers) clearTimeout(t);
  });

  const deliver = (ev: StoreEvent) => {
    if (closed) return;
    const now = ev.type !== "DELETED" && match(ev.object);
    const before = ev.prev ? match(ev.prev) : false;
    let type: WatchEventType | undefined;
    let obj: KubeObject | undefined;
    if (ev.type === "ADDED") {
      if (now) [type, obj] = ["ADDED", ev.object];
    } else if (ev.type === "MODIFIED") {
      if (now && before) [type, obj] = ["MODIFIED", ev.object];
      else if (now) [type, obj] = ["ADDED", ev.object];
      else if (before) {
        // Stopped matching: the previous state, stamped with the new resourceVersion.
        const prev = {
          ...ev.prev!,
          metadata: { ...ev.prev!.metadata, resourceVersion: String(ev.rv) },
        };
        [type, obj] = ["DELETED", prev];
      }
    } else if (before || match(ev.object)) {
      [type, obj] = ["DELETED", ev.object];
    }
    lastRV = ev.rv;
    if (type && obj) sink.send(type, render(present(obj)));
  };

  const bookmark = (extra?: Record<string, string>) => {
    sink.send("BOOKMARK", {
      kind: scope.info.kind,
      apiVersion: groupVersion(scope.info.group, scope.version.name),
      metadata: {
        resourceVersion: String(Math.max(lastRV, store.currentRV())),
        ...(extra ? { annotations: extra } : {}),
      },
    });
  };

  // Subscribe first, buffer while replaying, so no event is lost in between.
  const pending: StoreEvent[] = [];
  let replaying = true;
  unsubscribe = store.subscribe(bucket, (ev) => {
    if (replaying) pending.push(ev);
    else deliver(ev);
  });

  const startRV = rvParam === "" || rvParam === "0" ? -1 : Number(rvParam);
  if (startRV < 0 || sendInitial) {
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    const snapshotRV = store.currentRV();
    for (const o of store.list(bucket, ns)) {
      if (match(o)) sink.send("ADDED", render(present(o)));
    }
    lastRV = snapshotRV;
    if (sendInitial && allowBookmarks) bookmark({ "k8s.io/initial-events-end": "true" });
  } else {
    const events = store.eventsSince(bucket, startRV);
    if (!events) {
      replaying = false;
      sink.send("ERROR", {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `too old resource version: ${startRV} (${store.oldestRV(bucket)})`,
        reason: "Expired",
        code: 410,
      });
      close();
      return { close };
    }
    lastRV = startRV;
    for (const ev of events) deliver(ev);
  }
  replaying = false;
  for (const ev of pending) if (ev.rv > lastRV) deliver(ev);
  pending.length = 0;

  const timeout = Number(q.get("timeoutSeconds") ?? "0");
  const deadline = timeout > 0 ? Date.now() + timeout * 1000 : undefined;
  if (deadline !== undefined) after(timeout * 1000, close);
  if (allowBookmarks) {
    const every = opts.bookmarkIntervalMs ?? 60_000;
    // Every interval, and 2 s before the watch's deadline when that comes first, so a client
    // resumes from a recent resourceVersion; none once that moment has passed
    // (nextBookmarkTime, staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go).
    const schedule = () => {
      const now = Date.now();
      const beforeDeadline = deadline !== undefined && deadline - 2000 < now + every;
      const next = beforeDeadline ? deadline - 2000 : now + every;
      if (next < now) return;
      after(next - now, () => {
        if (closed) return;
        bookmark();
        if (!beforeDeadline) schedule();
      });
    };
    schedule();
  }
  return { close };
}
