/**
 * The HTTP side of the webhook endpoints (controller-runtime's admission/http.go and the request
 * checks of conversion.go): bodies are read up to 7 MiB (two objects of at most 3 MiB, etcd's
 * 1.5 MB ×2, plus the rest of the review), must be JSON, and must decode into a review with a
 * request. Admission failures before the handler are answered as controller-runtime answers them,
 * an AdmissionReview whose response carries the code and message (and no uid); unlike Go, whose
 * HTTP status is always 200, the HTTP status is that code too, so curl, proxies and logs see the
 * failure (the API server fails such a call either way).
 */
import type http from "node:http";
import type { Logger } from "../log/logger.js";
import { errored, type Verdict } from "./response.js";
import type { AdmissionHandler, AdmissionRequest, AdmissionReview } from "./types.js";

/** controller-runtime's maxRequestSize: 7 MiB. */
export const maxRequestBytes = 7 * 1024 * 1024;

const admissionVersions = ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"];

export class BadRequest extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the body, refusing an empty one (400) or one above `limit` bytes (413) without reading on. */
export function readBody(req: http.IncomingMessage, limit = maxRequestBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BadRequest(413, `request entity is too large; limit is ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        reject(new BadRequest(413, `request entity is too large; limit is ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (size > limit) return;
      if (size === 0) reject(new BadRequest(400, "request body is empty"));
      else resolve(Buffer.concat(chunks, size));
    });
    // A caller that hangs up mid-body is a bad request, not a server error (controller-runtime: 400).
    req.once("error", (err) =>
      reject(
        new BadRequest(400, `unable to read the body from the incoming request: ${err.message}`),
      ),
    );
  });
}

/** Go's `Header.Get("Content-Type") != "application/json"`, parameters such as charset allowed. */
export function checkJsonContentType(req: http.IncomingMessage): void {
  const contentType = req.headers["content-type"] ?? "";
  const media = contentType.split(";")[0]?.trim().toLowerCase();
  if (media !== "application/json") {
    throw new BadRequest(400, `contentType=${contentType}, expected application/json`);
  }
}

function parseJson(body: Buffer, what: string): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new BadRequest(400, `couldn't decode the ${what}: ${(err as Error).message}`);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The envelope every review shares: JSON, an object, an accepted apiVersion (the first of
 * `versions` when absent) and `kind`, and an object `request` (`noRequest` when it is missing).
 */
export function decodeReview(
  body: Buffer,
  kind: "AdmissionReview" | "ConversionReview",
  versions: readonly string[],
  noRequest: string,
): { apiVersion: string; request: Record<string, unknown> } {
  const review = parseJson(body, kind);
  if (!isObject(review))
    throw new BadRequest(400, `couldn't decode the ${kind}: not a JSON object`);
  const apiVersion = review.apiVersion ?? versions[0];
  const got = review.kind ?? kind;
  if (typeof apiVersion !== "string" || !versions.includes(apiVersion) || got !== kind) {
    throw new BadRequest(
      400,
      `unexpected ${kind} kind: ${String(apiVersion)}, Kind=${String(got)}; expected ${versions[0]} ${kind}`,
    );
  }
  const request = review.request;
  if (request === undefined || request === null) throw new BadRequest(400, noRequest);
  if (!isObject(request))
    throw new BadRequest(400, `couldn't decode the ${kind}: request is not an object`);
  return { apiVersion, request };
}

/** Decodes an AdmissionReview (v1 or v1beta1, which share a shape) and checks its request's shape. */
export function parseAdmissionReview(body: Buffer): {
  apiVersion: string;
  request: AdmissionRequest;
} {
  const { apiVersion, request: req } = decodeReview(
    body,
    "AdmissionReview",
    admissionVersions,
    "the AdmissionReview has no request",
  );
  for (const field of ["uid", "operation", "name", "namespace", "subResource"] as const) {
    if (req[field] !== undefined && typeof req[field] !== "string") {
      throw new BadRequest(
        400,
        `couldn't decode the AdmissionReview: request.${field} must be a string`,
      );
    }
  }
  for (const field of ["object", "oldObject", "options", "kind", "resource", "userInfo"] as const) {
    if (req[field] !== undefined && req[field] !== null && !isObject(req[field])) {
      throw new BadRequest(
        400,
        `couldn't decode the AdmissionReview: request.${field} must be an object`,
      );
    }
  }
  if (req.dryRun !== undefined && req.dryRun !== null && typeof req.dryRun !== "boolean") {
    throw new BadRequest(
      400,
      "couldn't decode the AdmissionReview: request.dryRun must be a boolean",
    );
  }
  return { apiVersion, request: { uid: "", userInfo: {}, ...req } as AdmissionRequest };
}

function writeJson(res: http.ServerResponse, status: number, value: unknown): void {
  const body = `${JSON.stringify(value)}\n`;
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

/**
 * Asks the client to close the connection after this answer. HTTP/1.1 only: HTTP/2 forbids the
 * header (Node throws on it), and there the answer ends one stream of a shared connection.
 */
export function closeAfter(res: http.ServerResponse): void {
  if ((res.req?.httpVersionMajor ?? 1) < 2) res.setHeader("Connection", "close");
}

/** A failure before any handler ran: a response-only review, no uid to echo. */
function writeAdmissionError(res: http.ServerResponse, err: BadRequest): void {
  const v = errored(err.code, err.message);
  if (err.code === 413) closeAfter(res); // the rest of the body is not read
  writeJson(res, err.code, { response: { uid: "", ...v } });
}

/** Serves one admission webhook: decode, call the handler, answer with the request's uid. */
export function serveAdmission(
  handler: AdmissionHandler,
  log: Logger,
  onVerdict?: (allowed: boolean, code: number) => void,
): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  return async (httpReq, res) => {
    let apiVersion: string;
    let request: AdmissionRequest;
    try {
      const body = await readBody(httpReq);
      checkJsonContentType(httpReq);
      ({ apiVersion, request } = parseAdmissionReview(body));
    } catch (err) {
      if (!(err instanceof BadRequest)) throw err;
      log.info("refused a bad admission request", { code: err.code, reason: err.message });
      onVerdict?.(false, err.code);
      writeAdmissionError(res, err);
      return;
    }
    const reqLog = log.withValues({ uid: request.uid });
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort(new Error("the caller closed the connection"));
    });
    // The API server says how long it waits (`?timeout=10s`, the webhook's timeoutSeconds): past it
    // nobody reads the answer, so work the handler passes ctx.signal to can stop.
    const timeout = /^(\d{1,4})s$/.exec(
      new URL(httpReq.url ?? "/", "https://localhost").searchParams.get("timeout") ?? "",
    );
    const timer = timeout
      ? setTimeout(
          () => aborted.abort(new Error(`the caller's timeout of ${timeout[1]}s passed`)),
          Number(timeout[1]) * 1000,
        )
      : undefined;
    timer?.unref();
    let verdict: Verdict;
    try {
      verdict = await handler({
        request,
        dryRun: request.dryRun === true,
        log: reqLog,
        signal: aborted.signal,
      });
    } catch (err) {
      // Handlers turn the defaulter's and validator's errors into verdicts; this is a bug.
      reqLog.error("webhook handler failed", err);
      verdict = errored(500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
    }
    const response = { uid: request.uid, ...verdict };
    // Response.Complete: the status defaults to code 200.
    response.status ??= { metadata: {}, code: 200 };
    onVerdict?.(response.allowed, response.status.code);
    reqLog.debug("wrote admission response", {
      allowed: response.allowed,
      code: response.status.code,
    });
    const review: AdmissionReview & { kind: string; apiVersion: string } = {
      kind: "AdmissionReview",
      apiVersion,
      response,
    };
    writeJson(res, 200, review);
  };
}

export { isObject, writeJson };
