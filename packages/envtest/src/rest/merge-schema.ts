/**
 * The schema that server-side apply and managedFields walk for a resource version: the 1.32
 * catalog's definition for a built-in, the CRD's structural schema for a custom resource, with
 * `metadata` always read as ObjectMeta (a CRD's schema says only `type: object` there, yet
 * finalizers are a set and ownerReferences keyed by uid for every kind).
 */
import { definitionName } from "@opgen/apimachinery/catalog";
import { catalogNode, type MergeNode, schemaNode } from "@opgen/apimachinery/merge";
import type { ResourceInfo, ResourceVersionInfo } from "../api/types.js";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const cache = new WeakMap<ResourceVersionInfo, MergeNode>();

export function mergeNodeFor(
  info: ResourceInfo,
  version: ResourceVersionInfo,
): MergeNode | undefined {
  let node = cache.get(version);
  if (node === undefined) {
    node = build(info, version) ?? null;
    cache.set(version, node);
  }
  return node ?? undefined;
}

function build(info: ResourceInfo, version: ResourceVersionInfo): MergeNode {
  let root: MergeNode | undefined;
  if (info.custom) root = version.schema ? schemaNode(version.schema) : undefined;
  else {
    const name = definitionName({ group: info.group, version: version.name, kind: info.kind });
    root = name ? catalogNode(name) : undefined;
  }
  const meta = catalogNode(OBJECT_META);
  return {
    patchStrategies: [],
    isMap: false,
    ...root,
    field: (name) => (name === "metadata" ? meta : root?.field(name)),
    items: () => root?.items(),
  };
}
