/**
 * The event recorder (controller-runtime's GetEventRecorder): writes events.k8s.io/v1 Events about
 * an object, falling back to core/v1 Events when the cluster does not serve events.k8s.io. A
 * repeat of the same event within ten minutes updates the existing Event's series/count instead of
 * creating another (client-go's aggregation, simplified). Recording never blocks or fails a
 * reconcile: writes run in the background and errors are logged.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { isNotFound } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { RestClient } from "../internal/rest/http.js";
import type { Logger } from "../log/logger.js";
import { nullLogger } from "../log/logger.js";

export type EventType = "Normal" | "Warning";

export interface EventRecorder {
  /**
   * Records an event about `regarding`. `action` says what was done ("Created", "Scaling"),
   * `reason` why, `note` is the human-readable message (≤ 1 kB).
   */
  event(
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): void;
  /** Resolves once queued writes have finished (tests, shutdown). */
  flush(): Promise<void>;
}

interface SeriesEntry {
  name: string;
  namespace: string;
  count: number;
  firstSeen: number;
  api: "events.k8s.io" | "core";
}

const seriesWindowMs = 10 * 60 * 1000;

function microTime(d = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

function reference(obj: KubeObject) {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata?.name,
    namespace: obj.metadata?.namespace,
    uid: obj.metadata?.uid,
    resourceVersion: obj.metadata?.resourceVersion,
  };
}

export class Recorder implements EventRecorder {
  private readonly instance: string;
  private readonly series = new Map<string, SeriesEntry>();
  private pending = new Set<Promise<void>>();
  private eventsApi: "unknown" | "events.k8s.io" | "core" = "unknown";

  constructor(
    private readonly rest: RestClient,
    private readonly controller: string,
    private readonly log: Logger = nullLogger,
  ) {
    // reportingInstance must be ≤ 128 characters.
    this.instance = `${controller}-${os.hostname()}`.slice(0, 128);
  }

  event(
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): void {
    const p = this.write(regarding, type, reason, action, note.slice(0, 1024), related)
      .catch((err) =>
        this.log.error("unable to record event", err, {
          reason,
          object: `${regarding.metadata?.namespace ?? ""}/${regarding.metadata?.name ?? ""}`,
        }),
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async write(
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): Promise<void> {
    const namespace = regarding.metadata?.namespace || "default";
    const key = [regarding.metadata?.uid, type, reason, action, note].join("\u0000");
    const now = Date.now();
    const prev = this.series.get(key);
    if (prev && now - prev.firstSeen < seriesWindowMs) {
      prev.count++;
      try {
        await this.bump(prev);
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.series.delete(key); // the Event expired server-side; start a new one
      }
    }
    const name = `${regarding.metadata?.name ?? "unknown"}.${now.toString(16)}${randomBytes(2).toString("hex")}`;
    const api = await this.create(name, namespace, regarding, type, reason, action, note, related);
    this.series.set(key, { name, namespace, count: 1, firstSeen: now, api });
    if (this.series.size > 4096) this.series.delete(this.series.keys().next().value as string);
  }

  private async create(
    name: string,
    namespace: string,
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): Promise<"events.k8s.io" | "core"> {
    const eventTime = microTime();
    if (this.eventsApi !== "core") {
      try {
        await this.rest.request({
          method: "POST",
          path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
          body: {
            apiVersion: "events.k8s.io/v1",
            kind: "Event",
            metadata: { name, namespace },
            eventTime,
            reportingController: this.controller,
            reportingInstance: this.instance,
            action,
            reason,
            note,
            type,
            regarding: reference(regarding),
            ...(related ? { related: reference(related) } : {}),
          },
        });
        this.eventsApi = "events.k8s.io";
        return "events.k8s.io";
      } catch (err) {
        // 404 on the collection means the group is not served: use core/v1 from now on.
        if (!isNotFound(err) || this.eventsApi === "events.k8s.io") throw err;
        this.eventsApi = "core";
      }
    }
    const ts = eventTime.replace(/\.\d+Z$/, "Z");
    await this.rest.request({
      method: "POST",
      path: `/api/v1/namespaces/${namespace}/events`,
      body: {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name, namespace },
        involvedObject: reference(regarding),
        ...(related ? { related: reference(related) } : {}),
        reason,
        action,
        message: note,
        type,
        source: { component: this.controller, host: os.hostname() },
        reportingComponent: this.controller,
        reportingInstance: this.instance,
        firstTimestamp: ts,
        lastTimestamp: ts,
        count: 1,
      },
    });
    return "core";
  }

  private async bump(entry: SeriesEntry): Promise<void> {
    const now = microTime();
    if (entry.api === "events.k8s.io") {
      await this.rest.request({
        method: "PATCH",
        path: `/apis/events.k8s.io/v1/namespaces/${entry.namespace}/events/${entry.name}`,
        body: { series: { count: entry.count, lastObservedTime: now } },
        contentType: "application/merge-patch+json",
      });
      return;
    }
    await this.rest.request({
      method: "PATCH",
      path: `/api/v1/namespaces/${entry.namespace}/events/${entry.name}`,
      body: { count: entry.count, lastTimestamp: now.replace(/\.\d+Z$/, "Z") },
      contentType: "application/merge-patch+json",
    });
  }
}
