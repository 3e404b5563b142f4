/**
 * What merge algorithms need to know at each point of an object: a field's patch strategy and
 * merge key (strategic merge patch), its list type and map keys (server-side apply), and the
 * defaults of key fields. Built lazily from the catalog's definitions (built-in kinds) or from a
 * CRD's JSONSchemaProps, so one merge implementation serves both and no hand table exists.
 */
import type { DefinitionNode } from "../catalog/definitions.js";
import type { JSONSchemaProps } from "../schema/types.js";

export interface MergeNode {
  /** The node of a property of this object. */
  field(name: string): MergeNode | undefined;
  /** The node of this list's items, or this map's values. */
  items(): MergeNode | undefined;
  /** `x-kubernetes-patch-strategy`, split (`merge`, `retainKeys`, `replace`). */
  readonly patchStrategies: readonly string[];
  /** `x-kubernetes-patch-merge-key`. */
  readonly patchMergeKey?: string;
  readonly listType?: "atomic" | "set" | "map";
  readonly listMapKeys?: readonly string[];
  readonly mapType?: "atomic" | "granular";
  /** The schema default of this node, if any. */
  readonly default?: unknown;
  /** A map (`additionalProperties`), whose keys are data, not fields. */
  readonly isMap: boolean;
}

const EMPTY: readonly string[] = Object.freeze([]);

/**
 * Navigators are made once per schema node and kept: managedFields and apply walk the same
 * few paths on every write, and building nodes anew each time showed as allocation in the
 * envtest create benchmark.
 */
const catalogNodes = new WeakMap<DefinitionNode, MergeNode>();
const schemaNodes = new WeakMap<JSONSchemaProps, MergeNode>();

/** Where a catalog navigator resolves `$ref`s: a minor's catalog (`catalogFor`). */
export interface DefinitionLookup {
  definition(name: string): DefinitionNode | undefined;
}

/** A navigator over a catalog definition, e.g. `io.k8s.api.apps.v1.Deployment`. */
export function catalogNode(catalog: DefinitionLookup, name: string): MergeNode | undefined {
  const def = catalog.definition(name);
  return def ? fromDefinition(catalog, def) : undefined;
}

// Each minor's definitions are objects of their own, so a node's navigator is its minor's.
function fromDefinition(catalog: DefinitionLookup, node: DefinitionNode): MergeNode {
  let made = catalogNodes.get(node);
  if (!made) {
    made = buildFromDefinition(catalog, node);
    catalogNodes.set(node, made);
  }
  return made;
}

function buildFromDefinition(catalog: DefinitionLookup, node: DefinitionNode): MergeNode {
  // A property node carries the list/patch facts; the referenced type carries the properties.
  const target = (node.$ref ? catalog.definition(node.$ref) : undefined) ?? node;
  const strategy = node["x-kubernetes-patch-strategy"];
  return {
    field(name) {
      const child = target.properties?.[name];
      return child ? fromDefinition(catalog, child) : undefined;
    },
    items() {
      const child =
        target.items ??
        (typeof target.additionalProperties === "object" ? target.additionalProperties : undefined);
      return child ? fromDefinition(catalog, child) : undefined;
    },
    patchStrategies: strategy ? strategy.split(",") : EMPTY,
    isMap: typeof target.additionalProperties === "object" && !target.properties,
    ...(node["x-kubernetes-patch-merge-key"]
      ? { patchMergeKey: node["x-kubernetes-patch-merge-key"] }
      : {}),
    ...(node["x-kubernetes-list-type"] ? { listType: node["x-kubernetes-list-type"] } : {}),
    ...(node["x-kubernetes-list-map-keys"]
      ? { listMapKeys: node["x-kubernetes-list-map-keys"] }
      : {}),
    ...((node["x-kubernetes-map-type"] ?? target["x-kubernetes-map-type"])
      ? { mapType: node["x-kubernetes-map-type"] ?? target["x-kubernetes-map-type"] }
      : {}),
    ...(node.default !== undefined ? { default: node.default } : {}),
  };
}

/** A navigator over a CRD's structural schema (no patch strategies: CRDs take no SMP). */
export function schemaNode(schema: JSONSchemaProps): MergeNode {
  let made = schemaNodes.get(schema);
  if (!made) {
    made = buildFromSchema(schema);
    schemaNodes.set(schema, made);
  }
  return made;
}

function buildFromSchema(schema: JSONSchemaProps): MergeNode {
  return {
    field(name) {
      const child = schema.properties?.[name];
      return child ? schemaNode(child) : undefined;
    },
    items() {
      const child =
        schema.items ??
        (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      return child ? schemaNode(child) : undefined;
    },
    patchStrategies: EMPTY,
    isMap:
      (typeof schema.additionalProperties === "object" || schema.additionalProperties === true) &&
      !schema.properties,
    ...(schema["x-kubernetes-list-type"]
      ? { listType: schema["x-kubernetes-list-type"] as MergeNode["listType"] }
      : {}),
    ...(schema["x-kubernetes-list-map-keys"]
      ? { listMapKeys: schema["x-kubernetes-list-map-keys"] }
      : {}),
    ...(schema["x-kubernetes-map-type"]
      ? { mapType: schema["x-kubernetes-map-type"] as MergeNode["mapType"] }
      : {}),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
  };
}

/**
 * The identity of a list-map item: its key fields, a missing key field taking its schema default
 * (a Service port without `protocol` is the TCP one), as server-side apply keys items.
 */
export function listMapKey(item: Record<string, unknown>, list: MergeNode): string {
  const keys = list.listMapKeys ?? (list.patchMergeKey ? [list.patchMergeKey] : []);
  const itemNode = list.items();
  return JSON.stringify(
    keys.map((k) => {
      const v = item[k];
      return v === undefined ? (itemNode?.field(k)?.default ?? null) : v;
    }),
  );
}
