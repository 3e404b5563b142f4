/**
 * The type errors kube-apiserver's JSON decoder reports for built-ins (`replicas: "two"`):
 * `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type
 * int32`, found by walking the object along the 1.32 catalog's definitions, whose names are
 * the Go struct names. Go names its own string, integer and map types (`v1.Protocol`,
 * `v1.ResourceList`); the catalog does not, so those read `string`, `int32`, `map[string]...`
 * here. Types that decode themselves (quantities, int-or-string, times, raw JSON) are not checked.
 */
import {
  definition as catalogDefinition,
  type DefinitionNode,
  type TypeDefinition,
} from "@opgen/apimachinery/catalog";
import { isObject } from "../api/types.js";

// Every request walks a few definitions: keep them at hand rather than in the catalog's files.
const definitions = new Map<string, TypeDefinition | undefined>();
function definition(name: string): TypeDefinition | undefined {
  if (!definitions.has(name)) definitions.set(name, catalogDefinition(name));
  return definitions.get(name);
}

function goPackage(defName: string): string {
  const parts = defName.split(".");
  return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

function goType(node: DefinitionNode): string {
  if (node.$ref) return goPackage(node.$ref);
  switch (node.type) {
    case "integer":
      return node.format === "int64" ? "int64" : node.format === "int32" ? "int32" : "int";
    case "number":
      return "float64";
    case "boolean":
      return "bool";
    case "array":
      return `[]${node.items ? goType(node.items) : "interface {}"}`;
    case "object":
      return typeof node.additionalProperties === "object"
        ? `map[string]${goType(node.additionalProperties)}`
        : "map[string]interface {}";
    default:
      return node.format === "byte" ? "[]uint8" : "string";
  }
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  return typeof v;
}

const mismatch = (v: unknown, node: DefinitionNode, struct: string, field: string) =>
  `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type ${goType(node)}`;

function checkValue(
  node: DefinitionNode,
  v: unknown,
  struct: string,
  field: string,
): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (node.$ref) {
    const target = definition(node.$ref);
    // Types with their own JSON form (Quantity, IntOrString, Time, RawExtension) decode anything.
    if (!target?.properties) return undefined;
    if (!isObject(v)) return mismatch(v, node, struct, field);
    return checkStruct(node.$ref, v, field);
  }
  switch (node.type) {
    case "integer": {
      if (typeof v !== "number") return mismatch(v, node, struct, field);
      const bits = node.format === "int32" ? 31 : 63;
      if (!Number.isInteger(v) || v >= 2 ** bits || v < -(2 ** bits))
        return `json: cannot unmarshal number ${v} into Go struct field ${struct}.${field} of type ${goType(node)}`;
      return undefined;
    }
    case "number":
      return typeof v === "number" ? undefined : mismatch(v, node, struct, field);
    case "boolean":
      return typeof v === "boolean" ? undefined : mismatch(v, node, struct, field);
    case "string":
      return typeof v === "string" ? undefined : mismatch(v, node, struct, field);
    case "array": {
      if (!Array.isArray(v)) return mismatch(v, node, struct, field);
      if (!node.items) return undefined;
      for (const item of v) {
        const e = checkValue(node.items, item, struct, field);
        if (e) return e;
      }
      return undefined;
    }
    case "object": {
      if (!isObject(v)) return mismatch(v, node, struct, field);
      if (typeof node.additionalProperties !== "object") return undefined;
      for (const item of Object.values(v)) {
        const e = checkValue(node.additionalProperties, item, struct, field);
        if (e) return e;
      }
      return undefined;
    }
  }
  return undefined;
}

function checkStruct(
  defName: string,
  obj: Record<string, unknown>,
  path: string,
): string | undefined {
  const def = definition(defName);
  if (!def?.properties) return undefined;
  const struct = defName.slice(defName.lastIndexOf(".") + 1);
  for (const key in obj) {
    const prop = def.properties[key];
    if (!prop) continue;
    const e = checkValue(prop, obj[key], struct, path ? `${path}.${key}` : key);
    if (e) return e;
  }
  return undefined;
}

/** The first type error of a built-in object against its definition, as Go's decoder words it. */
export function builtinTypeError(
  defName: string,
  obj: Record<string, unknown>,
): string | undefined {
  return checkStruct(defName, obj, "");
}
