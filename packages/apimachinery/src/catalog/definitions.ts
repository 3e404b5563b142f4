/**
 * The OpenAPI definitions of the built-in types (`io.k8s.api.core.v1.PodSpec`, ...) as the
 * catalog keeps them: structural facts only (types, formats, required, list and map semantics,
 * patch strategies, defaults), `$ref`s by definition name, descriptions apart. Each API package's
 * file is read on first use.
 */
import type { JSONValue } from "../schema/types.js";
import type { CatalogData } from "./data.js";

/** A schema node of a definition, as in the OpenAPI v2 document minus descriptions. */
export interface DefinitionNode {
  /** The referenced definition's name, e.g. `io.k8s.api.core.v1.Container`. */
  $ref?: string;
  type?: string;
  format?: string;
  enum?: JSONValue[];
  required?: string[];
  default?: JSONValue;
  items?: DefinitionNode;
  additionalProperties?: DefinitionNode | boolean;
  properties?: Record<string, DefinitionNode>;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-patch-merge-key"?: string;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  /** The default was written `+default=ref(Const)` (controller-gen writes none for it). */
  "x-opgen-default-ref"?: boolean;
  /** The map type a type embedded inline brings when controller-gen flattens it. */
  "x-opgen-inline-map-type"?: "atomic" | "granular";
}

/** A top-level definition: a node, plus the kinds it serves as and its unions. */
export interface TypeDefinition extends DefinitionNode {
  "x-kubernetes-group-version-kind"?: { group: string; version: string; kind: string }[];
  "x-kubernetes-unions"?: unknown[];
}

function split(name: string): [pkg: string, type: string] {
  const dot = name.lastIndexOf(".");
  return [name.slice(0, dot), name.slice(dot + 1)];
}

/** The definition of that name, or undefined when the minor's API data has none. */
export function readDefinition(data: CatalogData, name: string): TypeDefinition | undefined {
  const [pkg, type] = split(name);
  if (!pkg) return undefined;
  return data.read<Record<string, TypeDefinition>>(`defs/${pkg}.json`)?.[type];
}

/** The description of a definition (no property) or of one of its properties. */
export function readDescription(
  data: CatalogData,
  name: string,
  property?: string,
): string | undefined {
  const [pkg, type] = split(name);
  if (!pkg) return undefined;
  return data.read<Record<string, Record<string, string>>>(`descriptions/${pkg}.json`)?.[type]?.[
    property ?? ""
  ];
}
