/**
 * Protobuf bodies (`application/vnd.kubernetes.protobuf`), which kubectl's typed commands send
 * (`kubectl create deployment|serviceaccount|role|job|token ...`, `auth can-i`): the `k8s\0`
 * magic, a `runtime.Unknown` envelope naming apiVersion and kind, and the typed message as
 * `raw`. Messages are decoded by protobufjs from the serving minor's schemas in its catalog and
 * turned into the JSON kube-apiserver would hold for the same Go object; the schemas are
 * loaded on the first protobuf request only.
 */
import type { Catalog } from "@opgen/apimachinery/catalog";
import pb from "protobufjs/light.js";
import type { JsonObject } from "../api/types.js";

type JsonValue = unknown;

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const META = ".k8s.io.apimachinery.pkg.apis.meta.v1";
const INT_OR_STRING = ".k8s.io.apimachinery.pkg.util.intstr.IntOrString";
const QUANTITY = ".k8s.io.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION = ".k8s.io.apimachinery.pkg.runtime.RawExtension";
/** Go's zero time.Time, which a non-pointer Time field marshals as: JSON `null`. */
const GO_ZERO_SECONDS = -62135596800;

/** Each catalog's schemas, loaded once it is first asked for (a minor's messages are its own). */
const roots = new WeakMap<Catalog, pb.Root>();
function schemas(catalog: Catalog): pb.Root {
  let root = roots.get(catalog);
  if (!root) {
    root = pb.Root.fromJSON(catalog.protobufSchemas() as pb.INamespace);
    roots.set(catalog, root);
  }
  return root;
}

type Decoded = Record<string, unknown>;

function num(v: unknown): number {
  return typeof v === "number" ? v : Number(String(v));
}

function isZero(v: unknown): boolean {
  if (v === "" || v === false || v === 0) return true;
  if (typeof v === "object" && v !== null && "low" in v && "high" in v) return num(v) === 0;
  return v instanceof Uint8Array && v.length === 0;
}

/** RFC 3339 as Go's metav1.Time (seconds) and MicroTime (microseconds) marshal it. */
function formatTime(msg: Decoded, micro: boolean): JsonValue {
  const seconds = num(msg.seconds ?? 0);
  if (seconds === GO_ZERO_SECONDS || (seconds === 0 && !msg.nanos)) return null;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (!micro) return `${iso}Z`;
  const micros = Math.floor(num(msg.nanos ?? 0) / 1000);
  return `${iso}.${String(micros).padStart(6, "0")}Z`;
}

/** A Go time.Duration (nanoseconds) as metav1.Duration's JSON string, e.g. `1h0m0s`, `1.5s`. */
function formatDuration(nanos: number): string {
  if (nanos === 0) return "0s";
  const sign = nanos < 0 ? "-" : "";
  let n = Math.abs(nanos);
  if (n < 1e9) {
    for (const [unit, size] of [
      ["ms", 1e6],
      ["µs", 1e3],
    ] as const)
      if (n >= size) return `${sign}${n / size}${unit}`;
    return `${sign}${n}ns`;
  }
  const h = Math.floor(n / 3.6e12);
  n -= h * 3.6e12;
  const m = Math.floor(n / 6e10);
  n -= m * 6e10;
  const s = `${n / 1e9}s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

function parseRaw(raw: unknown): JsonValue {
  if (!(raw instanceof Uint8Array) || raw.length === 0) return null;
  return JSON.parse(Buffer.from(raw).toString("utf8")) as JsonValue;
}

function scalar(v: unknown): JsonValue {
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (typeof v === "object" && v !== null) return num(v);
  return v as JsonValue;
}

function value(field: pb.Field, v: unknown): JsonValue {
  return field.resolvedType instanceof pb.Type
    ? toJson(field.resolvedType, v as Decoded)
    : scalar(v);
}

/** The JSON form of a decoded message, as Go's encoding/json renders the same struct. */
function toJson(type: pb.Type, msg: Decoded): JsonValue {
  switch (type.fullName) {
    case INT_OR_STRING:
      return num(msg.type ?? 0) === 1 ? String(msg.strVal ?? "") : num(msg.intVal ?? 0);
    case QUANTITY:
      return String(msg.string ?? "");
    case `${META}.Time`:
      return formatTime(msg, false);
    case `${META}.MicroTime`:
      return formatTime(msg, true);
    case `${META}.Duration`:
      return formatDuration(num(msg.duration ?? 0));
    case `${META}.FieldsV1`:
      return parseRaw(msg.Raw);
    case RAW_EXTENSION:
      return parseRaw(msg.raw);
  }
  const out: JsonObject = {};
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(msg, field.name)) continue;
    const v = msg[field.name];
    const opts = field.options ?? {};
    const name = (opts.json as string | undefined) ?? field.name;
    if (field.map) {
      const entries = Object.entries(v as Decoded);
      if (entries.length === 0) continue;
      out[name] = Object.fromEntries(entries.map(([k, e]) => [k, value(field, e)]));
    } else if (field.repeated) {
      const items = v as unknown[];
      if (items.length === 0) continue;
      out[name] = items.map((e) => value(field, e));
    } else if (field.resolvedType instanceof pb.Type) {
      const inner = toJson(field.resolvedType, v as Decoded);
      if (opts.inline && inner && typeof inner === "object" && !Array.isArray(inner))
        Object.assign(out, inner);
      else if (inner !== null) out[name] = inner;
    } else if (!isZero(v) || opts.keepZero) {
      // Go writes value fields even when zero, and proto2 cannot say whether they were set:
      // zeros read as unset unless the catalog says the field keeps them.
      out[name] = scalar(v);
    }
  }
  return out;
}

/** The message type of a Kubernetes kind, e.g. apps/v1 Deployment → k8s.io.api.apps.v1. */
function messageType(catalog: Catalog, apiVersion: string, kind: string): pb.Type | undefined {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  // meta.k8s.io's kinds (PartialObjectMetadata, the metadata client's answers) live in apimachinery.
  if (group === "meta.k8s.io") {
    const found = schemas(catalog).lookup(`${META}.${kind}`);
    return version === "v1" && found instanceof pb.Type ? found : undefined;
  }
  // Subresource kinds (TokenRequest, Eviction) are not resources of their own: their package
  // follows the group's first label, as k8s.io/api lays out its packages.
  const def =
    catalog.definitionName({ group, version, kind }) ??
    `io.k8s.api.${group === "" ? "core" : group.split(".")[0]}.${version}.${kind}`;
  const found = schemas(catalog).lookup(def.replace(/^io\.k8s\./, "k8s.io."));
  return found instanceof pb.Type ? found : undefined;
}

/**
 * Decodes a `k8s\0`-enveloped protobuf object to JSON. Returns undefined when the body is not
 * such an envelope or names a kind the catalog's minor has no protobuf schema for; throws on a
 * malformed message.
 */
export function decodeProtobuf(catalog: Catalog, body: Buffer): JsonObject | undefined {
  if (body.length < 4 || !body.subarray(0, 4).equals(magic)) return undefined;
  const unknown = schemas(catalog).lookupType(".k8s.io.apimachinery.pkg.runtime.Unknown");
  const envelope = unknown.decode(body.subarray(4)) as unknown as Decoded;
  const typeMeta = (envelope.typeMeta ?? {}) as Decoded;
  const apiVersion = String(typeMeta.apiVersion ?? "");
  const kind = String(typeMeta.kind ?? "");
  const type = messageType(catalog, apiVersion, kind);
  if (!type || !(envelope.raw instanceof Uint8Array)) return undefined;
  const decoded = type.decode(envelope.raw) as unknown as Decoded;
  return { apiVersion, kind, ...(toJson(type, decoded) as JsonObject) };
}

// ---- encoding (responses to clients that accept protobuf only) -------------------------------

function parseTime(v: unknown, micro: boolean): Decoded | undefined {
  if (typeof v !== "string") return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return undefined;
  const seconds = Math.floor(ms / 1000);
  const frac = /\.(\d+)Z$/.exec(v)?.[1] ?? "";
  const nanos = micro ? Number(frac.padEnd(9, "0").slice(0, 9)) : 0;
  return { seconds, nanos };
}

/** A Go duration string (`1h2m3.5s`, `300ms`) in nanoseconds. */
function parseDuration(v: unknown): number {
  if (typeof v !== "string") return 0;
  const units: Record<string, number> = {
    ns: 1,
    us: 1e3,
    µs: 1e3,
    μs: 1e3,
    ms: 1e6,
    s: 1e9,
    m: 6e10,
    h: 3.6e12,
  };
  let total = 0;
  for (const [, n, u] of v.matchAll(/([\d.]+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(n) * units[u!]!;
  return Math.round(v.startsWith("-") ? -total : total);
}

function fromScalar(field: pb.Field, v: unknown): unknown {
  if (field.type === "bytes" && typeof v === "string") return Buffer.from(v, "base64");
  return v;
}

function fromValue(field: pb.Field, v: unknown): unknown {
  return field.resolvedType instanceof pb.Type
    ? fromJson(field.resolvedType, v)
    : fromScalar(field, v);
}

/** The message object for a JSON value, the inverse of toJson. */
function fromJson(type: pb.Type, value: unknown): Decoded | undefined {
  switch (type.fullName) {
    case INT_OR_STRING:
      return typeof value === "number"
        ? { type: 0, intVal: value }
        : { type: 1, strVal: String(value ?? "") };
    case QUANTITY:
      return { string: String(value ?? "") };
    case `${META}.Time`:
      return parseTime(value, false);
    case `${META}.MicroTime`:
      return parseTime(value, true);
    case `${META}.Duration`:
      return { duration: parseDuration(value) };
    case `${META}.FieldsV1`:
      return value === undefined ? undefined : { Raw: Buffer.from(JSON.stringify(value)) };
    case RAW_EXTENSION:
      return value === undefined ? undefined : { raw: Buffer.from(JSON.stringify(value)) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  const out: Decoded = {};
  for (const field of type.fieldsArray) {
    const opts = field.options ?? {};
    if (opts.inline && field.resolvedType instanceof pb.Type) {
      const inner = fromJson(field.resolvedType, obj);
      if (inner && Object.keys(inner).length) out[field.name] = inner;
      continue;
    }
    const v = obj[(opts.json as string | undefined) ?? field.name];
    if (v === undefined || v === null) continue;
    if (field.map) {
      out[field.name] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, e]) => [k, fromValue(field, e)]),
      );
    } else if (field.repeated) {
      if (Array.isArray(v)) out[field.name] = v.map((e) => fromValue(field, e));
    } else {
      const m = fromValue(field, v);
      if (m !== undefined) out[field.name] = m;
    }
  }
  return out;
}

/**
 * A JSON object (`apiVersion` and `kind` set) as a `k8s\0`-enveloped protobuf body, or undefined
 * when its kind has no protobuf schema (custom resources, Tables).
 */
export function encodeProtobuf(catalog: Catalog, obj: JsonObject): Buffer | undefined {
  const apiVersion = String(obj.apiVersion ?? "");
  const kind = String(obj.kind ?? "");
  const root = schemas(catalog);
  const type =
    kind === "Status" ? root.lookupType(`${META}.Status`) : messageType(catalog, apiVersion, kind);
  if (!type) return undefined;
  const raw = type.encode(fromJson(type, obj) ?? {}).finish();
  const unknown = root.lookupType(".k8s.io.apimachinery.pkg.runtime.Unknown");
  const envelope = unknown
    .encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: "", contentType: "" })
    .finish();
  return Buffer.concat([magic, envelope]);
}

/**
 * One event of a protobuf watch (`application/vnd.kubernetes.protobuf;stream=watch`), as
 * kube-apiserver frames it: a 4-byte big-endian length, then a metav1.WatchEvent message with no
 * envelope of its own (the stream's raw serializer), whose `object` is a RawExtension holding the
 * object as a `k8s\0`-enveloped protobuf body. Undefined when the object has no protobuf form.
 */
export function encodeWatchFrame(
  catalog: Catalog,
  type: string,
  object: JsonObject,
): Buffer | undefined {
  const raw = encodeProtobuf(catalog, object);
  if (!raw) return undefined;
  const event = schemas(catalog)
    .lookupType(`${META}.WatchEvent`)
    .encode({ type, object: { raw } })
    .finish();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(event.length);
  return Buffer.concat([length, event]);
}
