/**
 * kube-apiserver's CRD validation on every CRD `opgen manifests` assembles: the validator of
 * @opgen/apimachinery/apiextensions, the one envtest runs on every CRD write, on a defaulted copy
 * (the server defaults before it validates). Each error is kube's own line, said at the marker
 * it comes from (a printer column's, a rule's, a pattern's: provenance.ts), else at the kind. A
 * CRD that passed before is not validated again (validation-cache.ts), so the validator loads
 * only when a CRD changed, and its CEL engine only when a changed CRD has rules.
 */
import type { CustomResourceDefinition } from "@opgen/apimachinery/apiextensions";
import type { FieldError } from "@opgen/apimachinery/status";
import type { ParsedMarker, SourcePos } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { AssembledCrd } from "./assemble.js";
import { originOf } from "./provenance.js";
import { cacheFile, keyOf, readCache, writeCache } from "./validation-cache.js";

type Node = Record<string, unknown>;

/** The errors kube-apiserver would answer creating each CRD with, at their markers. */
export async function kubeProblems(crds: readonly AssembledCrd[]): Promise<Diagnostic[]> {
  const file = cacheFile();
  const known = readCache(file);
  // The assembled CRD decides the defaulted one: its JSON is the key.
  // A kind of the empty (core) group is written as controller-gen writes it, for reference: no
  // API server creates such a CRD, and opgen's own checks leave it be.
  const unknown = crds
    .filter((crd) => crd.group !== "")
    .map((crd) => ({ crd, json: JSON.stringify(crd.object) }))
    .map(({ crd, json }) => ({ crd, json, key: keyOf(json) }))
    .filter(({ key }) => !known.has(key));
  if (unknown.length === 0) return [];
  // The CEL engine loads only for CRDs with rules; the rest is the same validator without it.
  const rules = unknown.some(({ json }) => json.includes('"x-kubernetes-validations"'));
  const [
    { defaultCustomResourceDefinition, validateCustomResourceDefinition },
    { fieldErrorString, goValue },
  ] = await Promise.all([
    rules
      ? import("@opgen/apimachinery/apiextensions")
      : import("@opgen/apimachinery/apiextensions/core"),
    import("@opgen/apimachinery/status"),
  ]);
  const out: Diagnostic[] = [];
  for (const { crd, key } of unknown) {
    // Defaulting writes only the names and the conversion: those are copied, the schemas are
    // the assembled ones (the validator reads them), so an error in them finds its marker.
    const spec = crd.object.spec as Node;
    const copy = {
      ...crd.object,
      spec: { ...spec, names: { ...(spec.names as Node) } },
    } as unknown as CustomResourceDefinition;
    defaultCustomResourceDefinition(copy);
    const errors = validateCustomResourceDefinition(copy);
    if (errors.length === 0) known.add(key);
    for (const e of worthSaying(errors)) {
      const { marker, pos } = locate(e.field, crd, copy as unknown as Node);
      const label = marker ? `@${marker.def.name}` : `kind ${crd.kind}`;
      // cel-go's detail repeats the rule with a caret on further lines: its first line says it all.
      const kube = fieldErrorString(shortened(e, goValue)).split("\n")[0];
      out.push({
        severity: "error",
        ...(marker?.pos ?? pos),
        message: `${label}: kube-apiserver would refuse CustomResourceDefinition ${copy.metadata?.name}: ${kube}${hint(e)}`,
      });
    }
  }
  writeCache(file, known);
  return out;
}

/**
 * kube's errors but one: a rule over its own cost limit is not also said to be part of the
 * CRD's total (the total itself is still said, at the kind).
 */
function worthSaying(errors: readonly FieldError[]): FieldError[] {
  const overOwnLimit = new Set(
    errors.filter((e) => e.detail?.startsWith("estimated ")).map((e) => e.field),
  );
  return errors.filter(
    (e) => !(e.detail?.startsWith("contributed to ") && overOwnLimit.has(e.field)),
  );
}

/**
 * The error with a whole list or object value (kube prints all of `spec.versions`, schemas
 * included) shown as `{…}`: the field and the detail say what is wrong, in one line.
 */
function shortened(e: FieldError, goValue: (text: string) => unknown): FieldError {
  const v = e.value;
  const whole =
    Array.isArray(v) || (typeof v === "object" && v !== null && v.constructor === Object);
  return whole ? { ...e, value: goValue("{…}") } : e;
}

/** How to fix what kube's words leave implicit. */
function hint(e: FieldError): string {
  if (e.field.endsWith(".pattern")) {
    return " (kube-apiserver compiles patterns with Go's RE2 syntax: no lookarounds or backreferences)";
  }
  return "";
}

/** The marker (or at least the declaration) an error's field path comes from. */
function locate(
  field: string,
  crd: AssembledCrd,
  copy: Node,
): { marker?: ParsedMarker; pos: SourcePos } {
  const first = crd.versions[0]!;
  const m = /^spec\.versions\[(\d+)\](.*)$/.exec(field);
  if (!m) {
    if (field.startsWith("spec.group")) return { pos: first.groupPos ?? first.pos };
    return { marker: first.markers.find((x) => x.def.name === "resource"), pos: first.pos };
  }
  const index = Number(m[1]);
  const v = crd.versions[index] ?? first;
  const rest = m[2]!;
  const of = (name: string) => v.markers.filter((x) => x.def.name === name);
  const column = /^\.additionalPrinterColumns\[(\d+)\]/.exec(rest);
  if (column) return { marker: of("printcolumn")[Number(column[1])], pos: v.pos };
  if (rest.startsWith(".subresources.scale"))
    return { marker: of("subresource scale")[0], pos: v.pos };
  if (rest.startsWith(".name")) return { pos: v.versionPos ?? v.pos };
  if (rest.startsWith(".deprecationWarning")) {
    return { marker: of("deprecatedversion")[0], pos: v.pos };
  }
  const schema = /^\.schema\.openAPIV3Schema(.*)$/.exec(rest);
  const versions = (copy.spec as Node).versions as Node[];
  const root = (versions[index]?.schema as Node | undefined)?.openAPIV3Schema as Node | undefined;
  if (schema && root) return { marker: schemaOrigin(root, schema[1]!), pos: v.pos };
  return { pos: v.pos };
}

/** Follows `.properties[a].items.x-kubernetes-validations[0].rule` to the marker behind it. */
function schemaOrigin(root: Node, path: string): ParsedMarker | undefined {
  let node: Node | undefined = root;
  let rest = path;
  while (node && rest) {
    const prop = /^\.properties\[([^\]]*)\]/.exec(rest);
    const child = /^\.(items|additionalProperties)(?=$|[.[])/.exec(rest);
    const rule = /^\.x-kubernetes-validations\[(\d+)\]/.exec(rest);
    const keyword = /^\.([\w$-]+)/.exec(rest);
    if (prop) {
      node = (node.properties as Record<string, Node> | undefined)?.[prop[1]!];
      rest = rest.slice(prop[0].length);
    } else if (child) {
      const next: Node | undefined = node[child[1]!] as Node | undefined;
      if (!next || typeof next !== "object") return originOf(node, child[1]!);
      node = next;
      rest = rest.slice(child[0].length);
    } else if (rule) {
      const entry = (node["x-kubernetes-validations"] as Node[] | undefined)?.[Number(rule[1])];
      return (entry && originOf(entry)) ?? originOf(node, "x-kubernetes-validations");
    } else if (keyword) {
      return originOf(node, keyword[1]!);
    } else return undefined;
  }
  return undefined;
}
