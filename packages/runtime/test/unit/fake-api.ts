/**
 * An in-memory API server for core/v1 kinds, standing in for the RestClient: create, get, list,
 * update, merge patch (also of /status), delete, dry runs, and watches whose events the test
 * delivers when it chooses (`hold`, `deliverNext`, `deliverAll`), so a test controls exactly when
 * the informers see a write; `expireWatches` ends every watch with 410 Gone (history compacted:
 * held events are lost and informers relist). Deletes answer with the object, or with a Status
 * when `statusDeletes`.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../../src/index.js";
import type { RestClient, RestRequest, WatchEvent } from "../../src/internal/rest/http.js";

const pathRe = /^\/api\/v1(?:\/namespaces\/([^/]+))?\/([a-z]+)(?:\/([^/]+))?(?:\/(status))?$/;

interface Watch {
  plural: string;
  namespace?: string;
  onEvent: (e: WatchEvent) => void;
  fail: (err: unknown) => void;
}

export class FakeApi {
  private rv = 100;
  private uids = 0;
  readonly objects = new Map<string, KubeObject>();
  private readonly watches = new Set<Watch>();
  private readonly pending: Array<{ plural: string; event: WatchEvent }> = [];
  /** Hold watch events until `deliverNext`/`deliverAll` (default: delivered at once). */
  hold = false;
  /** Answer deletes with a Status carrying the uid, as kube does for custom resources. */
  statusDeletes = false;
  /** Every request, as "METHOD path". */
  readonly requests: string[] = [];

  get rest(): RestClient {
    return this as unknown as RestClient;
  }

  async request<T>(req: RestRequest): Promise<T> {
    this.requests.push(`${req.method} ${req.path}`);
    const m = pathRe.exec(req.path);
    if (!m) throw new Error(`fake API: unsupported path ${req.path}`);
    const [, ns, plural = "", name, sub] = m;
    const key = `${plural}/${ns ?? ""}/${name ?? ""}`;
    const dryRun = req.query?.dryRun === "All";
    const stored = this.objects.get(key);
    const gr = { group: "", resource: plural };
    switch (req.method) {
      case "GET": {
        if (name) {
          if (!stored) throw errors.notFound(gr, name);
          return structuredClone(stored) as T;
        }
        const items = [...this.objects.entries()]
          .filter(([k]) => k.startsWith(`${plural}/${ns ? `${ns}/` : ""}`))
          .map(([, o]) => structuredClone(o));
        return { items, metadata: { resourceVersion: String(this.rv) } } as T;
      }
      case "POST": {
        const obj = structuredClone(req.body as KubeObject);
        obj.metadata ??= {};
        const meta = obj.metadata;
        meta.name ??= `${meta.generateName ?? "obj-"}${++this.uids}`;
        const k = `${plural}/${ns ?? ""}/${meta.name}`;
        if (this.objects.has(k)) throw errors.alreadyExists(gr, meta.name);
        meta.uid = `uid-${++this.uids}`;
        return this.commit(plural, k, obj, "ADDED", dryRun) as T;
      }
      case "PUT":
      case "PATCH": {
        if (!stored || !name) throw errors.notFound(gr, name ?? "");
        const body = req.body as KubeObject & { status?: unknown };
        const next = structuredClone(stored) as KubeObject & { status?: unknown };
        if (sub === "status") next.status = body.status;
        else if (req.method === "PUT") Object.assign(next, body, { status: next.status });
        else mergePatch(next as Record<string, unknown>, body as Record<string, unknown>);
        next.metadata = { ...next.metadata, uid: stored.metadata?.uid, name };
        return this.commit(plural, key, next, "MODIFIED", dryRun) as T;
      }
      case "DELETE": {
        if (!stored || !name) throw errors.notFound(gr, name ?? "");
        const gone = structuredClone(stored);
        if (!dryRun) {
          this.objects.delete(key);
          gone.metadata = { ...gone.metadata, resourceVersion: String(++this.rv) };
          this.emit(plural, { type: "DELETED", object: structuredClone(gone) });
        }
        if (!this.statusDeletes) return gone as T;
        return {
          kind: "Status",
          apiVersion: "v1",
          status: "Success",
          details: { name, kind: plural, uid: gone.metadata?.uid },
        } as T;
      }
      default:
        throw new ApiError(405, "MethodNotAllowed", `fake API: ${req.method}`);
    }
  }

  watch(
    path: string,
    _query: RestRequest["query"],
    onEvent: (e: WatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const m = pathRe.exec(path);
    if (!m) throw new Error(`fake API: unsupported watch ${path}`);
    return new Promise((resolve, reject) => {
      const w: Watch = {
        plural: m[2] ?? "",
        namespace: m[1],
        onEvent,
        fail: (err) => {
          this.watches.delete(w);
          reject(err);
        },
      };
      this.watches.add(w);
      const end = () => {
        this.watches.delete(w);
        resolve();
      };
      if (signal?.aborted) end();
      signal?.addEventListener("abort", end, { once: true });
    });
  }

  /** Watch events not delivered yet. */
  get held(): number {
    return this.pending.length;
  }

  deliverNext(): void {
    const next = this.pending.shift();
    if (next) this.send(next.plural, next.event);
  }

  deliverAll(): void {
    while (this.pending.length > 0) this.deliverNext();
  }

  /** Compacts history: held events are lost and every watch ends with 410 Gone. */
  expireWatches(): void {
    this.pending.length = 0;
    for (const w of [...this.watches]) w.fail(errors.gone("too old resource version"));
  }

  /** Watches open now. */
  get watching(): number {
    return this.watches.size;
  }

  /** Deletes as another client would. */
  remove(plural: string, namespace: string | undefined, name: string): void {
    const k = `${plural}/${namespace ?? ""}/${name}`;
    const gone = this.objects.get(k);
    if (!gone) return;
    this.objects.delete(k);
    gone.metadata = { ...gone.metadata, resourceVersion: String(++this.rv) };
    this.emit(plural, { type: "DELETED", object: gone });
  }

  /** Writes as another client would (no reconcile around it); returns the stored copy. */
  put(plural: string, obj: KubeObject): KubeObject {
    const k = `${plural}/${obj.metadata?.namespace ?? ""}/${obj.metadata?.name}`;
    const existing = this.objects.get(k);
    obj.metadata = { ...obj.metadata, uid: existing?.metadata?.uid ?? `uid-${++this.uids}` };
    return this.commit(plural, k, obj, existing ? "MODIFIED" : "ADDED", false);
  }

  close(): void {}

  private commit(
    plural: string,
    key: string,
    obj: KubeObject,
    type: "ADDED" | "MODIFIED",
    dryRun: boolean,
  ): KubeObject {
    if (dryRun) return obj;
    obj.metadata = { ...obj.metadata, resourceVersion: String(++this.rv) };
    this.objects.set(key, structuredClone(obj));
    this.emit(plural, { type, object: structuredClone(obj) });
    return structuredClone(obj);
  }

  private emit(plural: string, e: { type: WatchEvent["type"]; object: KubeObject }): void {
    // A watch event carries a plain JSON object; KubeObject has no index signature.
    const event = e as unknown as WatchEvent;
    if (this.hold) this.pending.push({ plural, event });
    else this.send(plural, event);
  }

  private send(plural: string, event: WatchEvent): void {
    const ns = (event.object as KubeObject).metadata?.namespace;
    for (const w of this.watches) {
      if (w.plural === plural && (!w.namespace || w.namespace === ns)) w.onEvent(event);
    }
  }
}

function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (typeof v === "object" && !Array.isArray(v) && typeof target[k] === "object") {
      mergePatch(target[k] as Record<string, unknown>, v as Record<string, unknown>);
    } else target[k] = structuredClone(v);
  }
}
