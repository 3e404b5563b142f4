/**
 * The webhook endpoint `opgen dev` owns. The webhook configurations and conversion CRDs installed
 * in envtest point here, on a port that stays the same for the whole session, and each call is
 * relayed to the operator's webhook server on a private port. A call that arrives while the
 * operator restarts (a reload rebuilds it and starts a new process) waits for the new process, up
 * to `holdMs` and within the call's own `?timeout=`, instead of failing with connection refused; a
 * call that still cannot be relayed is answered 503 with a Status saying why, which kube-apiserver
 * reports as a failing webhook, so the configuration's failurePolicy applies.
 *
 * TLS ends here, with the certificate envtest minted (the one the operator serves too), so a call
 * is read whole before it is relayed and can be sent again when the operator's connection is
 * refused or reset: the same call kube-apiserver itself sends again on a reset connection.
 */
import { readFileSync } from "node:fs";
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** Where the operator's webhook server listens, and the CA its certificate is signed by. */
export interface RelayTarget {
  host: string;
  port: number;
  /** Holds the serving certificate (`tls.crt`, `tls.key`) the relay presents as well. */
  certDir: string;
  caBundle: Buffer;
}

export interface RelayOptions {
  /** How long a call waits for the operator's webhook server to answer. */
  holdMs: number;
  /** Called when a call starts waiting, once until a call is relayed again. */
  onHold(path: string): void;
}

/** Largest call relayed (the runtime's webhook server takes conversion reviews up to 64 MiB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How often a waiting call dials the operator again. */
const REDIAL_MS = 50;
/** Kept free of the call's own timeout, so the caller reads this relay's answer, not a deadline. */
const TIMEOUT_MARGIN_MS = 500;
/** The connection errors of a server that is not listening (yet) or went away mid-call. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE"]);
/** Hop-by-hop headers (RFC 9110 §7.6.1) are not relayed. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
]);

type Attempt =
  | { kind: "answered" }
  | { kind: "unreachable"; cause: string }
  | { kind: "failed"; cause: string };

export class WebhookRelay {
  private target?: RelayTarget;
  private down?: string;
  private holding = false;

  private constructor(
    private readonly server: https.Server,
    readonly host: string,
    readonly port: number,
    private readonly options: RelayOptions,
  ) {}

  /**
   * Listens on a free port of `host` before any certificate exists: envtest needs the port to
   * point the configurations here, and mints the certificate while it starts.
   */
  static async listen(host: string, options: RelayOptions): Promise<WebhookRelay> {
    let relay: WebhookRelay | undefined;
    const server = https.createServer({ minVersion: "TLSv1.2" }, (req, res) => {
      // A caller that goes away mid-call (its body cut short) just ends that call.
      relay?.handle(req, res).catch(() => res.destroy());
    });
    // A failed handshake (a scanner, a client that does not trust the CA) is the client's problem.
    server.on("tlsClientError", () => {});
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    relay = new WebhookRelay(server, host, (server.address() as AddressInfo).port, options);
    return relay;
  }

  /** Serves with the certificate in `target.certDir` and relays to the operator at `target`. */
  relayTo(target: RelayTarget): void {
    this.server.setSecureContext({
      cert: readFileSync(join(target.certDir, "tls.crt")),
      key: readFileSync(join(target.certDir, "tls.key")),
    });
    this.target = target;
  }

  /** No operator runs and none is starting: calls are answered at once, with `reason`. */
  operatorDown(reason: string): void {
    this.down = reason;
    this.holding = false;
  }

  /** An operator process is starting: calls wait for it again (and the next wait is told). */
  operatorStarting(): void {
    this.down = undefined;
    this.holding = false;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hold = holdFor(req.url, this.options.holdMs);
    const deadline = Date.now() + hold;
    const body = await readBody(req);
    if (body === undefined) {
      return answer(res, 413, `the call is larger than ${MAX_BODY_BYTES} bytes`);
    }
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    for (;;) {
      if (this.down !== undefined) return answer(res, 503, this.down);
      const target = this.target;
      const attempt: Attempt = target
        ? await relayOnce(target, req, body, res, gone.signal)
        : { kind: "unreachable", cause: "the API server is still starting" };
      if (attempt.kind === "answered") {
        this.holding = false;
        return;
      }
      if (gone.signal.aborted) return;
      if (attempt.kind === "failed") return answer(res, 502, operatorFailed(target, attempt.cause));
      if (Date.now() + REDIAL_MS > deadline) {
        return answer(res, 503, notAnswering(target, hold, attempt.cause));
      }
      if (!this.holding) {
        this.holding = true;
        this.options.onHold(new URL(req.url ?? "/", "https://relay").pathname);
      }
      await new Promise((resolve) => setTimeout(resolve, REDIAL_MS));
    }
  }
}

/** The hold of a call: `holdMs`, within the `?timeout=<n>s` kube-apiserver puts on the URL. */
export function holdFor(url: string | undefined, holdMs: number): number {
  const timeout = new URL(url ?? "/", "https://relay").searchParams.get("timeout");
  const m = timeout?.match(/^(\d+(?:\.\d+)?)(ms|s|m)$/);
  if (!m) return holdMs;
  const unit = m[2] === "ms" ? 1 : m[2] === "s" ? 1000 : 60_000;
  return Math.max(0, Math.min(holdMs, Number(m[1]) * unit - TIMEOUT_MARGIN_MS));
}

/** The body, or undefined when it is larger than MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** One try: the operator's answer is streamed to the caller as it comes. */
function relayOnce(
  target: RelayTarget,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  gone: AbortSignal,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const upstream = https.request(
      {
        host: target.host,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...endToEnd(req.headers), "content-length": body.length },
        ca: target.caBundle,
        agent: false,
        signal: gone,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, endToEnd(reply.headers));
        reply.pipe(res);
        // Cut mid-answer: the caller sees a broken answer, as it would from the operator itself.
        reply.once("error", () => res.destroy());
        resolve({ kind: "answered" });
      },
    );
    upstream.once("error", (e: NodeJS.ErrnoException) => {
      if (res.headersSent) return;
      const cause = describe(e, target);
      resolve(
        UNREACHABLE.has(e.code ?? "") ? { kind: "unreachable", cause } : { kind: "failed", cause },
      );
    });
    upstream.end(body);
  });
}

function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

function describe(e: NodeJS.ErrnoException, target: RelayTarget): string {
  if (e.code === "ECONNREFUSED")
    return `dial tcp ${target.host}:${target.port}: connection refused`;
  if (e.code === "ECONNRESET") return "connection reset by the operator";
  return e.message;
}

function notAnswering(target: RelayTarget | undefined, holdMs: number, cause: string): string {
  const where = target ? ` at ${target.host}:${target.port}` : "";
  return `opgen dev: the operator's webhook server${where} did not answer within ${holdMs / 1000} s (${cause}); see the operator's log in the output of opgen dev`;
}

function operatorFailed(target: RelayTarget | undefined, cause: string): string {
  const where = target ? ` at ${target.host}:${target.port}` : "";
  return `opgen dev: cannot call the operator's webhook server${where}: ${cause}`;
}

/** An answer kube-apiserver reads as a failed call: a Status it quotes in its error. */
function answer(res: ServerResponse, code: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const reason =
    code === 413 ? "RequestEntityTooLarge" : code === 502 ? "InternalError" : "ServiceUnavailable";
  res.writeHead(code, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      code,
    }),
  );
}
