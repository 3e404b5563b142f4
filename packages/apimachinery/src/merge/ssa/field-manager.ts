/**
 * kube-apiserver's field manager around the Updater (k8s.io/apimachinery/pkg/util/managedfields):
 * managedFields entries decoded by manager identifier, an Update recorded as the
 * "current-operation" and merged into the writer's entry (with a new time only when it took
 * fields), an Apply's entry timed when the object changed, the server's metadata stripped from
 * every set, the first apply to an untracked object giving what exists to "before-first-apply",
 * updates past ten managers folded into "ancient-changes", entries sorted as kube writes them.
 */
import { isObject, type JsonObject } from "../../schema/json.js";
import { fieldPE, type PathElement } from "./path.js";
import type { Atom } from "./schema.js";
import { FieldSet } from "./set.js";
import {
  type Converter,
  type ManagedFieldSets,
  sameVersion,
  smdApply,
  smdUpdate,
  type TypedValue,
} from "./updater.js";

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export interface FieldManagerScope {
  /** The request's field manager (empty: "unknown"). */
  manager: string;
  /** The request's group/version, e.g. `apps/v1`. */
  apiVersion: string;
  subresource?: string | undefined;
  /** The schema of the request's version. */
  atom: Atom;
  /**
   * The object a create is compared against (kube's `New(kind)`): a built-in's Go zero value
   * (`definitionZero`); `{}` when absent (a custom resource's).
   */
  zero?: unknown;
  /** Converts to another served version (multi-version kinds); the identity otherwise. */
  convert?: Converter;
  /**
   * The fields the request's strategy resets (kube's `GetResetFields`): `status` on a main
   * resource with a status subresource, `spec` on the status subresource. Every served version
   * names the same paths.
   */
  resetFields?: FieldSet;
  /** The time recorded on entries (RFC 3339, seconds). */
  now: () => string;
}

interface Managed {
  fields: ManagedFieldSets;
  times: Map<string, string | undefined>;
}

const MAX_UPDATE_MANAGERS = 10;

/** BuildManagerIdentifier: the entry's manager, operation, (Update's) apiVersion, subresource. */
export function managerIdentifier(e: ManagedFieldsEntry): string {
  const id: JsonObject = {};
  if (e.manager) id.manager = e.manager;
  if (e.operation) id.operation = e.operation;
  if (e.apiVersion && e.operation !== "Apply") id.apiVersion = e.apiVersion;
  if (e.subresource) id.subresource = e.subresource;
  return JSON.stringify(id);
}

function decodeIdentifier(id: string): ManagedFieldsEntry {
  return JSON.parse(id) as ManagedFieldsEntry;
}

function decode(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const fields: ManagedFieldSets = new Map();
  const times = new Map<string, string | undefined>();
  for (const e of entries ?? []) {
    const id = managerIdentifier(e);
    if (fields.has(id)) throw new Error(`duplicate entries for manager ${id}`);
    fields.set(id, {
      set: FieldSet.fromFieldsV1(e.fieldsV1),
      apiVersion: e.apiVersion ?? "",
      applied: e.operation === "Apply",
    });
    times.set(id, e.time);
  }
  return { fields, times };
}

function seconds(t: string | undefined): number {
  return t ? Math.floor(Date.parse(t) / 1000) : 0;
}

/** EncodeObjectManagedFields: Apply before Update, then by time, manager, version, subresource. */
function encode(m: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of m.fields) {
    const who = decodeIdentifier(id);
    const time = m.times.get(id);
    out.push({
      manager: who.manager ?? "",
      operation: who.operation ?? "",
      apiVersion: vs.apiVersion,
      ...(time ? { time } : {}),
      fieldsType: "FieldsV1",
      fieldsV1: vs.set.toFieldsV1(),
      ...(who.subresource ? { subresource: who.subresource } : {}),
    });
  }
  const by = (a: string | undefined, b: string | undefined) =>
    (a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0;
  return out.sort(
    (p, q) =>
      by(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      by(p.manager, q.manager) ||
      by(p.apiVersion, q.apiVersion) ||
      by(p.subresource, q.subresource),
  );
}

const STRIP: PathElement[][] = [
  [fieldPE("apiVersion")],
  [fieldPE("kind")],
  [fieldPE("metadata")],
  ...[
    "name",
    "namespace",
    "creationTimestamp",
    "selfLink",
    "uid",
    "clusterName",
    "generation",
    "managedFields",
    "resourceVersion",
  ].map((f) => [fieldPE("metadata"), fieldPE(f)]),
];
const stripSet = FieldSet.of(...STRIP);

function stripMeta(fields: ManagedFieldSets, id: string): void {
  const vs = fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(stripSet);
  if (set.empty()) fields.delete(id);
  else fields.set(id, { ...vs, set });
}

/** The object without metadata.managedFields (SMD never sees them). */
function withoutManagedFields(o: unknown): unknown {
  if (!isObject(o) || !isObject(o.metadata) || !("managedFields" in o.metadata)) return o;
  const { managedFields: _m, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

function resetOf(s: FieldManagerScope): (version: string) => FieldSet | undefined {
  const reset = s.resetFields;
  return () => reset;
}

function typed(value: unknown, s: FieldManagerScope): TypedValue {
  return { value: withoutManagedFields(value), atom: s.atom };
}

function identifier(s: FieldManagerScope, operation: "Apply" | "Update", manager?: string) {
  return managerIdentifier({
    manager: manager ?? (s.manager || "unknown"),
    operation,
    apiVersion: s.apiVersion,
    ...(s.subresource ? { subresource: s.subresource } : {}),
  });
}

/** managedFieldsUpdater + stripMeta + structured merge for an Update. */
function recordUpdate(
  live: unknown,
  next: unknown,
  m: Managed,
  s: FieldManagerScope,
  id: string,
): Managed {
  const current = "current-operation";
  const fields = smdUpdate(
    s.convert ?? sameVersion,
    typed(live, s),
    typed(next, s),
    s.apiVersion,
    m.fields,
    current,
    resetOf(s),
  );
  stripMeta(fields, current);
  const times = new Map(m.times);
  const vs = fields.get(current);
  if (vs) {
    fields.delete(current);
    const previous = fields.get(id);
    fields.set(id, {
      set: previous ? vs.set.union(previous.set) : vs.set,
      apiVersion: vs.apiVersion,
      applied: vs.applied,
    });
    times.set(id, s.now());
  }
  return capUpdateManagers({ fields, times }, s);
}

/** Folds the oldest Update entries past ten into "ancient-changes" per API version. */
function capUpdateManagers(m: Managed, s: FieldManagerScope): Managed {
  const updaters = [...m.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return m;
  updaters.sort(
    (a, b) => seconds(m.times.get(a)) - seconds(m.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const first = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i]!;
    const vs = m.fields.get(id)!;
    const bucket = managerIdentifier({
      manager: "ancient-changes",
      operation: "Update",
      apiVersion: vs.apiVersion,
    });
    const f = first.get(vs.apiVersion);
    if (f === undefined) {
      first.set(vs.apiVersion, id);
      continue;
    }
    if (!m.fields.has(bucket)) {
      m.fields.set(bucket, m.fields.get(f)!);
      m.fields.delete(f);
    }
    m.fields.set(bucket, { ...vs, set: vs.set.union(m.fields.get(bucket)!.set) });
    m.fields.delete(id);
    length--;
    m.times.set(bucket, m.times.get(id));
  }
  void s;
  return m;
}

/** decodeLiveOrNew: entries a write sets replace the live ones; `[]` (or `[{}]`) resets them. */
function liveOrNew(
  live: unknown,
  next: unknown,
  s: FieldManagerScope,
): { managed: Managed; reset: boolean } {
  const liveEntries = entriesOf(live);
  if (s.subresource) return { managed: safeDecode(liveEntries), reset: false };
  const mine = isObject(next) && isObject(next.metadata) ? next.metadata.managedFields : undefined;
  if (Array.isArray(mine)) {
    const isReset =
      mine.length === 0 ||
      (mine.length === 1 && isObject(mine[0]) && Object.keys(mine[0]).length === 0);
    if (isReset) return { managed: decode([]), reset: true };
    try {
      const d = decode(mine as ManagedFieldsEntry[]);
      if (d.fields.size > 0) return { managed: d, reset: false };
    } catch {
      // An undecodable set is ignored: the live entries stay.
    }
  }
  return { managed: safeDecode(liveEntries), reset: false };
}

function safeDecode(entries: ManagedFieldsEntry[] | undefined): Managed {
  try {
    return decode(entries);
  } catch {
    return decode([]);
  }
}

function entriesOf(o: unknown): ManagedFieldsEntry[] | undefined {
  if (!isObject(o) || !isObject(o.metadata)) return undefined;
  const mf = o.metadata.managedFields;
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : undefined;
}

/**
 * The managedFields of an Update (create, update, patch) of `next` over `live` (undefined for a
 * create). An object whose entries were reset stays untracked until an apply.
 */
export function updateManagedFields(
  live: unknown,
  next: unknown,
  s: FieldManagerScope,
): ManagedFieldsEntry[] {
  const { managed } = liveOrNew(live, next, s);
  // skipNonAppliedManager: an existing object without entries is not tracked by updates.
  if (managed.fields.size === 0 && live !== undefined) return [];
  const m = recordUpdate(live ?? s.zero ?? {}, next, managed, s, identifier(s, "Update"));
  return encode(m);
}

export interface ApplyResult {
  /** The object after the apply (the live one, unchanged, when the apply changed no value). */
  object: unknown;
  changed: boolean;
  managedFields: ManagedFieldsEntry[];
}

/** Server-side apply of `config` to `live` (undefined: the object is created). */
export function applyManagedFields(
  live: unknown,
  config: unknown,
  s: FieldManagerScope,
  force: boolean,
): ApplyResult {
  let m = safeDecodeStrict(entriesOf(live));
  let base: unknown = live ?? {};
  if (m.fields.size === 0) {
    // skipNonAppliedManager: what exists already belongs to "before-first-apply".
    m = recordUpdate(s.zero ?? {}, base, m, s, identifier(s, "Update", "before-first-apply"));
  }
  base = withoutManagedFields(base);
  const id = identifier(s, "Apply");
  const r = smdApply(
    s.convert ?? sameVersion,
    typed(base, s),
    typed(config, s),
    s.apiVersion,
    m.fields,
    id,
    force,
    resetOf(s),
  );
  const fields = r.managers;
  stripMeta(fields, id);
  const times = new Map(m.times);
  if (r.object) times.set(id, s.now());
  const capped = capUpdateManagers({ fields, times }, s);
  return {
    object: r.object ? r.object.value : base,
    changed: r.object !== undefined,
    managedFields: encode(capped),
  };
}

function safeDecodeStrict(entries: ManagedFieldsEntry[] | undefined): Managed {
  return decode(entries);
}
