/**
 * The wire format of requests and responses: reading and decoding bodies (JSON, YAML, the
 * protobuf of kubectl's typed generators), media types, content negotiation, JSON/YAML responses
 * with `Warning: 299` headers, and errors answered as `Status` objects.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog } from "@opgen/apimachinery/catalog";
import { ApiError, errors } from "@opgen/apimachinery/status";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { isObject, type JsonObject, type KubeObject, type ResourceInfo } from "../api/types.js";
import { inspectBody } from "./json-duplicates.js";
import { errorOutput, PROTOBUF, YAML_TYPE } from "./negotiation.js";
import { decodeProtobuf, encodeProtobuf } from "./protobuf.js";

/** What decoding learned of a JSON body's text that its parsed object no longer shows. */
export interface BodyFacts {
  /** Fields the text repeated (`spec.replicas`): strict decoding reports them. */
  duplicateFields: string[];
  /** The text held no `null`, `{}` or `[]`: there are no empty fields to drop. */
  noEmpties: boolean;
}

const facts = new WeakMap<object, BodyFacts>();

/** The facts of the body `obj` was decoded from (none known for YAML and protobuf bodies). */
export function bodyFacts(obj: object): BodyFacts {
  return facts.get(obj) ?? { duplicateFields: [], noEmpties: false };
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
  contentType = "application/json",
): void {
  const text = contentType === "application/yaml" ? stringifyYaml(body) : JSON.stringify(body);
  res.writeHead(code, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** A stack overflow while walking a request's object: the input nests too deeply. */
function isTooDeep(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

export function sendError(
  res: ServerResponse,
  err: unknown,
  warnings: string[] = [],
  accept?: string,
  catalog?: Catalog,
): void {
  const e =
    err instanceof ApiError
      ? err
      : isTooDeep(err)
        ? errors.badRequest("the request's object nests too deeply to be processed")
        : errors.internal(err instanceof Error ? err.message : String(err));
  if (!(err instanceof ApiError) && !isTooDeep(err)) {
    // Unexpected failures are bugs; keep them visible while still answering with a Status.
    process.emitWarning(
      `envtest internal error: ${err instanceof Error ? err.stack : String(err)}`,
    );
  }
  const headers = { ...e.headers, ...warningHeader(warnings) };
  // Statuses are negotiated as kube's ErrorNegotiated does: protobuf or YAML when the client
  // prefers them, JSON when nothing it accepts can be written.
  const type = errorOutput(accept);
  const encoded =
    type === PROTOBUF && catalog
      ? encodeProtobuf(catalog, e.status as unknown as JsonObject)
      : undefined;
  if (encoded) sendProtobuf(res, e.code, encoded, headers);
  else
    sendJson(res, e.code, e.status, headers, type === YAML_TYPE ? YAML_TYPE : "application/json");
}

export function warningHeader(warnings: string[]): Record<string, string[]> {
  if (warnings.length === 0) return {};
  return { Warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`) };
}

/** kube-apiserver's request body limit (`MaxRequestBodyBytes`, 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/**
 * The request body, up to MAX_BODY_BYTES: a larger one (by Content-Length, or as it arrives) is
 * a 413, and what follows the limit is read and dropped, never kept, so the answer still reaches
 * the client and memory stays bounded.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  const tooLarge = () => errors.requestEntityTooLarge(`limit is ${MAX_BODY_BYTES}`);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    throw tooLarge();
  }
  // Events rather than `for await`: the async iterator costs a few microseconds per request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      if (!over) chunks.push(c);
    });
    req.once("end", () => {
      if (over) reject(tooLarge());
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // A client gone before the end gets no answer, but the request must not hang (nor count
    // as an internal error).
    const gone = () =>
      reject(errors.badRequest("the client closed the request before its body was sent"));
    req.once("error", gone);
    req.once("close", () => {
      if (!req.complete) gone();
    });
    if (req.destroyed && !req.complete) gone();
  });
}

/** Go's JSON decoder refuses nesting deeper than this (`exceeded max depth`). */
export const MAX_JSON_DEPTH = 10000;

/**
 * The nesting depth of a JSON text, counted only for texts long enough to exceed the limit
 * (each level takes a byte), so ordinary bodies cost nothing.
 */
function exceedsJsonDepth(text: string): boolean {
  if (text.length <= MAX_JSON_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Decodes a request body: JSON, YAML, or the protobuf kubectl's typed generators send. */
export async function decodeBody(req: IncomingMessage, info: ResourceInfo): Promise<KubeObject> {
  const raw = await readBody(req);
  const ct = mediaType(req.headers["content-type"]);
  if (ct === "application/vnd.kubernetes.protobuf") {
    let decoded: KubeObject | undefined;
    try {
      decoded = decodeProtobuf(info.kube.catalog, raw);
    } catch (e) {
      throw errors.badRequest(`error decoding protobuf: ${(e as Error).message}`);
    }
    if (decoded) return decoded;
    throw errors.unsupportedMediaType([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
  }
  if (ct && ct !== "application/json" && ct !== "application/yaml" && ct !== "*/*") {
    throw errors.unsupportedMediaType([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
  }
  let v: unknown;
  try {
    const text = raw.toString("utf8");
    if (ct !== "application/yaml" && exceedsJsonDepth(text))
      throw new Error(`the JSON nests deeper than ${MAX_JSON_DEPTH} levels (exceeded max depth)`);
    v = ct === "application/yaml" ? parseYaml(text) : JSON.parse(text);
    if (ct !== "application/yaml" && isObject(v)) {
      const { duplicates, empties } = inspectBody(text, v);
      facts.set(v, { duplicateFields: duplicates, noEmpties: !empties });
    }
  } catch (e) {
    const why = isTooDeep(e) ? "the JSON nests too deeply to be processed" : (e as Error).message;
    throw errors.badRequest(`Object '${info.kind}' is invalid: ${why}`);
  }
  if (!isObject(v)) throw errors.badRequest(`Object '${info.kind}' is invalid: expected an object`);
  return v as KubeObject;
}

export { PROTOBUF };

/** Writes a protobuf body. */
export function sendProtobuf(
  res: ServerResponse,
  code: number,
  body: Buffer,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(code, {
    "Content-Type": PROTOBUF,
    "Content-Length": body.length,
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  res.end(body);
}
