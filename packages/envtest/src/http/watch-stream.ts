/**
 * Serves a watch over HTTP: chunked newline-delimited JSON, headers flushed at once (an idle
 * watch must still reach client-node, whose informer otherwise hangs), client disconnects seen on
 * the response (the request closes as soon as its empty body is read on Node 20), objects
 * rendered as the client asked (Table rows for kubectl get -w, metadata only), and registration
 * so stop() and dropWatches() can end it. A watcher that stops reading is closed once its
 * unsent events pass MAX_WATCH_BUFFER bytes, as kube-apiserver drops unresponsive watchers
 * (clients re-list and watch again), so memory stays bounded with any number of them.
 */
import type { ServerResponse } from "node:http";
import type { KubeObject } from "../api/types.js";
import type { ObjectRest } from "../rest/objects.js";
import type { RequestScope } from "../rest/scope.js";
import { startWatch, type WatchSink } from "../rest/watch.js";
import type { Store } from "../store/store.js";
import { warningHeader } from "./wire.js";

/** Bytes of unsent events a watch may hold before it is closed as unresponsive. */
export const MAX_WATCH_BUFFER = 16 * 1024 * 1024;

export function serveWatch(
  store: Store,
  rest: ObjectRest,
  watches: Set<{ close(): void }>,
  res: ServerResponse,
  scope: RequestScope,
  render?: (o: KubeObject, first: boolean) => KubeObject,
): void {
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Transfer-Encoding": "chunked",
    "Cache-Control": "no-cache, private",
    ...warningHeader(scope.warnings),
  });
  // Without this an idle watch never reaches the client and informers hang (spec §1).
  res.flushHeaders();
  const closers: (() => void)[] = [];
  let ended = false;
  const sink: WatchSink = {
    send(type, object) {
      if (ended) return;
      res.write(`${JSON.stringify({ type, object })}\n`);
      if (res.writableLength > MAX_WATCH_BUFFER) {
        // Unresponsive: end the stream now; what is buffered is dropped with the connection.
        ended = true;
        for (const fn of closers) fn();
        res.destroy();
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
    for (const fn of closers) fn();
  });
  const w = startWatch(store, rest, scope, sink, render ? { render } : {});
  const handle = { close: () => w.close() };
  watches.add(handle);
  res.on("close", () => watches.delete(handle));
}
