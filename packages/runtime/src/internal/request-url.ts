/**
 * The URL of an incoming request, or undefined when its target does not parse. Node's HTTP parser
 * accepts targets WHATWG URL rejects (`GET http://[ HTTP/1.1`), and `new URL` throwing inside a
 * request listener is an uncaught exception: one such request would end the operator. Servers
 * answer undefined with 400.
 */
import type http from "node:http";

export function requestUrl(req: http.IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}
