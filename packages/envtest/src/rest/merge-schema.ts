/**
 * The structured-merge-diff schema that server-side apply and managedFields walk for a resource
 * version: the 1.32 catalog's definition for a built-in, the CRD's structural schema for a custom
 * resource with `metadata` read as ObjectMeta (kube's CRD OpenAPI refers to ObjectMeta there),
 * and the conversion to another served version for kinds served in several (HPA v1 and v2).
 */
import { definitionName } from "@opgen/apimachinery/catalog";
import { ssa } from "@opgen/apimachinery/merge";
import type { KubeObject, ResourceInfo, ResourceVersionInfo } from "../api/types.js";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const cache = new WeakMap<ResourceVersionInfo, ssa.Atom>();

export function atomFor(info: ResourceInfo, version: ResourceVersionInfo): ssa.Atom {
  let atom = cache.get(version);
  if (!atom) {
    atom = build(info, version);
    cache.set(version, atom);
  }
  return atom;
}

function build(info: ResourceInfo, version: ResourceVersionInfo): ssa.Atom {
  let root: ssa.Atom | undefined;
  if (info.custom) root = version.schema ? ssa.crdAtom(version.schema) : undefined;
  else {
    const name = definitionName({ group: info.group, version: version.name, kind: info.kind });
    root = name ? ssa.definitionAtom(name) : undefined;
  }
  return ssa.withField(root ?? ssa.deduced, "metadata", ssa.definitionAtom(OBJECT_META));
}

/** The Updater's converter: another served version of a multi-version kind, or none. */
export function converterFor(info: ResourceInfo): ssa.Converter | undefined {
  const convert = info.convert;
  if (!convert) return undefined;
  const prefix = info.group ? `${info.group}/` : "";
  return (tv, apiVersion) => {
    if (!apiVersion.startsWith(prefix)) return undefined;
    const version = info.versions.find((v) => v.name === apiVersion.slice(prefix.length));
    if (!version) return undefined;
    const value = tv.value as KubeObject;
    const converted = value.apiVersion === apiVersion ? value : convert(value, version.name);
    return { value: converted, atom: atomFor(info, version) };
  };
}
