/**
 * Serves a watch over HTTP: chunked newline-delimited JSON (or length-prefixed protobuf
 * WatchEvent frames for clients that negotiated protobuf), headers flushed at once (an idle
 * watch must still reach client-node, whose informer otherwise hangs), client disconnects seen on
 * the response (the request closes as soon as its empty body is read on Node 20), objects
 * rendered as the client asked (Table rows for kubectl get -w, metadata only), and registration
 * so stop() and dropWatches() can end it. A watcher that stops reading is closed once its
 * unsent events pass MAX_WATCH_BUFFER bytes, or, when the unsent bytes of all lagging watchers of
 * a server pass MAX_LAGGING_BYTES, the most lagging ones are closed first, as kube-apiserver
 * drops unresponsive watchers (clients re-list and watch again): memory stays bounded with any
 * number of them, while a healthy watcher still absorbs a burst of writes.
 */
import type { ServerResponse } from "node:http";
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { ObjectRest } from "../rest/objects.js";
import type { RequestScope } from "../rest/scope.js";
import { startWatch, type WatchSink } from "../rest/watch.js";
import type { Store } from "../store/store.js";
import { PROTOBUF } from "./negotiation.js";
import { encodeWatchFrame } from "./protobuf.js";
import { warningHeader } from "./wire.js";

/** Bytes of unsent events a watch may hold before it is closed as unresponsive. */
export const MAX_WATCH_BUFFER = 16 * 1024 * 1024;
/** A watch holding more unsent bytes than this counts as lagging. */
const LAGGING = 1024 * 1024;
/** Unsent bytes all lagging watches of one server may hold together. */
export const MAX_LAGGING_BYTES = 64 * 1024 * 1024;

interface Lagging {
  res: ServerResponse;
  close(): void;
}

/**
 * The JSON line of the last event each object was sent in. Watchers of one resource are sent the
 * same stored object, which is never changed once committed, so it is serialized once for all of
 * them, as kube-apiserver's watch cache does (`cachingObject`); rendered objects are new each time.
 */
const eventLines = new WeakMap<KubeObject, { type: string; line: string }>();

function jsonEventLine(type: string, object: KubeObject): string {
  const cached = eventLines.get(object);
  if (cached?.type === type) return cached.line;
  const line = `${JSON.stringify({ type, object })}\n`;
  eventLines.set(object, { type, line });
  return line;
}

// Per server (keyed by its set of watches), the watches seen lagging at their last write.
const laggingByServer = new WeakMap<object, Set<Lagging>>();

/** Closes the most lagging watches until the lagging ones hold less than the server budget. */
function enforceBudget(lagging: Set<Lagging>): void {
  let total = 0;
  for (const l of lagging) {
    if (l.res.destroyed || l.res.writableLength <= LAGGING) lagging.delete(l);
    else total += l.res.writableLength;
  }
  if (total <= MAX_LAGGING_BYTES) return;
  const heaviest = [...lagging].sort((a, b) => b.res.writableLength - a.res.writableLength);
  for (const l of heaviest) {
    if (total <= MAX_LAGGING_BYTES) break;
    total -= l.res.writableLength;
    lagging.delete(l);
    l.close();
  }
}

/**
 * A watch of a webhook-converted custom resource: each event's object is converted by the
 * webhook before it is rendered and sent, in order. A failed conversion ends the watch with an
 * ERROR event carrying kube's 500 (clients re-list, and see the error there too).
 */
function convertingSink(
  rest: ObjectRest,
  scope: RequestScope,
  inner: WatchSink,
  render?: (o: KubeObject, first: boolean) => KubeObject,
): WatchSink {
  let chain = Promise.resolve();
  let first = true;
  let failed = false;
  return {
    send(type, object) {
      chain = chain.then(async () => {
        if (failed) return;
        let out = object;
        if (type !== "ERROR" && type !== "BOOKMARK") {
          try {
            [out] = (await rest.presentAllAsync(scope.info, scope.version, [object])) as [
              KubeObject,
            ];
          } catch (e) {
            failed = true;
            const status =
              e instanceof ApiError ? e.status : errors.internal((e as Error).message).status;
            inner.send("ERROR", status as unknown as KubeObject);
            inner.end();
            return;
          }
          if (render) {
            out = render(out, first);
            first = false;
          }
        }
        inner.send(type, out);
      });
    },
    end() {
      chain = chain.then(() => inner.end());
    },
    onClose: (fn) => inner.onClose(fn),
  };
}

export interface WatchOptions {
  /** Renders each object as the client asked (Table rows, partial metadata). */
  render?: (o: KubeObject, first: boolean) => KubeObject;
  /** Length-prefixed protobuf WatchEvent frames instead of newline-delimited JSON. */
  protobuf?: boolean;
}

export function serveWatch(
  store: Store,
  rest: ObjectRest,
  watches: Set<{ close(): void }>,
  res: ServerResponse,
  scope: RequestScope,
  opts: WatchOptions = {},
): void {
  const { render, protobuf } = opts;
  res.writeHead(200, {
    // kube names the protobuf stream's framing; JSON is newline-delimited either way.
    "Content-Type": protobuf ? `${PROTOBUF};stream=watch` : "application/json",
    "Transfer-Encoding": "chunked",
    "Cache-Control": "no-cache, private",
    ...warningHeader(scope.warnings),
  });
  // Without this an idle watch never reaches the client and informers hang (spec §1).
  res.flushHeaders();
  const closers: (() => void)[] = [];
  let ended = false;
  let lagging = laggingByServer.get(watches);
  if (!lagging) {
    lagging = new Set();
    laggingByServer.set(watches, lagging);
  }
  // Unresponsive: end the stream now; what is buffered is dropped with the connection.
  const drop = () => {
    if (ended) return;
    ended = true;
    for (const fn of closers) fn();
    res.destroy();
  };
  const self: Lagging = { res, close: drop };
  const sink: WatchSink = {
    send(type, object) {
      if (ended) return;
      res.write(
        (protobuf && encodeWatchFrame(scope.info.kube.catalog, type, object)) ||
          jsonEventLine(type, object),
      );
      if (res.writableLength > MAX_WATCH_BUFFER) drop();
      else if (res.writableLength > LAGGING) {
        lagging.add(self);
        enforceBudget(lagging);
      }
    },
    end() {
      if (ended) return;
      ended = true;
      res.end();
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
  // The request stream closes as soon as its (empty) body is read; only the response's
  // close means the client went away.
  res.on("close", () => {
    ended = true;
    lagging.delete(self);
    for (const fn of closers) fn();
  });
  const w = scope.info.conversionWebhook
    ? startWatch(store, rest, scope, convertingSink(rest, scope, sink, render), {
        present: (o) => o,
      })
    : startWatch(store, rest, scope, sink, render ? { render } : {});
  const handle = { close: () => w.close() };
  watches.add(handle);
  res.on("close", () => watches.delete(handle));
}
