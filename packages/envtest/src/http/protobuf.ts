/**
 * Decodes the protobuf bodies kubectl's typed generators send (`kubectl create namespace`,
 * `create configmap`, `create secret`, `auth can-i`): the `k8s\0` envelope (runtime.Unknown)
 * and, for Namespace, ConfigMap, Secret and (Self)SubjectAccessReview, the fields of their
 * generated.proto messages. Other kinds are refused with 415 by the caller.
 */
import type { JsonObject } from "../api/types.js";

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error("truncated varint");
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }

  bytes(): Buffer {
    const len = this.varint();
    const out = this.buf.subarray(this.pos, this.pos + len);
    if (out.length !== len) throw new Error("truncated field");
    this.pos += len;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }

  /** Iterates fields as (number, wire type). */
  *fields(): Generator<[number, number]> {
    while (!this.done()) {
      const tag = this.varint();
      yield [Math.floor(tag / 8), tag & 7];
    }
  }
}

type FieldSpec =
  | { name: string; kind: "string" | "bytes" | "int" | "bool" }
  | { name: string; kind: "strings" }
  | { name: string; kind: "map"; values: "string" | "bytes" }
  | { name: string; kind: "message"; spec: MessageSpec };

type MessageSpec = Record<number, FieldSpec>;

const objectMeta: MessageSpec = {
  1: { name: "name", kind: "string" },
  2: { name: "generateName", kind: "string" },
  3: { name: "namespace", kind: "string" },
  11: { name: "labels", kind: "map", values: "string" },
  12: { name: "annotations", kind: "map", values: "string" },
  14: { name: "finalizers", kind: "strings" },
};

const specs: Record<string, MessageSpec> = {
  "v1/Namespace": {
    1: { name: "metadata", kind: "message", spec: objectMeta },
    2: { name: "spec", kind: "message", spec: { 1: { name: "finalizers", kind: "strings" } } },
  },
  "v1/ConfigMap": {
    1: { name: "metadata", kind: "message", spec: objectMeta },
    2: { name: "data", kind: "map", values: "string" },
    3: { name: "binaryData", kind: "map", values: "bytes" },
    4: { name: "immutable", kind: "bool" },
  },
  "v1/Secret": {
    1: { name: "metadata", kind: "message", spec: objectMeta },
    2: { name: "data", kind: "map", values: "bytes" },
    3: { name: "type", kind: "string" },
    4: { name: "stringData", kind: "map", values: "string" },
    5: { name: "immutable", kind: "bool" },
  },
};

const accessReviewSpec: MessageSpec = {
  1: { name: "metadata", kind: "message", spec: objectMeta },
  2: {
    name: "spec",
    kind: "message",
    spec: {
      1: {
        name: "resourceAttributes",
        kind: "message",
        spec: {
          1: { name: "namespace", kind: "string" },
          2: { name: "verb", kind: "string" },
          3: { name: "group", kind: "string" },
          4: { name: "version", kind: "string" },
          5: { name: "resource", kind: "string" },
          6: { name: "subresource", kind: "string" },
          7: { name: "name", kind: "string" },
        },
      },
      2: {
        name: "nonResourceAttributes",
        kind: "message",
        spec: { 1: { name: "path", kind: "string" }, 2: { name: "verb", kind: "string" } },
      },
      3: { name: "user", kind: "string" },
      4: { name: "groups", kind: "strings" },
      6: { name: "uid", kind: "string" },
    },
  },
};
specs["authorization.k8s.io/v1/SelfSubjectAccessReview"] = accessReviewSpec;
specs["authorization.k8s.io/v1/SelfSubjectRulesReview"] = {
  1: { name: "metadata", kind: "message", spec: objectMeta },
  2: { name: "spec", kind: "message", spec: { 1: { name: "namespace", kind: "string" } } },
};
specs["authorization.k8s.io/v1/SubjectAccessReview"] = accessReviewSpec;

function decodeMessage(buf: Buffer, spec: MessageSpec): JsonObject {
  const out: JsonObject = {};
  const r = new Reader(buf);
  for (const [num, wire] of r.fields()) {
    const f = spec[num];
    if (!f) {
      r.skip(wire);
      continue;
    }
    switch (f.kind) {
      case "string": {
        // proto2 "optional string" carries Go's zero value: empty means unset.
        const v = r.bytes().toString("utf8");
        if (v !== "") out[f.name] = v;
        break;
      }
      case "bytes":
        out[f.name] = r.bytes().toString("base64");
        break;
      case "int":
        out[f.name] = r.varint();
        break;
      case "bool":
        out[f.name] = r.varint() !== 0;
        break;
      case "strings":
        out[f.name] = [
          ...((out[f.name] as string[] | undefined) ?? []),
          r.bytes().toString("utf8"),
        ];
        break;
      case "map": {
        const entry = new Reader(r.bytes());
        let key = "";
        let value = "";
        for (const [en, ew] of entry.fields()) {
          if (en === 1) key = entry.bytes().toString("utf8");
          else if (en === 2) {
            const raw = entry.bytes();
            value = f.values === "bytes" ? raw.toString("base64") : raw.toString("utf8");
          } else entry.skip(ew);
        }
        out[f.name] = { ...((out[f.name] as JsonObject | undefined) ?? {}), [key]: value };
        break;
      }
      case "message":
        out[f.name] = decodeMessage(r.bytes(), f.spec);
        break;
    }
  }
  return out;
}

/**
 * Decodes a `k8s\0`-enveloped protobuf object to JSON, or returns undefined when the kind is
 * not one this server can decode.
 */
export function decodeProtobuf(body: Buffer): JsonObject | undefined {
  if (body.length < 4 || !body.subarray(0, 4).equals(magic)) return undefined;
  const r = new Reader(body.subarray(4));
  let apiVersion = "";
  let kind = "";
  let raw: Buffer | undefined;
  for (const [num, wire] of r.fields()) {
    if (num === 1) {
      const tm = new Reader(r.bytes());
      for (const [tn, tw] of tm.fields()) {
        if (tn === 1) apiVersion = tm.bytes().toString("utf8");
        else if (tn === 2) kind = tm.bytes().toString("utf8");
        else tm.skip(tw);
      }
    } else if (num === 2) raw = r.bytes();
    else r.skip(wire);
  }
  const spec = specs[`${apiVersion}/${kind}`];
  if (!spec || !raw) return undefined;
  return { apiVersion, kind, ...decodeMessage(raw, spec) };
}
