/**
 * The HTTPS client kube-apiserver calls webhooks with (`apiserver: pkg/util/webhook/client.go`):
 * POST of a JSON review, the webhook's `caBundle` trusted besides the system roots, the server
 * name checked against the URL's host (or the Service's DNS name), `?timeout=<n>s` on the URL,
 * and failures worded as Go's HTTP client words them (`Post "<url>": <cause>`), since that is
 * what kube puts in front of clients. Answers are bounded in size: a webhook cannot make the
 * test server buffer without end.
 */
import { request } from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";

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

/** POSTs `body` and returns the decoded JSON answer; throws CallError with Go's wording. */
export function postJson(target: CallTarget, body: unknown): Promise<unknown> {
  const u = new URL(target.url);
  const payload = Buffer.from(JSON.stringify(body));
  const ca = target.caBundle ? Buffer.from(target.caBundle, "base64").toString("utf8") : undefined;
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
        // The caBundle is appended to the system roots, as client-go does.
        ...(ca ? { ca: [...rootCertificates, ca] } : {}),
        // One connection per call: a test's webhook server can stop between calls.
        agent: false,
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
    const timer = setTimeout(() => {
      req.destroy();
      done(() => reject(fail("context deadline exceeded")));
    }, target.timeoutMs);
    req.on("error", (e) => done(() => reject(fail(goCause(e, target)))));
    req.end(payload);
  });
}
