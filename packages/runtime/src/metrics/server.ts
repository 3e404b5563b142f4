/**
 * The metrics server (controller-runtime's pkg/metrics/server): `/metrics` from the manager's
 * registry, over HTTPS when `secure` (certificates from a folder, reloaded on change, or a
 * self-signed pair made at start) and wrapped in a filter (the TokenReview/SubjectAccessReview
 * check). TLS 1.2 at least; HTTP/1.1 only unless `enableHttp2`, as Kubebuilder's main.go disables
 * HTTP/2 by default (HTTP/2 Stream Cancellation and Rapid Reset CVEs). The server defends itself:
 * header and request timeouts, a TLS handshake timeout, a connection cap, and no request bodies.
 */
import type http from "node:http";
import type http2 from "node:http2";
import type https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import type tls from "node:tls";
import type { Registry } from "prom-client";
import { createPlainServer, createTlsServer, httpError, tlsBase } from "../internal/http-server.js";
import { requestUrl } from "../internal/request-url.js";
import type { Logger } from "../log/logger.js";
import { CertWatcher } from "../tls/certwatcher.js";
import type { Filter, Handler } from "./authn-authz.js";

export interface MetricsServerOptions {
  bind: { host?: string; port: number };
  registry: Registry;
  log: Logger;
  /** HTTPS instead of HTTP. */
  secure: boolean;
  /** Folder holding the serving certificate; without it a self-signed one is made. */
  certDir?: string;
  /** File names in certDir (default tls.crt and tls.key). */
  certName?: string;
  keyName?: string;
  /** Offer HTTP/2 through ALPN (default false). */
  enableHttp2?: boolean;
  /** Wraps /metrics (authentication and authorization). */
  filter?: Filter;
  /** How often the certificate files are polled for changes (default 10 000 ms). */
  certPollIntervalMs?: number;
}

export interface MetricsServer {
  port: number;
  secure: boolean;
  close(): Promise<void>;
}

function metricsHandler(registry: Registry): Handler {
  return async (req, res) => {
    const body = await registry.metrics();
    res.writeHead(200, { "Content-Type": registry.contentType });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}

/** Routes one request: only GET/HEAD /metrics, without a body; the filter sees only those. */
function route(handler: Handler, log: Logger): Handler {
  return (req, res) => {
    const url = requestUrl(req);
    if (!url) return httpError(res, 400, "Bad Request");
    if (url.pathname !== "/metrics") return httpError(res, 404, "404 page not found");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return httpError(res, 405, "Method Not Allowed");
    }
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > 0 || req.headers["transfer-encoding"] !== undefined) {
      // Not read, so not kept: the connection closes after the answer.
      res.setHeader("Connection", "close");
      return httpError(res, 413, "Request Entity Too Large");
    }
    return Promise.resolve(handler(req, res)).catch((err) => {
      log.error("serving metrics failed", err);
      httpError(res, 500, "An error has occurred while serving metrics");
    });
  };
}

type AnyServer = http.Server | https.Server | http2.Http2SecureServer;

/** Starts the server; resolves once listening. A bad certificate or a busy port rejects. */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const log = opts.log;
  const handler = route(
    opts.filter ? opts.filter(log, metricsHandler(opts.registry)) : metricsHandler(opts.registry),
    log,
  );
  let watcher: CertWatcher | undefined;
  let server: AnyServer;
  if (opts.secure) {
    const base = tlsBase(opts.enableHttp2);
    let pair: { cert: string | Buffer; key: string | Buffer };
    if (opts.certDir) {
      watcher = new CertWatcher(
        join(opts.certDir, opts.certName ?? "tls.crt"),
        join(opts.certDir, opts.keyName ?? "tls.key"),
        {
          log,
          intervalMs: opts.certPollIntervalMs,
          onChange: (next) => (server as tls.Server).setSecureContext({ ...base, ...next }),
        },
      );
      pair = watcher.pair;
    } else {
      // Loaded when used: the certificate module's ASN.1 library costs a process that serves
      // metrics from files, or none, about 0.1 s of start.
      pair = (await import("../tls/self-signed.js")).selfSignedCertificate();
    }
    server = createTlsServer(base, pair, opts.enableHttp2, handler);
  } else {
    server = createPlainServer(handler);
  }

  // Every TCP connection (handshaking, keep-alive, HTTP/2 session) is tracked so close() ends them
  // at once instead of waiting for their timeouts.
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  // A failed handshake (a plain-HTTP client, a scanner) is the client's problem: keep serving.
  server.on("tlsClientError", () => {});

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.bind.port, opts.bind.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (err) => log.error("metrics server error", err));
  watcher?.start();
  return {
    port: (server.address() as AddressInfo).port,
    secure: opts.secure,
    close: () =>
      new Promise<void>((resolve) => {
        watcher?.stop();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
