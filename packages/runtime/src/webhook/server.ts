/**
 * The webhook server (controller-runtime's pkg/webhook/server.go): HTTPS on 9443 with the serving
 * certificate from a folder (tls.crt and tls.key, reloaded on change by the shared certwatcher),
 * TLS 1.2 at least, HTTP/1.1 unless `enableHttp2` (Kubebuilder's main.go turns HTTP/2 off for the
 * webhook and metrics servers alike: HTTP/2 Stream Cancellation and Rapid Reset CVEs). Handlers are registered by path, each counted in controller-runtime's
 * webhook metrics. The server defends itself: header, request and TLS-handshake timeouts, a cap on
 * connections, a cap on requests handled at once (more wait in a bounded queue, beyond it 429), POST
 * only, bodies bounded per endpoint. Every replica serves (no leader election), and the manager
 * starts it before the caches, since a multi-version CRD cannot be listed until /convert answers.
 */

import type http from "node:http";
import type http2 from "node:http2";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import type { Registry } from "prom-client";
import type { Checker } from "../healthz/server.js";
import { createTlsServer, httpError, tlsBase } from "../internal/http-server.js";
import { requestUrl } from "../internal/request-url.js";
import type { Logger } from "../log/logger.js";
import { CertWatcher } from "../tls/certwatcher.js";
import { ConversionRegistry, type HubSpoke, serveConversion } from "./conversion.js";
import { closeAfter, serveAdmission } from "./http.js";
import { WebhookMetrics } from "./metrics.js";
import type { AdmissionHandler } from "./types.js";

export interface WebhookServerOptions {
  /** Address to listen on (default: all). */
  host?: string;
  /** Port (default 9443; 0 picks a free one, see `port` once started). */
  port?: number;
  /** Folder with the serving certificate (default `<tmpdir>/k8s-webhook-server/serving-certs`). */
  certDir?: string;
  /** Certificate and key file names in certDir (default tls.crt and tls.key). */
  certName?: string;
  keyName?: string;
  /** How often the certificate files are polled for changes (default 10 000 ms). */
  certPollIntervalMs?: number;
  /** Offer HTTP/2 through ALPN besides HTTP/1.1 (default false; the manager passes `enableHttp2`). */
  enableHttp2?: boolean;
  /**
   * On close, how long requests being answered may take to finish before their connections are
   * cut (default 30 000 ms; controller-runtime waits up to a minute).
   */
  shutdownTimeoutMs?: number;
  /** Requests handled at once (default 64); up to `maxQueuedRequests` (default 256) more wait. */
  maxConcurrentRequests?: number;
  maxQueuedRequests?: number;
}

export const webhookServerDefaults = {
  port: 9443,
  certDir: join(tmpdir(), "k8s-webhook-server", "serving-certs"),
  certName: "tls.crt",
  keyName: "tls.key",
  maxConcurrentRequests: 64,
  maxQueuedRequests: 256,
  shutdownTimeoutMs: 30_000,
} as const;

type HttpHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Requests run at once up to `max`; `maxQueued` more wait; the rest are refused. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly maxQueued: number,
  ) {}

  async run(fn: () => Promise<void>): Promise<boolean> {
    if (this.active >= this.max) {
      if (this.waiting.length >= this.maxQueued) return false;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active++;
    try {
      await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
    return true;
  }
}

export class WebhookServer {
  private readonly handlers = new Map<string, HttpHandler>();
  private readonly conversions = new ConversionRegistry();
  private metrics?: WebhookMetrics;
  private server?: https.Server | http2.Http2SecureServer;
  private watcher?: CertWatcher;
  private readonly sockets = new Set<Socket>();
  /** Requests not yet answered, so close() can let them finish. */
  private readonly inFlight = new Set<http.ServerResponse>();
  private onIdle?: () => void;
  private closing = false;
  private registrationClosed?: string;
  private listeningPort?: number;

  constructor(
    readonly options: WebhookServerOptions,
    private readonly deps: { log: Logger; registry?: Registry },
  ) {}

  private get log(): Logger {
    return this.deps.log;
  }

  private metricsSink(): WebhookMetrics | undefined {
    if (!this.metrics && this.deps.registry) this.metrics = new WebhookMetrics(this.deps.registry);
    return this.metrics;
  }

  /** Whether anything is registered: the manager starts the server only then. */
  get hasWebhooks(): boolean {
    return this.handlers.size > 0;
  }

  isRegistered(path: string): boolean {
    return this.handlers.has(path);
  }

  /** The port listened on, once started. */
  get port(): number | undefined {
    return this.listeningPort;
  }

  /** Serves `handler` at `path`; a path can be registered once (controller-runtime panics). */
  register(path: string, handler: HttpHandler): void {
    this.add(path, handler, false);
  }

  /** Serves an admission webhook (AdmissionReview in and out) at `path`. */
  registerAdmission(path: string, handler: AdmissionHandler): void {
    const log = this.log.withValues({ webhook: path });
    this.add(
      path,
      serveAdmission(handler, log, (allowed, code) =>
        this.metrics?.admissionResponse(path, allowed, code),
      ),
      true,
    );
  }

  /** Adds a kind's hub and spokes; `/convert` is registered with the first one. */
  registerConversion(def: HubSpoke): void {
    this.conversions.register(def);
    if (!this.handlers.has("/convert")) {
      this.add(
        "/convert",
        serveConversion(this.conversions, this.log.withValues({ webhook: "/convert" })),
        false,
      );
    }
  }

  private add(path: string, handler: HttpHandler, admission: boolean): void {
    if (!path.startsWith("/")) throw new Error(`webhook path "${path}" must start with "/"`);
    if (this.handlers.has(path)) throw new Error(`can't register duplicate path: ${path}`);
    if (this.server || this.registrationClosed) {
      throw new Error(
        `cannot register ${path}: ${this.registrationClosed ?? "the webhook server already started"}`,
      );
    }
    this.handlers.set(path, handler);
    this.metricsSink()?.register(path, admission);
    this.log.info("Registering webhook", { path });
  }

  private async dispatch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    gate: Gate,
  ): Promise<void> {
    const url = requestUrl(req);
    if (!url) return httpError(res, 400, "400 Bad Request");
    const path = url.pathname;
    const handler = this.handlers.get(path);
    if (!handler) return httpError(res, 404, "404 page not found");
    const done = this.metrics?.begin(path);
    this.inFlight.add(res);
    res.once("close", () => {
      done?.(res.statusCode);
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.onIdle?.();
    });
    if (this.closing) closeAfter(res);
    if (req.method !== "POST") {
      return httpError(res, 405, "Method Not Allowed", { Allow: "POST" });
    }
    const ran = await gate.run(async () => {
      try {
        await handler(req, res);
      } catch (err) {
        this.log.error("webhook request failed", err, { path });
        httpError(res, 500, "internal error");
      }
    });
    if (!ran) {
      closeAfter(res);
      httpError(res, 429, "too many requests, please try again later", { "Retry-After": "1" });
    }
  }

  /** Refuses later registrations with `reason` (the manager calls it when it starts). */
  closeRegistration(reason: string): void {
    this.registrationClosed = reason;
  }

  /** Listens; resolves once serving. Missing or invalid certificate files reject with one line. */
  async start(): Promise<void> {
    if (this.server) throw new Error("the webhook server already started");
    const o = this.options;
    const certDir = o.certDir ?? webhookServerDefaults.certDir;
    const base = tlsBase(o.enableHttp2);
    const watcher = new CertWatcher(
      join(certDir, o.certName ?? webhookServerDefaults.certName),
      join(certDir, o.keyName ?? webhookServerDefaults.keyName),
      {
        log: this.log,
        intervalMs: o.certPollIntervalMs,
        purpose: {
          server: "webhook",
          flags:
            "--webhook-cert-path, --webhook-cert-name and --webhook-cert-key (opgen dev and startTestEnv({ webhooks }) provide certificates; ENABLE_WEBHOOKS=false runs the operator without webhooks)",
          // The two ways out, as Kubebuilder's docs give them: cert-manager in a cluster, no
          // webhooks when running locally (`make run ENABLE_WEBHOOKS=false`).
          missing:
            "in a cluster, cert-manager issues it into that folder (config/default with its [CERTMANAGER] parts, npm run deploy); outside a cluster, start the operator with ENABLE_WEBHOOKS=false (opgen dev serves the webhooks with a certificate of its own) or point --webhook-cert-path at a folder with tls.crt and tls.key",
        },
        onChange: (next) => server.setSecureContext({ ...base, ...next }),
      },
    );
    const gate = new Gate(
      o.maxConcurrentRequests ?? webhookServerDefaults.maxConcurrentRequests,
      o.maxQueuedRequests ?? webhookServerDefaults.maxQueuedRequests,
    );
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) =>
      void this.dispatch(req, res, gate).catch((err) => {
        this.log.error("webhook request failed", err);
        httpError(res, 500, "internal error");
      });
    const server = createTlsServer(base, watcher.pair, o.enableHttp2, onRequest);
    server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.once("close", () => this.sockets.delete(s));
    });
    // A failed handshake (a plain-HTTP client, a scanner, an unknown CA) is the client's problem.
    server.on("tlsClientError", () => {});
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(o.port ?? webhookServerDefaults.port, o.host || undefined, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.on("error", (err) => this.log.error("webhook server error", err));
    watcher.start();
    this.server = server;
    this.watcher = watcher;
    this.listeningPort = (server.address() as AddressInfo).port;
    this.log.info("Serving webhook server", {
      host: o.host ?? "",
      port: this.listeningPort,
      certDir,
    });
  }

  /**
   * A readiness check (controller-runtime's StartedChecker): fails until the server listens, then
   * passes when a TLS handshake with it succeeds, so a Service routes only to replicas that serve.
   */
  startedChecker(): Checker {
    return () => {
      const port = this.listeningPort;
      if (!this.server || port === undefined)
        throw new Error("webhook server has not been started yet");
      const host = this.options.host;
      const dialHost =
        host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host ? host : "localhost";
      return new Promise<void>((resolve, reject) => {
        const socket = tls.connect({
          host: dialHost,
          port,
          rejectUnauthorized: false, // only whether it serves TLS is checked, not who it is
          ALPNProtocols: ["http/1.1"],
          timeout: 10_000,
        });
        socket.once("secureConnect", () => {
          socket.end();
          resolve();
        });
        socket.once("timeout", () => {
          socket.destroy();
          reject(new Error("webhook server is not reachable: TLS handshake timed out"));
        });
        socket.once("error", (err) => {
          socket.destroy();
          reject(new Error(`webhook server is not reachable: ${err.message}`));
        });
      });
    };
  }

  /**
   * Stops listening, lets the requests being answered finish (up to `shutdownTimeoutMs`: a denied
   * or failed call is what the API server would see instead), then ends every connection.
   */
  async close(): Promise<void> {
    const server = this.server;
    if (!server || this.closing) return;
    this.closing = true;
    this.watcher?.stop();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if (server instanceof https.Server) server.closeIdleConnections();
    // Answers still to come end their connection, so keep-alive callers move to another replica.
    for (const res of this.inFlight) if (!res.headersSent) closeAfter(res);
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => {
          this.onIdle = resolve;
        }),
        new Promise<void>((resolve) => {
          timer = setTimeout(
            resolve,
            this.options.shutdownTimeoutMs ?? webhookServerDefaults.shutdownTimeoutMs,
          );
        }),
      ]);
      clearTimeout(timer);
    }
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
