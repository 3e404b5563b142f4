/**
 * The OpenAPI documents of one server, built on first request and kept until the served set
 * changes (`Registry.generation`: a CRD established or removed), so kubectl's repeated fetches
 * cost a lookup. The v2 protobuf and its ETag are made only if a client asks for them.
 */
import { createHash } from "node:crypto";
import type { Registry } from "../../api/registry.js";
import type { JsonObject } from "../../api/types.js";
import { type PublishedSchema, publishedSchemas } from "./definitions.js";
import { encodeOpenApiV2 } from "./gnostic.js";
import { openApiV2 } from "./v2.js";
import { openApiGroupVersion } from "./v3.js";

interface Cached {
  generation: number;
  schemas?: Map<string, PublishedSchema>;
  v2doc?: JsonObject;
  v2?: { body: Buffer; etag: string };
  v2pb?: { body: Buffer; etag: string };
  v3: Map<string, JsonObject | undefined>;
}

const cache = new WeakMap<Registry, Cached>();

function entry(registry: Registry): Cached {
  let c = cache.get(registry);
  if (!c || c.generation !== registry.generation) {
    c = { generation: registry.generation, v3: new Map() };
    cache.set(registry, c);
  }
  return c;
}

function schemas(c: Cached, registry: Registry): Map<string, PublishedSchema> {
  c.schemas ??= publishedSchemas(registry);
  return c.schemas;
}

/** The v2 document, built once for both of its encodings. */
function v2doc(c: Cached, registry: Registry): JsonObject {
  c.v2doc ??= openApiV2(registry, schemas(c, registry));
  return c.v2doc;
}

const etag = (body: Buffer) =>
  `"${createHash("sha512").update(body).digest("hex").slice(0, 128).toUpperCase()}"`;

/** `/openapi/v2` as JSON. */
export function openApiV2Json(registry: Registry): { body: Buffer; etag: string } {
  const c = entry(registry);
  if (!c.v2) {
    const body = Buffer.from(JSON.stringify(v2doc(c, registry)));
    c.v2 = { body, etag: etag(body) };
  }
  return c.v2;
}

/** `/openapi/v2` as gnostic protobuf. */
export function openApiV2Protobuf(registry: Registry): { body: Buffer; etag: string } {
  const c = entry(registry);
  if (!c.v2pb) {
    const body = Buffer.from(encodeOpenApiV2(v2doc(c, registry)));
    c.v2pb = { body, etag: etag(body) };
  }
  return c.v2pb;
}

/** `/openapi/v3/<group version>`, or undefined when nothing is served there. */
export function openApiV3(
  registry: Registry,
  group: string,
  version: string,
): JsonObject | undefined {
  const c = entry(registry);
  const key = `${group}/${version}`;
  if (!c.v3.has(key))
    c.v3.set(key, openApiGroupVersion(registry, schemas(c, registry), group, version));
  return c.v3.get(key);
}
