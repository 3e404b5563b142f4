/**
 * The HTTP transport to the API server, on node:http(s) with one keep-alive agent per manager.
 * Credentials come from the KubeConfig on every request (so rotating tokens and exec plugins keep
 * working); TLS material is read once into the shared agent. Watches stream newline-delimited JSON.
 *
 * Why not client-node's generated APIs or its `Watch`: they are per-group typed clients (an
 * operator's own kinds are not in them), `Watch` creates a new agent per call and drops the Status
 * body of a failed watch (so a 410 cannot be told from a 500), and neither exposes request timing
 * for the `rest_client_*` metrics.
 */
import http from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { ApiError } from "@opgen/apimachinery/status";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RestRequest {
  method: HttpMethod;
  /** Path below the cluster server URL, starting with "/". */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content-Type of the body; defaults to application/json. */
  contentType?: string;
  signal?: AbortSignal;
  /**
   * Per-request timeout in ms (default 60 s). For watches it is an idle timeout: a stream with no
   * byte for that long is presumed dead (a half-open connection never sends a FIN).
   */
  timeoutMs?: number;
  /** Overrides the client's maxRetries for this request (0: fail on the first answer). */
  retries?: number;
  /** Accept header (default application/json); e.g. the PartialObjectMetadata media types. */
  accept?: string;
}

/** Receives one observation per finished request (the rest_client_* metrics). */
export interface RestMetricsSink {
  onRequest(method: string, code: string, host: string, seconds: number): void;
}

export interface RestClientOptions {
  userAgent?: string;
  metrics?: RestMetricsSink;
  /** Maximum sockets to the API server (default 64). */
  maxSockets?: number;
  /** Retries of answers with Retry-After (default 10, as client-go). */
  maxRetries?: number;
}

/** One decoded watch event. */
export interface WatchEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  object: Record<string, unknown>;
}

export class RestClient {
  readonly server: URL;
  readonly host: string;
  private agent?: http.Agent;
  private readonly userAgent: string;

  constructor(
    private readonly kubeconfig: KubeConfig,
    private readonly opts: RestClientOptions = {},
  ) {
    const cluster = kubeconfig.getCurrentCluster();
    if (!cluster) throw new Error("kubeconfig has no current cluster");
    this.server = new URL(cluster.server);
    this.host = this.server.host;
    this.userAgent = opts.userAgent ?? "opgen-runtime";
  }

  /**
   * Sends a request and decodes the JSON answer; non-2xx answers throw an ApiError. Answers that
   * carry Retry-After are retried after the delay the server asks for, as client-go does: 429 for
   * any verb (the server rejected the request before handling it), 5xx only for GET.
   */
  async request<T>(req: RestRequest): Promise<T> {
    const maxRetries = req.retries ?? this.opts.maxRetries ?? 10;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const res = await this.send(req);
      const body = await readBody(res, req.signal);
      const code = res.statusCode ?? 0;
      this.observe(req.method, code, started);
      if (code >= 200 && code < 300) return (body ? JSON.parse(body) : {}) as T;
      const retryAfter = retryAfterSeconds(res.headers["retry-after"]);
      const retriable = code === 429 || (code >= 500 && req.method === "GET");
      if (retryAfter === undefined || !retriable || attempt >= maxRetries || req.signal?.aborted) {
        throw ApiError.fromResponse(code, body, `${req.method} ${req.path}`);
      }
      await new Promise((r) => setTimeout(r, Math.min(retryAfter, 60) * 1000));
    }
  }

  /**
   * Opens a watch and calls `onEvent` for each event until the server closes the stream (resolves)
   * or it fails (rejects: an ApiError for a non-200 answer, the transport error otherwise).
   */
  async watch(
    path: string,
    query: RestRequest["query"],
    onEvent: (event: WatchEvent) => void,
    signal?: AbortSignal,
    opts: { accept?: string } = {},
  ): Promise<void> {
    const started = performance.now();
    // The server ends the watch after timeoutSeconds; silence well beyond that means a dead peer.
    const serverTimeout = Number(query?.timeoutSeconds ?? 0);
    const req: RestRequest = {
      method: "GET",
      path,
      query: { ...query, watch: 1 },
      signal,
      timeoutMs: serverTimeout > 0 ? (serverTimeout + 60) * 1000 : undefined,
      accept: opts.accept,
    };
    const res = await this.send(req, true);
    const code = res.statusCode ?? 0;
    this.observe("GET", code, started);
    if (code !== 200) {
      const body = await readBody(res, signal);
      throw ApiError.fromResponse(code, body, `WATCH ${path}`);
    }
    await new Promise<void>((resolve, reject) => {
      let buffered = "";
      let settled = false;
      // Settle once: destroying the response emits "aborted"/"close" synchronously.
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        if (err === undefined) resolve();
        else {
          reject(err);
          res.destroy();
        }
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffered += chunk;
        let nl = buffered.indexOf("\n");
        while (nl >= 0 && !settled) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          nl = buffered.indexOf("\n");
          if (!line) continue;
          let event: WatchEvent;
          try {
            event = JSON.parse(line) as WatchEvent;
          } catch (err) {
            finish(new Error(`undecodable watch event: ${(err as Error).message}`));
            return;
          }
          try {
            onEvent(event);
          } catch (err) {
            finish(err);
            return;
          }
        }
      });
      res.on("end", () => finish());
      res.on("error", (err) => finish(err));
      res.on("aborted", () => finish(new Error("watch stream aborted")));
      res.on("close", () => finish());
    });
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private observe(method: string, code: number, started: number): void {
    this.opts.metrics?.onRequest(
      method,
      String(code),
      this.host,
      (performance.now() - started) / 1000,
    );
  }

  private async send(req: RestRequest, streaming = false): Promise<http.IncomingMessage> {
    const options: https.RequestOptions = {};
    // Fresh credentials on every call: client-node refreshes exec/OIDC tokens here.
    await this.kubeconfig.applyToHTTPSOptions(options);
    const agent = this.sharedAgent(options);
    const url = new URL(this.server.href.replace(/\/$/, "") + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      Accept: req.accept ?? "application/json",
      "User-Agent": this.userAgent,
    };
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : String(v);
    }
    if (options.auth)
      headers.Authorization = `Basic ${Buffer.from(options.auth).toString("base64")}`;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = typeof req.body === "string" ? req.body : JSON.stringify(req.body);
      headers["Content-Type"] = req.contentType ?? "application/json";
      headers["Content-Length"] = String(Buffer.byteLength(payload));
    }
    const mod = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const r = mod.request(
        url,
        { method: req.method, headers, agent, signal: req.signal },
        resolve,
      );
      r.on("error", reject);
      const timeout = req.timeoutMs ?? (streaming ? 0 : 60_000);
      if (timeout > 0) {
        r.setTimeout(timeout, () => {
          r.destroy(new Error(`${req.method} ${req.path}: no answer for ${timeout} ms`));
        });
      }
      r.end(payload);
    });
  }

  private sharedAgent(options: https.RequestOptions): http.Agent {
    if (this.agent) return this.agent;
    const common = { keepAlive: true, maxSockets: this.opts.maxSockets ?? 64 };
    this.agent =
      this.server.protocol === "https:"
        ? new https.Agent({
            ...common,
            ca: options.ca,
            cert: options.cert,
            key: options.key,
            pfx: options.pfx,
            passphrase: options.passphrase,
            servername: options.servername,
            rejectUnauthorized: options.rejectUnauthorized,
          })
        : new http.Agent(common);
    return this.agent;
  }
}

function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function readBody(res: http.IncomingMessage, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onAbort = () => reject(signal?.reason);
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    res.on("error", reject);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
