/**
 * CRD assembly: every version of a kind (one root type per version folder) merged into one
 * CustomResourceDefinition, laid out as controller-gen's pkg/crd/spec.go builds it: names, scope,
 * versions sorted by name with `served`/`storage` always written, subresources, printer columns,
 * deprecation, selectable fields and CRD metadata from the root markers.
 */

import { resourcePlural } from "@opgen/apimachinery/names";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { MarkerArgs, MarkerValue, ParsedMarker, SourcePos } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import { byteOrder } from "./walker-util.js";

/** One version of a kind, as the walker found it. */
export interface KindVersion {
  group: string;
  version: string;
  kind: string;
  schema: JSONSchemaProps;
  markers: readonly ParsedMarker[];
  /** Where the root type is declared, for messages. */
  pos: SourcePos;
  /** Where the group and the version are declared (groupversion.ts), for messages about them. */
  groupPos?: SourcePos;
  versionPos?: SourcePos;
  /** The version is the folder's name, not declared. */
  versionFromFolder?: boolean;
}

export interface AssembledCrd {
  group: string;
  kind: string;
  plural: string;
  /** The CustomResourceDefinition object, ready for the YAML writer. */
  object: Record<string, unknown>;
  /** The kind versions behind `spec.versions`, in its order: where its errors are said. */
  versions: readonly KindVersion[];
}

export interface AssembleOptions {
  /** The annotation naming the generator and its version. */
  versionAnnotation: { key: string; value: string };
}

const args = (markers: readonly ParsedMarker[], name: string): MarkerArgs | undefined =>
  markers.find((m) => m.def.name === name)?.args;
const all = (markers: readonly ParsedMarker[], name: string): ParsedMarker[] =>
  markers.filter((m) => m.def.name === name);

function err(pos: SourcePos, message: string): Diagnostic {
  return { severity: "error", file: pos.file, line: pos.line, column: pos.column, message };
}

/**
 * The plural of a kind without `@resource path=`: controller-gen's `ToLower(flect.Pluralize(kind))`.
 * `opgen create api` writes `@resource path=` where Kubebuilder's plural differs, as Kubebuilder does.
 */
export function defaultPlural(kind: string): string {
  return resourcePlural(kind);
}

export function assembleCrds(
  versions: readonly KindVersion[],
  options: AssembleOptions,
): { crds: AssembledCrd[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byKind = new Map<string, KindVersion[]>();
  for (const v of versions) {
    const key = `${v.kind}.${v.group}`;
    byKind.set(key, [...(byKind.get(key) ?? []), v]);
  }
  const crds: AssembledCrd[] = [];
  for (const key of [...byKind.keys()].sort(byteOrder)) {
    const kindVersions = byKind.get(key)!.sort((a, b) => byteOrder(a.version, b.version));
    const crd = assembleOne(kindVersions, options, diagnostics);
    if (crd) crds.push(crd);
  }
  return { crds, diagnostics };
}

function assembleOne(
  versions: KindVersion[],
  options: AssembleOptions,
  diagnostics: Diagnostic[],
): AssembledCrd | undefined {
  const first = versions[0]!;
  const { group, kind } = first;
  for (let i = 1; i < versions.length; i++) {
    if (versions[i]!.version === versions[i - 1]!.version) {
      diagnostics.push(
        err(
          versions[i]!.pos,
          `kind ${kind} is declared twice for ${group}/${versions[i]!.version} (also at ${versions[i - 1]!.pos.file}:${versions[i - 1]!.pos.line})`,
        ),
      );
      return undefined;
    }
  }
  // @resource is CRD-wide: every version must say the same.
  const resource = args(first.markers, "resource") ?? {};
  for (const v of versions.slice(1)) {
    const other = args(v.markers, "resource") ?? {};
    if (JSON.stringify(sortKeys(other)) !== JSON.stringify(sortKeys(resource))) {
      diagnostics.push(
        err(
          v.pos,
          `@resource of ${kind} ${v.version} differs from ${first.version}; names and scope are shared by all versions, so write the same @resource on each`,
        ),
      );
    }
  }
  const plural = (resource.path as string | undefined) ?? defaultPlural(kind);
  const kept = versions.filter((v) => !args(v.markers, "skipversion"));
  if (!kept.length) return undefined;
  const storage = kept.filter((v) => args(v.markers, "storageversion"));
  if (kept.length > 1 && storage.length !== 1) {
    diagnostics.push(
      err(
        (storage[1] ?? kept[0]!).pos,
        storage.length === 0
          ? `kind ${kind} has ${kept.length} versions (${kept.map((v) => v.version).join(", ")}) but none is marked @storageversion; add it to the JSDoc of the version the API server should store`
          : `kind ${kind} has more than one @storageversion (${storage.map((v) => v.version).join(", ")})`,
      ),
    );
    return undefined;
  }
  const annotations: Record<string, string> = {};
  const labels: Record<string, string> = {};
  for (const v of kept) {
    for (const m of all(v.markers, "metadata")) {
      for (const [target, list] of [
        [annotations, m.args.annotations],
        [labels, m.args.labels],
      ] as const) {
        for (const item of (list as string[] | undefined) ?? []) {
          const eq = item.indexOf("=");
          if (eq < 1) {
            diagnostics.push(err(m.pos, `@metadata: "${item}" is not key=value`));
            continue;
          }
          target[item.slice(0, eq)] = item.slice(eq + 1);
        }
      }
    }
  }
  annotations[options.versionAnnotation.key] = options.versionAnnotation.value;

  const names: Record<string, unknown> = {
    kind,
    listKind: `${kind}List`,
    plural,
    singular: (resource.singular as string | undefined) ?? kind.toLowerCase(),
  };
  if ((resource.shortName as string[] | undefined)?.length) names.shortNames = resource.shortName;
  if ((resource.categories as string[] | undefined)?.length) names.categories = resource.categories;

  const versionObjects = kept.map((v) => versionObject(v, kept.length === 1 || storage[0] === v));
  const metadata: Record<string, unknown> = { annotations, name: `${plural}.${group}` };
  if (Object.keys(labels).length) metadata.labels = labels;
  return {
    group,
    kind,
    plural,
    versions: kept,
    object: {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata,
      spec: {
        group,
        names,
        scope: (resource.scope as string | undefined) ?? "Namespaced",
        versions: versionObjects,
      },
    },
  };
}

function versionObject(v: KindVersion, storage: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: v.version,
    schema: { openAPIV3Schema: v.schema },
    served: !args(v.markers, "unservedversion"),
    storage,
  };
  const deprecated = args(v.markers, "deprecatedversion");
  if (deprecated) {
    out.deprecated = true;
    if (deprecated.warning !== undefined) out.deprecationWarning = deprecated.warning;
  }
  const columns = all(v.markers, "printcolumn").map((m) => {
    const c: Record<string, MarkerValue> = {
      jsonPath: m.args.jsonPath!,
      name: m.args.name!,
      type: m.args.type!,
    };
    if (m.args.description !== undefined) c.description = m.args.description;
    if (m.args.format !== undefined) c.format = m.args.format;
    if (m.args.priority !== undefined && m.args.priority !== 0) c.priority = m.args.priority;
    return c;
  });
  if (columns.length) out.additionalPrinterColumns = columns;
  const selectable = all(v.markers, "selectablefield").map((m) => ({ jsonPath: m.args.jsonPath }));
  if (selectable.length) out.selectableFields = selectable;
  const subresources: Record<string, unknown> = {};
  if (args(v.markers, "subresource status")) subresources.status = {};
  const scale = args(v.markers, "subresource scale");
  if (scale) {
    subresources.scale = {
      ...(scale.selectorpath !== undefined ? { labelSelectorPath: scale.selectorpath } : {}),
      specReplicasPath: scale.specpath,
      statusReplicasPath: scale.statuspath,
    };
  }
  if (Object.keys(subresources).length) out.subresources = subresources;
  return out;
}

function sortKeys(o: MarkerArgs): [string, MarkerValue][] {
  return Object.entries(o).sort(([a], [b]) => byteOrder(a, b));
}
