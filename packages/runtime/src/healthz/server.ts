/**
 * The probe and metrics HTTP endpoints: `/healthz` and `/readyz` run named checks (all must pass;
 * `/healthz/<name>` runs one; `?verbose` lists them, as controller-runtime's healthz handler), and
 * `/metrics` serves the Prometheus registry.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { requestUrl } from "../internal/request-url.js";

/** A check passes by resolving and fails by throwing. */
export type Checker = () => void | Promise<void>;

/** The always-passing check (healthz.Ping). */
export const ping: Checker = () => {};

export type Routes = Record<
  string,
  (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>
>;

/** Renders a check set as a handler. */
export function checksHandler(checks: Map<string, Checker>, prefix: string): Routes[string] {
  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const sub = url.pathname.slice(prefix.length).replace(/^\//, "");
    const selected = sub ? [...checks].filter(([n]) => n === sub) : [...checks];
    if (sub && selected.length === 0) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end(`no such check: ${sub}\n`);
      return;
    }
    const results = await Promise.all(
      selected.map(async ([name, check]) => {
        try {
          await check();
          return { name, ok: true as const };
        } catch (err) {
          return {
            name,
            ok: false as const,
            err: err instanceof Error ? err.message : String(err),
          };
        }
      }),
    );
    const failed = results.filter((r) => !r.ok);
    const verbose = url.searchParams.has("verbose") || failed.length > 0;
    let body = "";
    if (verbose) {
      for (const r of results)
        body += r.ok ? `[+]${r.name} ok\n` : `[-]${r.name} failed: ${r.err}\n`;
      body += failed.length
        ? `${prefix.slice(1)} check failed\n`
        : `${prefix.slice(1)} check passed\n`;
    } else body = "ok";
    res
      .writeHead(failed.length ? 500 : 200, { "Content-Type": "text/plain; charset=utf-8" })
      .end(body);
  };
}

/** Parses ":8080", "127.0.0.1:8080" or "8080"; "0" or "" disables (undefined). */
export function parseBindAddress(
  addr: string | undefined,
): { host?: string; port: number } | undefined {
  if (addr === undefined || addr === "" || addr === "0") return undefined;
  const i = addr.lastIndexOf(":");
  const host = i >= 0 ? addr.slice(0, i).replace(/^\[|\]$/g, "") : "";
  const port = Number(i >= 0 ? addr.slice(i + 1) : addr);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid bind address "${addr}"`);
  return { host: host || undefined, port };
}

/** An HTTP server dispatching on path prefixes; resolves once listening. */
export async function serve(
  bind: { host?: string; port: number },
  routes: Routes,
): Promise<{ server: http.Server; port: number; close(): Promise<void> }> {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  const server = http.createServer((req, res) => {
    const url = requestUrl(req);
    if (!url) {
      res.writeHead(400).end();
      return;
    }
    const path = url.pathname;
    const prefix = prefixes.find((p) => path === p || path.startsWith(`${p}/`));
    if (!prefix || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404).end();
      return;
    }
    Promise.resolve(routes[prefix]!(req, res)).catch((err) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(bind.port, bind.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
