/**
 * The fields of a server-side apply configuration that its type does not declare. kube converts
 * the configuration to a structured-merge-diff typed value before merging (ObjectToTyped in
 * staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go), and
 * structured-merge-diff's validation refuses a field a struct does not declare: `.spec.bogus:
 * field not declared in schema` (its validate.go). The error is no Status, so kube answers it as
 * a 500 with the field manager's text. Open maps (additionalProperties, a
 * preserve-unknown-fields object, an object without properties) take any key.
 */
import type { Catalog, DefinitionNode } from "@opgen/apimachinery/catalog";
import { ApiError } from "@opgen/apimachinery/status";
import {
  groupVersion,
  isObject,
  type JsonObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/** A catalog definition node or a CRD schema node: the parts the walk reads. */
type Node = DefinitionNode;

function resolve(catalog: Catalog, node: Node): Node {
  return (node.$ref ? catalog.definition(node.$ref) : undefined) ?? node;
}

/** The list's item path element as structured-merge-diff prints it. */
function itemPath(node: Node, item: unknown, index: number): string {
  const listType = node["x-kubernetes-list-type"];
  const keys =
    listType === "map"
      ? [...(node["x-kubernetes-list-map-keys"] ?? [])]
      : !listType &&
          node["x-kubernetes-patch-merge-key"] &&
          /merge/.test(node["x-kubernetes-patch-strategy"] ?? "")
        ? [node["x-kubernetes-patch-merge-key"]]
        : [];
  if (keys.length > 0 && isObject(item)) {
    return `[${keys
      .filter((k) => item[k] !== undefined)
      .sort()
      .map((k) => `${k}=${JSON.stringify(item[k])}`)
      .join(",")}]`;
  }
  if (listType === "set" && !isObject(item)) return `[=${JSON.stringify(item)}]`;
  return `[${index}]`;
}

function walk(
  catalog: Catalog,
  value: unknown,
  node: Node,
  path: string,
  preserve: boolean,
  out: string[],
): void {
  const target = resolve(catalog, node);
  const keep = preserve || target["x-kubernetes-preserve-unknown-fields"] === true;
  if (Array.isArray(value)) {
    if (!target.items) return;
    value.forEach((item, i) => {
      walk(catalog, item, target.items!, `${path}${itemPath(target, item, i)}`, keep, out);
    });
    return;
  }
  if (!isObject(value)) return;
  const props = target.properties ?? {};
  const ap = target.additionalProperties;
  const open = keep || ap === true || Object.keys(props).length === 0;
  // An embedded resource declares its type and metadata (kube's CRD OpenAPI adds them).
  const embedded = target["x-kubernetes-embedded-resource"] === true;
  for (const [key, v] of Object.entries(value)) {
    const p = `${path}.${key}`;
    if (Object.hasOwn(props, key)) walk(catalog, v, props[key]!, p, keep, out);
    else if (embedded && (key === "apiVersion" || key === "kind")) continue;
    else if (embedded && key === "metadata") walk(catalog, v, { $ref: OBJECT_META }, p, false, out);
    else if (typeof ap === "object") walk(catalog, v, ap, p, keep, out);
    else if (!open) out.push(p);
  }
}

/** Refuses an apply configuration with undeclared fields, as kube's field manager does. */
export function checkDeclaredFields(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  applied: JsonObject,
): void {
  const meta = isObject(applied.metadata) ? applied.metadata : {};
  const namespace = typeof meta.namespace === "string" ? meta.namespace : "";
  const name = typeof meta.name === "string" ? meta.name : "";
  const found: string[] = [];
  const catalog = info.kube.catalog;
  if (info.custom) {
    if (!version.schema) return;
    const { metadata, apiVersion: _a, kind: _k, ...rest } = applied;
    walk(catalog, rest, version.schema as Node, "", false, found);
    if (metadata !== undefined)
      walk(catalog, metadata, { $ref: OBJECT_META }, ".metadata", false, found);
  } else {
    const def = catalog.definitionName({
      group: info.group,
      version: version.name,
      kind: info.kind,
    });
    if (!def) return;
    walk(catalog, applied, { $ref: def }, "", false, found);
  }
  if (found.length === 0) return;
  // structured-merge-diff's ValidationErrors: one line, or "errors:" and one indented line each.
  const lines = found.map((p) => `${p}: field not declared in schema`);
  const text =
    lines.length === 1 ? lines[0]! : ["errors:", ...lines.map((l) => `  ${l}`)].join("\n");
  const gv = groupVersion(info.group, version.name);
  // objectGVKNN: the configuration's namespace/name and schema.GroupVersionKind's String().
  const gvk = `${gv.includes("/") ? gv : `/${gv}`}, Kind=${info.kind}`;
  throw new ApiError(
    500,
    undefined,
    `failed to create typed patch object (${namespace}/${name}; ${gvk}): ${text}`,
  );
}
