/**
 * The wire format of requests and responses: reading and decoding bodies (JSON, YAML, the
 * protobuf of kubectl's typed generators), media types, content negotiation, JSON/YAML responses
 * with `Warning: 299` headers, and errors answered as `Status` objects.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, errors } from "@opgen/apimachinery/status";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { isObject, type KubeObject } from "../api/types.js";
import { inspectBody } from "./json-duplicates.js";
import { decodeProtobuf } from "./protobuf.js";

const duplicates = new WeakMap<object, string[]>();
const withoutEmpties = new WeakSet<object>();

/**
 * Whether the JSON text `obj` came from holds no `null`, `{}` or `[]`, so decoding has no empty
 * fields to drop (one native regex test instead of a walk of the object).
 */
export function decodedWithoutEmpties(obj: object): boolean {
  return withoutEmpties.has(obj);
}

/** The duplicate fields of the JSON body `obj` was decoded from (strict decoding reports them). */
export function duplicateFieldsOf(obj: object): string[] {
  return duplicates.get(obj) ?? [];
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

export function sendError(res: ServerResponse, err: unknown, warnings: string[] = []): void {
  const e =
    err instanceof ApiError
      ? err
      : errors.internal(err instanceof Error ? err.message : String(err));
  if (!(err instanceof ApiError)) {
    // Unexpected failures are bugs; keep them visible while still answering with a Status.
    process.emitWarning(
      `envtest internal error: ${err instanceof Error ? err.stack : String(err)}`,
    );
  }
  sendJson(res, e.code, e.status, { ...e.headers, ...warningHeader(warnings) });
}

export function warningHeader(warnings: string[]): Record<string, string[]> {
  if (warnings.length === 0) return {};
  return { Warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`) };
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Decodes a request body: JSON, YAML, or the protobuf kubectl's typed generators send. */
export async function decodeBody(req: IncomingMessage, kindHint: string): Promise<KubeObject> {
  const raw = await readBody(req);
  const ct = mediaType(req.headers["content-type"]);
  if (ct === "application/vnd.kubernetes.protobuf") {
    let decoded: KubeObject | undefined;
    try {
      decoded = decodeProtobuf(raw);
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
    v = ct === "application/yaml" ? parseYaml(text) : JSON.parse(text);
    if (ct !== "application/yaml" && isObject(v)) {
      const { duplicates: d, empties } = inspectBody(text, v);
      if (d.length) duplicates.set(v, d);
      if (!empties) withoutEmpties.add(v);
    }
  } catch (e) {
    throw errors.badRequest(`Object '${kindHint}' is invalid: ${(e as Error).message}`);
  }
  if (!isObject(v)) throw errors.badRequest(`Object '${kindHint}' is invalid: expected an object`);
  return v as KubeObject;
}

export const PROTOBUF = "application/vnd.kubernetes.protobuf";

/**
 * JSON unless the client prefers YAML (the first acceptable type it lists), or accepts only
 * protobuf (then protobuf: clients that also take JSON get JSON, which every client decodes).
 */
export function preferredType(accept: string | undefined): string {
  let protobuf = false;
  for (const t of (accept ?? "").split(",")) {
    const type = t.split(";")[0]!.trim().toLowerCase();
    if (type === "application/yaml") return "application/yaml";
    if (type === "application/json" || type === "*/*" || type === "application/*")
      return "application/json";
    if (type === PROTOBUF) protobuf = true;
  }
  return protobuf ? PROTOBUF : "application/json";
}

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

/** 406 when the client accepts nothing we can produce. */
export function negotiate(accept: string | undefined): void {
  if (!accept) return;
  const types = accept.split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  const ok = types.some(
    (t) =>
      t === "*/*" ||
      t === "application/*" ||
      t === "application/json" ||
      t === "application/yaml" ||
      t === PROTOBUF ||
      t === "",
  );
  if (!ok)
    throw errors.notAcceptable([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
}
