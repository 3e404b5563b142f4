/**
 * The health endpoints (`/healthz`, `/livez`, `/readyz`, each check under them, `?verbose`), as
 * kube-apiserver's healthz package answers them: `ok`, or with `verbose` one `[+]<check> ok` line a
 * check and `<endpoint> check passed`. envtest's checks always pass while it serves: its store
 * stands where etcd would.
 */
import type { ServerResponse } from "node:http";
import { errors } from "@opgen/apimachinery/status";
import { sendText } from "./wire.js";

const CHECKS: Record<string, readonly string[]> = {
  healthz: ["ping", "log", "etcd"],
  livez: ["ping", "log", "etcd"],
  readyz: ["ping", "log", "etcd", "informer-sync", "shutdown"],
};

/** Answers a health request; false when `path` is not one. */
export function serveHealth(path: string, query: URLSearchParams, res: ServerResponse): boolean {
  const m = /^\/(healthz|livez|readyz)(?:\/([^/]+))?\/?$/.exec(path);
  if (!m) return false;
  const endpoint = m[1]!;
  const checks = CHECKS[endpoint]!;
  if (m[2] !== undefined) {
    if (!checks.includes(m[2])) throw errors.notFoundPath();
    sendText(res, 200, "ok");
    return true;
  }
  const excluded = new Set(query.getAll("exclude"));
  if (query.has("verbose")) {
    const lines = checks.map((c) => (excluded.has(c) ? `[+]${c} excluded: ok` : `[+]${c} ok`));
    sendText(res, 200, `${lines.join("\n")}\n${endpoint} check passed\n`);
  } else sendText(res, 200, "ok");
  return true;
}
