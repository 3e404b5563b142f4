/**
 * The schema structured-merge-diff walks, as kube-openapi's schemaconv derives it from OpenAPI
 * (a CRD's structural schema, or a built-in's catalog definition): scalars, lists (atomic, or
 * associative with keys: `x-kubernetes-list-type` map/set, else a merge patch strategy with a
 * merge key, else atomic), maps (fields, an element type, granular or atomic), and the untyped
 * atoms (`__untyped_deduced_`: any scalar, atomic lists, granular maps of itself).
 */
import type { DefinitionNode } from "../../catalog/definitions.js";

/** Where `$ref`s resolve: a minor's catalog (`catalogFor`). */
interface Definitions {
  definition(name: string): DefinitionNode | undefined;
}

import { isObject, type JsonObject } from "../../schema/json.js";
import type { JSONSchemaProps } from "../../schema/types.js";

export interface ListAtom {
  readonly atomic: boolean;
  /** Key fields of an associative list of maps; none for a set of scalars. */
  readonly keys: readonly string[];
  element(): Atom;
}

export interface MapAtom {
  readonly atomic: boolean;
  /** The type of a declared field (undefined: not a declared field). */
  field(name: string): Atom | undefined;
  /** The schema default of a declared field (associative list keys take it). */
  fieldDefault(name: string): unknown;
  /** The type of keys that are not declared fields. */
  element(): Atom;
}

export interface Atom {
  readonly scalar: boolean;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
}

function lazy<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    v ??= make();
    return v;
  };
}

const noFields = () => undefined;

export const untypedAtomic: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], element: () => untypedAtomic },
  map: { atomic: true, field: noFields, fieldDefault: noFields, element: () => untypedAtomic },
};

export const deduced: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], element: () => untypedAtomic },
  map: { atomic: false, field: noFields, fieldDefault: noFields, element: () => deduced },
};

const scalarAtom: Atom = { scalar: true };

type Extensions = {
  type?: string | undefined;
  format?: string | undefined;
  "x-kubernetes-list-type"?: string | undefined;
  "x-kubernetes-list-map-keys"?: readonly string[] | undefined;
  "x-kubernetes-map-type"?: string | undefined;
  "x-kubernetes-patch-strategy"?: string | undefined;
  "x-kubernetes-patch-merge-key"?: string | undefined;
  "x-kubernetes-int-or-string"?: boolean | undefined;
};

/** schemaconv's list relationship: list-type, else a merge strategy with a key, else atomic. */
function listRelationship(ext: Extensions): { atomic: boolean; keys: string[] } {
  const lt = ext["x-kubernetes-list-type"];
  if (lt === "set") return { atomic: false, keys: [] };
  if (lt === "map") return { atomic: false, keys: [...(ext["x-kubernetes-list-map-keys"] ?? [])] };
  if (lt) return { atomic: true, keys: [] };
  const ps = ext["x-kubernetes-patch-strategy"];
  if ((ps === "merge" || ps === "merge,retainKeys") && ext["x-kubernetes-patch-merge-key"])
    return { atomic: false, keys: [ext["x-kubernetes-patch-merge-key"]] };
  return { atomic: true, keys: [] };
}

function isUntypedScalar(ext: Extensions): boolean {
  return ext["x-kubernetes-int-or-string"] === true || ext.format === "int-or-string";
}

// ---------------------------------------------------------------- CRD structural schemas

const crdCache = new WeakMap<JSONSchemaProps, Atom>();
const crdPreserveCache = new WeakMap<JSONSchemaProps, Atom>();

/**
 * The atom of a CRD schema node. `preserve` is schemaconv's inherited flag: below an
 * `x-kubernetes-preserve-unknown-fields` object, objects take unknown keys as deduced values.
 */
export function crdAtom(s: JSONSchemaProps, preserve = false): Atom {
  const p = preserve || s["x-kubernetes-preserve-unknown-fields"] === true;
  const cache = p ? crdPreserveCache : crdCache;
  let a = cache.get(s);
  if (!a) {
    a = buildCrdAtom(s, p);
    cache.set(s, a);
  }
  return a;
}

function buildCrdAtom(s: JSONSchemaProps, preserve: boolean): Atom {
  const ext = s as Extensions;
  if (isUntypedScalar(ext)) return { scalar: true };
  const type = s.type;
  if (type === "object") return { scalar: false, map: crdMap(s, preserve) };
  if (type === "array") return { scalar: false, list: crdList(s, preserve) };
  if (type) return scalarAtom;
  return { scalar: true, list: crdList(s, preserve), map: crdMap(s, preserve) };
}

function crdMap(s: JSONSchemaProps, preserve: boolean): MapAtom {
  const props = s.properties ?? {};
  const ap = s.additionalProperties;
  const element = lazy((): Atom => {
    if (typeof ap === "object" && ap !== null) return crdAtom(ap as JSONSchemaProps, preserve);
    if (ap === true || preserve || Object.keys(props).length === 0) return deduced;
    // Undeclared fields of a struct have no type; pruning leaves none to walk.
    return deduced;
  });
  return {
    atomic: s["x-kubernetes-map-type"] === "atomic",
    field: (name) => (Object.hasOwn(props, name) ? crdAtom(props[name]!, preserve) : undefined),
    fieldDefault: (name) => (Object.hasOwn(props, name) ? props[name]!.default : undefined),
    element,
  };
}

function crdList(s: JSONSchemaProps, preserve: boolean): ListAtom {
  const rel = listRelationship(s as Extensions);
  const items = s.items as JSONSchemaProps | undefined;
  return {
    ...rel,
    element: lazy(() =>
      items && !Array.isArray(items) ? crdAtom(items, preserve) : untypedAtomic,
    ),
  };
}

// ---------------------------------------------------------------- catalog definitions

const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension";
const defCache = new WeakMap<DefinitionNode, Atom>();

/** The atom of a built-in type by definition name, e.g. `io.k8s.api.apps.v1.Deployment`. */
export function definitionAtom(defs: Definitions, name: string): Atom | undefined {
  const def = defs.definition(name);
  return def ? nodeAtom(defs, def) : undefined;
}

// Each minor's definitions are objects of their own, so a cached atom is its minor's.
function nodeAtom(defs: Definitions, node: DefinitionNode): Atom {
  let a = defCache.get(node);
  if (!a) {
    a = buildNodeAtom(defs, node);
    defCache.set(node, a);
  }
  return a;
}

function buildNodeAtom(defs: Definitions, node: DefinitionNode): Atom {
  if (node.$ref === QUANTITY || node.$ref === RAW_EXTENSION) return scalarAtom;
  const target = (node.$ref ? defs.definition(node.$ref) : undefined) ?? node;
  if (isUntypedScalar(target) || isUntypedScalar(node)) return scalarAtom;
  // A referencing field's map type overrides the referenced type's (schemaconv's override).
  const mapType = node["x-kubernetes-map-type"] ?? target["x-kubernetes-map-type"];
  const type = target.type;
  if (type === "object" || (!type && target.properties))
    return { scalar: false, map: defMap(defs, target, mapType) };
  if (type === "array") {
    const rel = listRelationship(node.$ref ? target : node);
    const items = target.items;
    return {
      scalar: false,
      list: { ...rel, element: lazy(() => (items ? nodeAtom(defs, items) : untypedAtomic)) },
    };
  }
  if (type) return scalarAtom;
  return deduced;
}

function defMap(defs: Definitions, target: DefinitionNode, mapType: string | undefined): MapAtom {
  const props = target.properties ?? {};
  const ap = target.additionalProperties;
  return {
    atomic: mapType === "atomic",
    field: (name) => (Object.hasOwn(props, name) ? nodeAtom(defs, props[name]!) : undefined),
    fieldDefault: (name) => (Object.hasOwn(props, name) ? props[name]!.default : undefined),
    element: lazy(() => (typeof ap === "object" ? nodeAtom(defs, ap) : deduced)),
  };
}

// ---------------------------------------------------------------- a built-in's zero value

/**
 * A built-in type's Go zero value in its unstructured form, which kube's field manager compares a
 * create (and the first apply to an untracked object) against: `New(kind)` converted with
 * `ToUnstructured`. There, a field without `omitempty` is present with its zero (`""`, `0`,
 * `false`, `null` for slices, maps and pointers; a nested struct's own zero) and a value struct is
 * present even with `omitempty`, so a create never adds `spec` and owns no `.` on it.
 *
 * The catalog has no Go types, so this reads them off OpenAPI: a required field is one without
 * `omitempty` (openapi-gen's rule), and the value structs among the optional fields are the ones
 * every kind embeds by value under the API conventions: `metadata`, `spec` and `status`. An
 * optional struct of another name counts as a pointer (a create that sets it owns `.` on it).
 * The types with their own JSON form take theirs: Time and MicroTime `null`, Quantity `"0"`,
 * IntOrString `0`, RawExtension `null`.
 */
export function definitionZero(defs: Definitions, name: string): JsonObject | undefined {
  const def = defs.definition(name);
  if (!def) return undefined;
  const z = structZero(defs, def, 0);
  return isObject(z) ? z : undefined;
}

const VALUE_STRUCTS = new Set(["metadata", "spec", "status"]);
const OWN_ZERO: Record<string, unknown> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": null,
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": null,
  [QUANTITY]: "0",
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": 0,
  [RAW_EXTENSION]: null,
};

function fieldZero(defs: Definitions, node: DefinitionNode, depth: number): unknown {
  if (node.$ref && Object.hasOwn(OWN_ZERO, node.$ref)) return OWN_ZERO[node.$ref];
  const target = (node.$ref ? defs.definition(node.$ref) : undefined) ?? node;
  if (target.properties) return structZero(defs, target, depth + 1);
  switch (target.type) {
    case "string":
      return target.format === "date-time" || target.format === "byte" ? null : "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

function structZero(defs: Definitions, def: DefinitionNode, depth: number): unknown {
  // Required structs nest only a few levels; a cycle would be a pointer in Go.
  if (depth > 8) return null;
  const out: JsonObject = {};
  const required = new Set(def.required ?? []);
  for (const [name, prop] of Object.entries(def.properties ?? {})) {
    if (required.has(name)) out[name] = fieldZero(defs, prop, depth);
    else if (VALUE_STRUCTS.has(name)) {
      const target = (prop.$ref ? defs.definition(prop.$ref) : undefined) ?? prop;
      if (target.properties) out[name] = structZero(defs, target, depth + 1);
    }
  }
  return out;
}

/** An object's atom with one field's type replaced (a CRD's `metadata` read as ObjectMeta). */
export function withField(root: Atom, name: string, type: Atom | undefined): Atom {
  if (!root.map || !type) return root;
  const m = root.map;
  return {
    ...root,
    map: {
      atomic: m.atomic,
      field: (n) => (n === name ? type : m.field(n)),
      fieldDefault: (n) => (n === name ? undefined : m.fieldDefault(n)),
      element: () => m.element(),
    },
  };
}
