/**
 * The type checking kube-controller-manager's ValidatingAdmissionPolicy status controller runs
 * (`apiserver: pkg/admission/plugin/policy/validating/typechecking.go`): each validation's
 * expression and messageExpression compiled with `object`/`oldObject` typed by the schema of
 * every kind the policy's resource rules name exactly (no wildcard, no subresource; at most 10,
 * in group, version, kind order) and `params` by the paramKind's, each failure a warning
 * `<group/version, Kind=kind>: <cel-go's error>`. Kinds without a schema are skipped.
 */
import { CelCompileError, compileCelTyped } from "@opgen/apimachinery/cel";
import type { Registry } from "../../api/registry.js";
import type { ResourceInfo, Schema } from "../../api/types.js";
import { DECLARED } from "./declared-types.js";
import type { PolicySpec } from "./source.js";

const MAX_TYPES = 10;
const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const gvkString = (g: Gvk) => `${g.group}/${g.version}, Kind=${g.kind}`;

const schemas = new WeakMap<object, Schema | null>();

/** The schema the API server resolves for a kind: the catalog's, or a CRD's with ObjectMeta. */
function schemaOf(info: ResourceInfo, version: string): Schema | undefined {
  const v = info.versions.find((x) => x.name === version);
  if (!v) return undefined;
  const cached = schemas.get(v);
  if (cached !== undefined) return cached ?? undefined;
  let schema: Schema | undefined;
  if (info.custom) {
    if (v.schema) {
      const props = v.schema.properties ?? {};
      schema = {
        ...v.schema,
        properties: {
          ...props,
          apiVersion: { type: "string" },
          kind: { type: "string" },
          metadata: info.kube.catalog.expandSchema(OBJECT_META) as Schema,
        },
      };
    }
  } else {
    const catalog = info.kube.catalog;
    const name = catalog.definitionName({ group: info.group, version, kind: info.kind });
    if (name) schema = catalog.expandSchema(name) as Schema;
  }
  schemas.set(v, schema ?? null);
  return schema;
}

function typesToCheck(registry: Registry, spec: PolicySpec): { gvk: Gvk; schema: Schema }[] {
  const found = new Map<string, { gvk: Gvk; schema: Schema }>();
  collect: for (const rule of spec.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.some((g) => g.includes("*")) || versions.some((v) => v.includes("*"))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort())
      for (const version of [...versions].sort())
        for (const resource of [...resources].sort()) {
          const hit = registry.lookup(group, version, resource);
          if (!hit) continue;
          const gvk = { group, version, kind: hit.info.kind };
          const schema = schemaOf(hit.info, version);
          if (schema) found.set(gvkString(gvk), { gvk, schema });
          if (found.size === MAX_TYPES) break collect;
        }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...found.values()].sort(
    (a, b) =>
      cmp(a.gvk.group, b.gvk.group) ||
      cmp(a.gvk.version, b.gvk.version) ||
      cmp(a.gvk.kind, b.gvk.kind),
  );
}

/** The policy's expression warnings, as its status.typeChecking reports them. */
export function typeCheck(registry: Registry, spec: PolicySpec): ExpressionWarning[] {
  const types = typesToCheck(registry, spec);
  if (types.length === 0) return [];
  let params: Schema | undefined;
  const k = spec.paramKind;
  if (k) {
    const info = registry.lookupKind(k.apiVersion ?? "", k.kind ?? "");
    params = info ? schemaOf(info, (k.apiVersion ?? "").split("/").pop() ?? "") : undefined;
  }
  // params is declared only when its type is known, as kube's checker does.
  const dyn = ["authorizer", "variables"];
  const check = (expr: string) =>
    types
      .flatMap(({ gvk, schema }) => {
        const object = { schema, resource: true };
        const typed = {
          ...DECLARED,
          object,
          oldObject: object,
          ...(params ? { params: { schema: params, resource: true } } : {}),
        };
        const p = compileCelTyped(expr, typed, dyn);
        return p instanceof CelCompileError ? [`${gvkString(gvk)}: ${p.detail}\n`] : [];
      })
      .join("\n");
  const warnings: ExpressionWarning[] = [];
  spec.validations.forEach((v, i) => {
    const w = check(v.expression);
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const m = check(v.messageExpression);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
