/**
 * When the operator serves its webhooks, as `opgen dev` checks before it says "ready": the webhook
 * server completes a TLS handshake trusting envtest's CA and answers a GET on every path the
 * installed configurations call with anything but 404 (the runtime's server answers 405 to a GET
 * on a registered path, and 404 on any other). A 404 is final (the runtime registers no webhook
 * once its server listens): the operator does not serve that webhook and calls to it would fail.
 */
import https from "node:https";

/** A path the installed webhook configurations or conversion CRDs call, and what calls it. */
export interface WebhookEndpoint {
  path: string;
  /** e.g. `mappcluster-v1.kb.io` or `conversion of appclusters.demo.example.com`. */
  what: string;
}

export interface OperatorWebhookServer {
  host: string;
  port: number;
  caBundle: Buffer;
}

export type Readiness =
  | { kind: "ready" }
  | { kind: "failed"; message: string }
  | { kind: "aborted" };

/** How long one probe may take: short, so an abort is noticed quickly. */
const PROBE_TIMEOUT_MS = 2_000;
/** Pause between probes of a server that does not listen yet. */
const REDIAL_MS = 50;

/** Probes until every endpoint answers, one is not served, `timeoutMs` passes or `signal` aborts. */
export async function webhooksServed(
  server: OperatorWebhookServer,
  endpoints: readonly WebhookEndpoint[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Readiness> {
  const deadline = Date.now() + timeoutMs;
  const pending = [...endpoints];
  let last = "";
  while (!signal.aborted) {
    const next = pending[0];
    if (!next) return { kind: "ready" };
    const status = await probe(server, next.path, signal).catch((e: NodeJS.ErrnoException) => {
      last = e.code === "ECONNREFUSED" ? "connection refused" : e.message;
      return undefined;
    });
    if (status === 404) return { kind: "failed", message: notServed(next) };
    if (status !== undefined) {
      pending.shift();
      continue;
    }
    if (Date.now() > deadline) {
      return { kind: "failed", message: notAnswering(server, timeoutMs, last) };
    }
    await new Promise((resolve) => setTimeout(resolve, REDIAL_MS));
  }
  return { kind: "aborted" };
}

/** The status of a GET on `path`, over TLS checked against the CA. */
function probe(server: OperatorWebhookServer, path: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: server.host,
        port: server.port,
        path,
        ca: server.caBundle,
        agent: false,
        timeout: PROBE_TIMEOUT_MS,
        signal,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once("timeout", () => req.destroy(new Error("no answer within 2 s")));
    req.once("error", reject);
  });
}

function notServed(endpoint: WebhookEndpoint): string {
  return `the operator's webhook server does not serve ${endpoint.path} (${endpoint.what}), so calls to it fail: register that webhook in src/main.ts (its setup<Kind>WebhookWithManager(mgr)), or run opgen manifests if it was removed`;
}

function notAnswering(server: OperatorWebhookServer, timeoutMs: number, last: string): string {
  return `the operator's webhook server did not answer at https://${server.host}:${server.port} within ${timeoutMs / 1000} s (${last}): see the operator's log above; src/main.ts must call the setup<Kind>WebhookWithManager(mgr) functions`;
}
