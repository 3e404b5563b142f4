/**
 * The core/v1 Events kube-controller-manager's controllers record on their objects (client-go's
 * `tools/record`), with its EventCorrelator: a repeat of the same event bumps `count` and
 * `lastTimestamp` of the one already stored; past 10 distinct messages of one reason on one
 * object within 10 minutes the rest combine into one "(combined from similar events): ..." event;
 * and a token bucket per object (burst 25, one more every 5 minutes) drops the excess, so a
 * controller retrying a refused create forever cannot flood the store. Events are written through
 * the API by the recording controller's client, one at a time in the order recorded (client-go's
 * broadcaster sink): a new event is created, a repeat patched.
 */
import { isNotFound } from "@opgen/apimachinery/status";
import { nowTime } from "../api/meta.js";
import type { KubeObject } from "../api/types.js";
import type { ApiClient } from "../client/api-client.js";
import type { Store } from "../store/store.js";

const EVENTS = { group: "", version: "v1", resource: "events" };

const AGGREGATE_MAX = 10;
const AGGREGATE_WINDOW_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;
const COMBINED = "(combined from similar events): ";
const CACHE_SIZE = 4096;

interface Seen {
  name: string;
  namespace: string;
}

export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly similar = new Map<string, { messages: Set<string>; since: number }>();
  private readonly tokens = new Map<string, { left: number; at: number }>();
  private sequence = 0n;
  /** The sink: the last event write queued (writes go one after another). */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    /** The client `component` records with (its controller's service account). */
    private readonly clientFor: (component: string) => ApiClient,
  ) {}

  /**
   * Records `reason` on `obj` as `component` (a Warning or Normal event). Resolves once it is
   * written (or dropped: events are best effort, as in client-go).
   */
  event(
    component: string,
    obj: KubeObject,
    type: "Normal" | "Warning",
    reason: string,
    message: string,
  ): Promise<void> {
    const m = obj.metadata ?? {};
    const involved = {
      kind: obj.kind ?? "",
      namespace: m.namespace ?? "",
      name: m.name ?? "",
      uid: m.uid ?? "",
      apiVersion: obj.apiVersion ?? "",
      resourceVersion: m.resourceVersion ?? "",
    };
    const objectKey = [component, involved.kind, involved.namespace, involved.name, involved.uid];
    if (!this.allowed(objectKey.join("\0"))) return Promise.resolve();
    const aggregateKey = [...objectKey, type, reason].join("\0");
    const now = Date.now();
    let group = this.similar.get(aggregateKey);
    if (!group || now - group.since > AGGREGATE_WINDOW_MS) {
      group = { messages: new Set(), since: now };
      this.similar.delete(aggregateKey);
      this.similar.set(aggregateKey, group);
      if (this.similar.size > CACHE_SIZE)
        this.similar.delete(this.similar.keys().next().value as string);
    }
    group.messages.add(message);
    const combined = group.messages.size >= AGGREGATE_MAX;
    const text = combined ? `${COMBINED}${message}` : message;
    const key = combined ? aggregateKey : `${aggregateKey}\0${message}`;
    const time = nowTime();
    const client = this.clientFor(component);
    const write = async () => {
      if (await this.repeat(client, key, time, combined ? text : undefined)) return;
      // client-go names an event after its object and the time in nanoseconds, in hex.
      const nanos = BigInt(now) * 1_000_000n + (this.sequence++ % 1_000_000n);
      const name = `${involved.name}.${nanos.toString(16)}`;
      const namespace = involved.namespace || "default";
      await client.create(EVENTS, {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name, namespace },
        involvedObject: involved,
        reason,
        message: text,
        source: { component },
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: component,
        reportingInstance: "",
      });
      this.seen.set(key, { name, namespace });
      // client-go keeps an LRU of 4096 observed events; the oldest is forgotten first.
      if (this.seen.size > CACHE_SIZE) this.seen.delete(this.seen.keys().next().value as string);
    };
    // Events are best effort, as in client-go (a terminating namespace refuses them).
    const written = this.tail.then(write).catch(() => {});
    this.tail = written;
    return written;
  }

  /**
   * Resolves once every event recorded so far is written: the controllers write a status after
   * the events that explain it (client-go's sink is asynchronous; envtest orders them so a test
   * that sees the status finds the events).
   */
  written(): Promise<void> {
    return this.tail;
  }

  /** Patches the stored event `key` names (count, time, combined message); false when gone. */
  private async repeat(
    client: ApiClient,
    key: string,
    time: string,
    message: string | undefined,
  ): Promise<boolean> {
    const known = this.seen.get(key);
    const stored = known && this.store.get("/events", known.namespace, known.name);
    if (!known || !stored) return false;
    const patch = {
      count: Number(stored.count ?? 1) + 1,
      lastTimestamp: time,
      ...(message !== undefined ? { message } : {}),
    };
    try {
      await client.patch(EVENTS, known, "strategic", patch);
      return true;
    } catch (e) {
      // Deleted meanwhile: recorded anew, as client-go does.
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  /** The spam filter's token bucket for one object. */
  private allowed(key: string): boolean {
    const now = Date.now();
    const b = this.tokens.get(key) ?? { left: SPAM_BURST, at: now };
    const refill = Math.floor((now - b.at) / SPAM_REFILL_MS);
    if (refill > 0) {
      b.left = Math.min(SPAM_BURST, b.left + refill);
      b.at += refill * SPAM_REFILL_MS;
    }
    if (b.left === 0) {
      this.tokens.set(key, b);
      return false;
    }
    b.left--;
    this.tokens.set(key, b);
    if (this.tokens.size > CACHE_SIZE)
      this.tokens.delete(this.tokens.keys().next().value as string);
    return true;
  }
}
