/**
 * Runs a scenario through opgen's engine (`@opgen/apimachinery/merge` ssa) the way the oracle
 * runs it through structured-merge-diff, and puts both results in one comparable form.
 */
import { catalogFor } from "@opgen/apimachinery/catalog";
import { ssa } from "@opgen/apimachinery/merge";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { OracleOp, OracleStep } from "./oracle.js";
import { API_VERSION, ASSOCIATIVE } from "./scenarios.js";

export function rootAtom(schema: JSONSchemaProps): ssa.Atom {
  return ssa.withField(
    ssa.crdAtom(schema),
    "metadata",
    ssa.definitionAtom(catalogFor("1.32"), "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
  );
}

type Obj = Record<string, unknown>;

export function runEngine(atom: ssa.Atom, ops: OracleOp[], reset: string[][] = []): OracleStep[] {
  const resetFields = reset.length
    ? ssa.FieldSet.of(...reset.map((p) => p.map((f) => ssa.fieldPathElement(f))))
    : undefined;
  let live: Obj | undefined;
  let entries: ssa.ManagedFieldsEntry[] = [];
  const steps: OracleStep[] = [];
  for (const op of ops) {
    const scope: ssa.FieldManagerScope = {
      manager: op.manager,
      apiVersion: API_VERSION,
      atom,
      ...(resetFields ? { resetFields } : {}),
      now: () => "2026-01-01T00:00:00Z",
    };
    const liveObj = live && {
      ...live,
      metadata: { ...(live.metadata as Obj), managedFields: entries },
    };
    try {
      if (op.op === "update") {
        entries = ssa.updateManagedFields(liveObj, op.object, scope);
        live = op.object;
      } else {
        const r = ssa.applyManagedFields(liveObj, op.object, scope, op.force);
        live = r.object as Obj;
        entries = r.managedFields;
      }
    } catch (e) {
      if (e instanceof ssa.ConflictError) {
        steps.push(report(live, entries, e.conflicts));
        continue;
      }
      steps.push({ error: (e as Error).message });
      break;
    }
    steps.push(report(live, entries, undefined));
  }
  return steps;
}

function report(
  live: unknown,
  entries: ssa.ManagedFieldsEntry[],
  conflicts: readonly ssa.Conflict[] | undefined,
): OracleStep {
  const managed: Record<string, unknown> = {};
  for (const e of entries) managed[ssa.managerIdentifier(e)] = e.fieldsV1;
  return {
    object: live,
    managed,
    conflicts: conflicts
      ? conflicts
          .map((c) => ({ manager: c.manager, path: ssa.pathString(c.path) }))
          .sort((a, b) =>
            a.manager !== b.manager
              ? a.manager < b.manager
                ? -1
                : 1
              : a.path < b.path
                ? -1
                : a.path > b.path
                  ? 1
                  : 0,
          )
      : null,
  };
}

/** Canonical JSON: sorted keys; associative lists sorted (SMD 4.1.2 merges them in another order). */
function canonical(v: unknown, key?: string): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x));
    if (key && ASSOCIATIVE.has(key))
      items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    return items;
  }
  if (v && typeof v === "object") {
    const out: Obj = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Obj)[k], k);
    return out;
  }
  return v;
}

/** The first difference between two runs, or undefined when they agree. */
export function difference(ours: OracleStep[], theirs: OracleStep[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i];
    const b = theirs[i];
    if (!a || !b) return `step ${i}: ${a ? "the oracle stopped" : "opgen stopped"}`;
    if (b.error || a.error) {
      if (b.error && a.error) return undefined;
      return `step ${i}: error opgen=${a.error ?? "-"} oracle=${b.error ?? "-"}`;
    }
    const oa = JSON.stringify(canonical(a.object));
    const ob = JSON.stringify(canonical(b.object));
    if (oa !== ob) return `step ${i}: object\n  opgen:  ${oa}\n  oracle: ${ob}`;
    const ca = JSON.stringify(a.conflicts ?? null);
    const cb = JSON.stringify(b.conflicts ?? null);
    if (ca !== cb) return `step ${i}: conflicts\n  opgen:  ${ca}\n  oracle: ${cb}`;
    const ids = new Set([...Object.keys(a.managed ?? {}), ...Object.keys(b.managed ?? {})]);
    for (const id of [...ids].sort()) {
      const fa = JSON.stringify(a.managed?.[id]);
      const fb = JSON.stringify(b.managed?.[id]);
      if (fa !== fb) return `step ${i}: managedFields of ${id}\n  opgen:  ${fa}\n  oracle: ${fb}`;
    }
  }
  return undefined;
}
