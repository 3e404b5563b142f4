/**
 * Random server-side apply scenarios for the differential test against structured-merge-diff:
 * CRD schemas drawn from a menu of field shapes (scalars, int-or-string, granular and atomic maps
 * and structs, atomic lists, sets, associative lists with one and two keys, maps of structs,
 * preserve-unknown-fields objects), the SMD schema kube-openapi's schemaconv derives from them,
 * and sequences of applies, forced applies and updates by 2-4 managers.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { OracleOp } from "./oracle.js";

export const API_VERSION = "test.opgen.dev/v1";

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const str = (r: R) => pick(r, ["a", "b", "c"]);
const num = (r: R) => pick(r, [1, 2, 3]);

interface Shape {
  schema: JSONSchemaProps;
  gen(r: R): unknown;
}

const S: JSONSchemaProps = { type: "string" };
const I: JSONSchemaProps = { type: "integer" };

function list(r: R, n: number, item: (r: R) => unknown, key: (x: unknown) => string): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  const len = Math.floor(r() * (n + 1));
  for (let i = 0; i < len; i++) {
    const x = item(r);
    const k = key(x);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(x);
    }
  }
  return out;
}

function smallMap(r: R, val: (r: R) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["x", "y", "z"]) if (r() < 0.4) out[k] = val(r);
  return out;
}

function freeForm(r: R, depth: number): unknown {
  const c = r();
  if (depth > 1 || c < 0.4) return pick(r, ["p", "q", 7, true]);
  if (c < 0.55) return [str(r), num(r)];
  return smallMap(r, (rr) => freeForm(rr, depth + 1));
}

const inner: JSONSchemaProps = {
  type: "object",
  properties: { a: S, b: I, deep: { type: "object", properties: { x: S, y: S } } },
};

/** Field shapes a generated schema draws from. */
const MENU: Record<string, Shape> = {
  s: { schema: S, gen: str },
  n: { schema: I, gen: num },
  ios: {
    schema: { "x-kubernetes-int-or-string": true },
    gen: (r) => (r() < 0.5 ? str(r) : num(r)),
  },
  labels: {
    schema: { type: "object", additionalProperties: S },
    gen: (r) => smallMap(r, str),
  },
  amap: {
    schema: { type: "object", additionalProperties: S, "x-kubernetes-map-type": "atomic" },
    gen: (r) => smallMap(r, str),
  },
  inner: {
    schema: inner,
    gen: (r) => {
      const o: Record<string, unknown> = {};
      if (r() < 0.5) o.a = str(r);
      if (r() < 0.4) o.b = num(r);
      if (r() < 0.4)
        o.deep =
          r() < 0.2
            ? {}
            : { ...(r() < 0.6 ? { x: str(r) } : {}), ...(r() < 0.4 ? { y: str(r) } : {}) };
      return o;
    },
  },
  astruct: {
    schema: { ...inner, "x-kubernetes-map-type": "atomic" },
    gen: (r) => ({ ...(r() < 0.6 ? { a: str(r) } : {}), ...(r() < 0.5 ? { b: num(r) } : {}) }),
  },
  alist: {
    schema: { type: "array", items: S },
    gen: (r) => list(r, 3, str, () => String(r())),
  },
  tags: {
    schema: { type: "array", items: S, "x-kubernetes-list-type": "set" },
    gen: (r) => list(r, 3, str, (x) => String(x)),
  },
  ports: {
    schema: {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["port"],
      items: { type: "object", required: ["port"], properties: { port: I, name: S, proto: S } },
    },
    gen: (r) =>
      list(
        r,
        3,
        (rr) => ({
          port: num(rr),
          ...(rr() < 0.5 ? { name: str(rr) } : {}),
          ...(rr() < 0.3 ? { proto: str(rr) } : {}),
        }),
        (x) => String((x as { port: number }).port),
      ),
  },
  rules: {
    schema: {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["host", "path"],
      items: {
        type: "object",
        required: ["host", "path"],
        properties: { host: S, path: S, value: S, weight: I },
      },
    },
    gen: (r) =>
      list(
        r,
        3,
        (rr) => ({
          host: pick(rr, ["h1", "h2"]),
          path: pick(rr, ["/", "/x"]),
          ...(rr() < 0.5 ? { value: str(rr) } : {}),
          ...(rr() < 0.3 ? { weight: num(rr) } : {}),
        }),
        (x) => JSON.stringify([(x as { host: string }).host, (x as { path: string }).path]),
      ),
  },
  byName: {
    schema: {
      type: "object",
      additionalProperties: { type: "object", properties: { a: S, b: I } },
    },
    gen: (r) =>
      smallMap(r, (rr) => ({
        ...(rr() < 0.6 ? { a: str(rr) } : {}),
        ...(rr() < 0.4 ? { b: num(rr) } : {}),
      })),
  },
  extra: {
    schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    gen: (r) => smallMap(r, (rr) => freeForm(rr, 0)),
  },
};

/** Field names whose lists are associative (compared without order: see the test). */
export const ASSOCIATIVE = new Set(["tags", "ports", "rules"]);

export interface Scenario {
  seed: number;
  schema: JSONSchemaProps;
  fields: string[];
  ops: OracleOp[];
  /** Paths the strategy resets (none; status, as on a main resource; spec, as through status). */
  reset: string[][];
}

const STATUS: JSONSchemaProps = {
  type: "object",
  properties: { phase: S, count: I, notes: { type: "object", additionalProperties: S } },
};

/** The CRD root schema of a set of spec fields. */
export function crdSchema(fields: string[]): JSONSchemaProps {
  const props: Record<string, JSONSchemaProps> = {};
  for (const f of fields) props[f] = MENU[f]!.schema;
  return {
    type: "object",
    properties: {
      apiVersion: S,
      kind: S,
      metadata: { type: "object" },
      spec: { type: "object", properties: props },
      status: STATUS,
    },
  };
}

function genObject(r: R, fields: string[]): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const f of fields) if (r() < 0.5) spec[f] = MENU[f]!.gen(r);
  const metadata: Record<string, unknown> = { name: "x" };
  if (r() < 0.3) metadata.labels = smallMap(r, str);
  const o: Record<string, unknown> = { apiVersion: API_VERSION, kind: "Thing", metadata };
  if (r() < 0.9) o.spec = spec;
  if (r() < 0.3) {
    const status: Record<string, unknown> = {};
    if (r() < 0.6) status.phase = str(r);
    if (r() < 0.4) status.count = num(r);
    if (r() < 0.3) status.notes = smallMap(r, str);
    o.status = status;
  }
  return o;
}

/** An update: the live object with some spec fields dropped, replaced or added. */
function genUpdate(r: R, fields: string[], live: Record<string, unknown> | undefined) {
  const next = genObject(r, fields);
  if (!live || r() < 0.3) return next;
  const spec = { ...((live.spec as Record<string, unknown>) ?? {}) };
  for (const f of fields) {
    const c = r();
    if (c < 0.2) delete spec[f];
    else if (c < 0.45) spec[f] = MENU[f]!.gen(r);
  }
  return { ...live, spec };
}

export function scenario(seed: number): Scenario {
  const r = rng(seed);
  const names = Object.keys(MENU);
  const fields = names.filter(() => r() < 0.35);
  if (fields.length === 0) fields.push(pick(r, names));
  const managers = ["m1", "m2", "m3", "m4"].slice(0, 2 + Math.floor(r() * 3));
  const ops: OracleOp[] = [];
  let live: Record<string, unknown> | undefined;
  const n = 2 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const c = r();
    const manager = pick(r, managers);
    if (c < 0.2) {
      const object = genUpdate(r, fields, live);
      ops.push({ op: "update", manager, force: false, object });
      live = object;
    } else {
      // Re-applying a manager's own earlier configuration (or a variant) is the common case.
      const prev = ops.filter((o) => o.manager === manager && o.op === "apply").pop();
      const object = prev && r() < 0.3 ? prev.object : genObject(r, fields);
      ops.push({ op: "apply", manager, force: c > 0.85, object });
      live ??= object;
    }
  }
  const c = r();
  const reset = c < 0.6 ? [] : c < 0.8 ? [["status"]] : [["spec"], ["metadata", "labels"]];
  return { seed, schema: crdSchema(fields), fields, ops, reset };
}

// ---------------------------------------------------------------- SMD schema (schemaconv)

type SmdAtom = Record<string, unknown>;

/** kube-openapi schemaconv's atom for a structural schema node (CRD, as kube derives it). */
function smdAtom(s: JSONSchemaProps, preserve: boolean): SmdAtom {
  const p = preserve || s["x-kubernetes-preserve-unknown-fields"] === true;
  if (s["x-kubernetes-int-or-string"]) return { scalar: "untyped" };
  const list = () => {
    const lt = s["x-kubernetes-list-type"];
    const items = s.items as JSONSchemaProps | undefined;
    return {
      elementType: items ? smdAtom(items, p) : { namedType: "__untyped_atomic_" },
      elementRelationship: lt === "set" || lt === "map" ? "associative" : "atomic",
      ...(lt === "map" ? { keys: s["x-kubernetes-list-map-keys"] } : {}),
    };
  };
  const map = () => {
    const props = s.properties ?? {};
    const ap = s.additionalProperties;
    let elementType: unknown;
    if (typeof ap === "object" && ap) elementType = smdAtom(ap as JSONSchemaProps, p);
    else if (ap === true || p || Object.keys(props).length === 0)
      elementType = { namedType: "__untyped_deduced_" };
    return {
      fields: Object.entries(props).map(([name, v]) => ({ name, type: smdAtom(v, p) })),
      ...(elementType ? { elementType } : {}),
      ...(s["x-kubernetes-map-type"] === "atomic" ? { elementRelationship: "atomic" } : {}),
    };
  };
  switch (s.type) {
    case "object":
      return { map: map() };
    case "array":
      return { list: list() };
    case "string":
      return { scalar: "string" };
    case "integer":
    case "number":
      return { scalar: "numeric" };
    case "boolean":
      return { scalar: "boolean" };
    default:
      return { scalar: "untyped", list: list(), map: map() };
  }
}

const OBJECT_META: SmdAtom = {
  map: {
    fields: [
      { name: "name", type: { scalar: "string" } },
      { name: "namespace", type: { scalar: "string" } },
      { name: "labels", type: { map: { elementType: { scalar: "string" } } } },
      { name: "annotations", type: { map: { elementType: { scalar: "string" } } } },
    ],
  },
};

/** The SMD schema document: the root type (metadata as ObjectMeta) and the untyped atoms. */
export function smdSchema(root: JSONSchemaProps): unknown {
  const atom = smdAtom(root, false);
  const m = atom.map as { fields: { name: string; type: unknown }[] };
  for (const f of m.fields) if (f.name === "metadata") f.type = OBJECT_META;
  return {
    types: [
      { name: "root", ...atom },
      {
        name: "__untyped_atomic_",
        scalar: "untyped",
        list: { elementType: { namedType: "__untyped_atomic_" }, elementRelationship: "atomic" },
        map: { elementType: { namedType: "__untyped_atomic_" }, elementRelationship: "atomic" },
      },
      {
        name: "__untyped_deduced_",
        scalar: "untyped",
        list: { elementType: { namedType: "__untyped_atomic_" }, elementRelationship: "atomic" },
        map: { elementType: { namedType: "__untyped_deduced_" }, elementRelationship: "separable" },
      },
    ],
  };
}
