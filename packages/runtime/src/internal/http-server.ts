/**
 * What the metrics and webhook servers share: controller-runtime's httpserver limits, the TLS
 * server they both build (TLS 1.2 at least, HTTP/1.1 unless HTTP/2 is asked for, the limits
 * applied), and Go's http.Error answer.
 */
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type tls from "node:tls";

/** controller-runtime's httpserver.New (ReadHeaderTimeout 32 s, IdleTimeout 90 s) and a cap. */
export const serverLimits = {
  headersTimeout: 32_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 90_000,
  handshakeTimeout: 10_000,
  maxConnections: 512,
} as const;

export type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type TlsBase = tls.SecureContextOptions & tls.TlsOptions;

/** The TLS options every certificate (first and reloaded) is served with. */
export function tlsBase(enableHttp2: boolean | undefined): TlsBase {
  return {
    minVersion: "TLSv1.2",
    handshakeTimeout: serverLimits.handshakeTimeout,
    ALPNProtocols: enableHttp2 ? ["h2", "http/1.1"] : ["http/1.1"],
  };
}

/** An HTTPS server (HTTP/2 with HTTP/1.1 fallback when `enableHttp2`) with the limits set. */
export function createTlsServer(
  base: TlsBase,
  pair: { cert: string | Buffer; key: string | Buffer },
  enableHttp2: boolean | undefined,
  listener: RequestListener,
): https.Server | http2.Http2SecureServer {
  // HTTP/2's compatibility request and response offer what the listeners use of HTTP/1.1's.
  const server = enableHttp2
    ? http2.createSecureServer(
        { ...base, ...pair, allowHTTP1: true, settings: { maxConcurrentStreams: 100 } },
        listener as unknown as (
          req: http2.Http2ServerRequest,
          res: http2.Http2ServerResponse,
        ) => void,
      )
    : https.createServer({ ...base, ...pair, ...requestTimeouts() }, listener);
  server.maxConnections = serverLimits.maxConnections;
  // HTTP/2 has no per-request timeouts: an idle session is closed instead.
  if (enableHttp2) server.setTimeout(serverLimits.requestTimeout);
  return server;
}

/** A plain HTTP server with the limits set. */
export function createPlainServer(listener: RequestListener): http.Server {
  const server = http.createServer(requestTimeouts(), listener);
  server.maxConnections = serverLimits.maxConnections;
  return server;
}

function requestTimeouts() {
  return {
    headersTimeout: serverLimits.headersTimeout,
    requestTimeout: serverLimits.requestTimeout,
    keepAliveTimeout: serverLimits.keepAliveTimeout,
  };
}

/** Go's http.Error: the message and a newline as text/plain, not sniffable. */
export function httpError(
  res: http.ServerResponse,
  code: number,
  msg: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(code, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    })
    .end(`${msg}\n`);
}
