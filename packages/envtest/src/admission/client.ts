/**
 * The HTTPS client kube-apiserver calls webhooks with (`apiserver: pkg/util/webhook/client.go`):
 * POST of a JSON review, the webhook's `caBundle` trusted besides the system roots, the server
 * name checked against the URL's host (or the Service's DNS name), `?timeout=<n>s` on the URL,
 * and failures worded as Go's HTTP client words them (`Post "<url>": <cause>`), since that is
 * what kube puts in front of clients. Answers are bounded in size: a webhook cannot make the
 * test server buffer without end.
 */
import type { ClientRequest } from "node:http";
import { Agent, request } from "node:https";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";

/** Largest webhook answer read (kube-apiserver bounds request bodies at 3 MiB as well). */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** Where one call goes. */
export interface CallTarget {
  /** The URL as printed in errors, with `?timeout=<n>s`. */
  url: string;
  /** Dial here instead of the URL's host (a Service's endpoint). */
  connectHost?: string;
  connectPort?: number;
  /** TLS server name when dialling an endpoint (`<service>.<namespace>.svc`). */
  serverName?: string;
  /** Base64 PEM from the configuration. */
  caBundle?: string;
  timeoutMs: number;
}

/** A call that did not produce a usable answer (kube's ErrCallingWebhook cause). */
export class CallError extends Error {
  override readonly name = "CallError";
}

/** A call answered with a non-2xx status: the error text client-go's REST client produces. */
function statusError(code: number, body: string): string {
  try {
    const s = JSON.parse(body) as { kind?: string; message?: string };
    if (s.kind === "Status" && s.message) return s.message;
  } catch {
    // not a Status: described by its code below
  }
  if (code === 404) return "the server could not find the requested resource";
  const text = body.trim().slice(0, 256);
  return `an error on the server ("${text}") has prevented the request from succeeding`;
}

/** Go's wording for the network and TLS failures Node reports. */
function goCause(err: NodeJS.ErrnoException, target: CallTarget): string {
  const u = new URL(target.url);
  const host = target.connectHost ?? u.hostname.replace(/^\[|\]$/g, "");
  const port = target.connectPort ?? (u.port ? Number(u.port) : 443);
  const addr = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  switch (err.code) {
    case "ECONNREFUSED":
      return `dial tcp ${addr}: connect: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `dial tcp: lookup ${host}: no such host`;
    case "ECONNRESET":
      return "read: connection reset by peer";
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "CERT_SIGNATURE_FAILURE":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: x509: certificate is not valid for ${target.serverName ?? host}`;
    default:
      return err.message;
  }
}

/**
 * One keep-alive agent per caBundle, as client-go caches a transport per TLS config: a TLS
 * handshake per call would cost more than the call, and building a context with the ~140 system
 * roots costs tens of milliseconds. Agents never share sockets across bundles, so a connection
 * is only reused under the CA that verified it.
 */
const agents = new Map<string, Agent>();
const MAX_AGENTS = 64;

function agentFor(caBundle: string | undefined): Agent {
  const key = caBundle ?? "";
  let agent = agents.get(key);
  if (!agent) {
    // The caBundle is appended to the system roots, as client-go does.
    const ca = caBundle
      ? [...rootCertificates, Buffer.from(caBundle, "base64").toString("utf8")]
      : undefined;
    const secureContext = createSecureContext({ ...(ca ? { ca } : {}), minVersion: "TLSv1.2" });
    agent = new Agent({ keepAlive: true, maxFreeSockets: 16 });
    const base = agent.createConnection.bind(agent);
    // The context is the agent's, whatever the request says.
    agent.createConnection = ((opts: object, cb?: unknown) =>
      (base as (o: object, c?: unknown) => unknown)(
        { ...opts, secureContext },
        cb,
      )) as Agent["createConnection"];
    if (agents.size >= MAX_AGENTS) {
      const [oldest, a] = agents.entries().next().value as [string, Agent];
      agents.delete(oldest);
      a.destroy();
    }
    agents.set(key, agent);
  }
  return agent;
}

/** A reused keep-alive connection the server had closed: Go's transport retries those. */
function staleConnection(req: ClientRequest, err: NodeJS.ErrnoException): boolean {
  return req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
}

/** POSTs `body` and returns the decoded JSON answer; throws CallError with Go's wording. */
export async function postJson(target: CallTarget, body: unknown): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  const deadline = Date.now() + target.timeoutMs;
  try {
    return await postOnce(target, payload, deadline);
  } catch (e) {
    if (!(e instanceof StaleConnection)) throw e;
    return await postOnce(target, payload, deadline);
  }
}

class StaleConnection extends Error {}

function postOnce(target: CallTarget, payload: Buffer, deadline: number): Promise<unknown> {
  const u = new URL(target.url);
  const fail = (cause: string) => new CallError(`Post "${target.url}": ${cause}`);
  const name = target.serverName ?? u.hostname.replace(/^\[|\]$/g, "");
  const sni = isIP(name) ? undefined : name;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = request(
      {
        method: "POST",
        host: target.connectHost ?? u.hostname.replace(/^\[|\]$/g, ""),
        port: target.connectPort ?? (u.port ? Number(u.port) : 443),
        path: `${u.pathname}${u.search}`,
        // SNI carries names only; an IP host is still checked against the IP SANs.
        ...(sni ? { servername: sni } : {}),
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, */*",
          "User-Agent": "kube-apiserver-admission",
          "Content-Length": payload.length,
        },
        agent: agentFor(target.caBundle),
        minVersion: "TLSv1.2",
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy();
            done(() => reject(fail(`response body larger than ${MAX_RESPONSE_BYTES} bytes`)));
            return;
          }
          chunks.push(c);
        });
        res.on("error", (e) => done(() => reject(fail(e.message))));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            done(() => reject(new CallError(statusError(code, text))));
            return;
          }
          try {
            const parsed = JSON.parse(text) as unknown;
            done(() => resolve(parsed));
          } catch (e) {
            done(() => reject(new CallError((e as Error).message)));
          }
        });
      },
    );
    const timer = setTimeout(
      () => {
        req.destroy();
        done(() => reject(fail("context deadline exceeded")));
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on("error", (e) =>
      done(() =>
        reject(staleConnection(req, e) ? new StaleConnection() : fail(goCause(e, target))),
      ),
    );
    req.end(payload);
  });
}
