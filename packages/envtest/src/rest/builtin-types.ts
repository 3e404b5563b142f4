/**
 * The type errors kube-apiserver's JSON decoder reports for built-ins (`replicas: "two"`):
 * `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type
 * int32`, found by walking the object along the serving minor's catalog definitions, whose names are
 * the Go struct names. Go names its own string, integer and map types (`v1.Protocol`,
 * `v1.ResourceList`); the catalog does not, so those read `string`, `int32`, `map[string]...`
 * here (the 1.32 OpenAPI and protobuf data name no such types). Types that decode themselves
 * report as their UnmarshalJSON does: a quantity that does not parse is ParseQuantity's format
 * error, an int-or-string that is neither reads as an int32, a time must be a string (its text
 * is not checked); raw JSON takes anything.
 */
import type { Catalog, DefinitionNode, TypeDefinition } from "@opgen/apimachinery/catalog";
import { parseQuantity, QUANTITY_FORMAT_ERROR } from "@opgen/apimachinery/quantity";
import { normalizeMicroTime, normalizeTime } from "../api/meta.js";
import { isObject } from "../api/types.js";
import { goQuantity, quantityString } from "./go-quantity.js";

/**
 * A catalog's definitions at hand (every request walks a few: keep them rather than look them up
 * in the catalog's files), and which of them can hold a quantity; one per catalog, so per minor.
 */
class Definitions {
  readonly #defs = new Map<string, TypeDefinition | undefined>();
  /** Whether a value of the definition can hold a resource.Quantity anywhere below it. */
  readonly canonicalBearing = new Map<string, boolean>();
  constructor(private readonly catalog: Catalog) {}
  get(name: string): TypeDefinition | undefined {
    if (!this.#defs.has(name)) this.#defs.set(name, this.catalog.definition(name));
    return this.#defs.get(name);
  }
}

const perCatalog = new WeakMap<Catalog, Definitions>();
function definitionsOf(catalog: Catalog): Definitions {
  let defs = perCatalog.get(catalog);
  if (!defs) {
    defs = new Definitions(catalog);
    perCatalog.set(catalog, defs);
  }
  return defs;
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

const mismatch = (v: unknown, type: string, struct: string, field: string) =>
  `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type ${type}`;

/**
 * Go's decoder keeps the first type mismatch of a plain field and reads on (the error is
 * returned at the end), but a type that decodes itself (`UnmarshalJSON`) ends decoding at once
 * with its error, the enclosing field named when it is a type mismatch. So a walk keeps the first
 * mismatch and stops at the first self-decoding failure, which wins.
 */
class Walk {
  saved: string | undefined;
  fatal: string | undefined;
  constructor(readonly defs: Definitions) {}
  save(e: string) {
    this.saved ??= e;
  }
}

const QUANTITY_DEF = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const TIME_DEF = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
const MICRO_TIME_DEF = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
// The server writes ObjectMeta's times itself: a body's are not walked.
const OBJECT_META_DEF = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

const BASE64 = /[A-Za-z0-9+/]/;

/**
 * Where Go's base64.StdEncoding.Decode finds `text` corrupt (its CorruptInputError offset), or
 * undefined when it decodes: line breaks are skipped, `=` pads the last quantum only, and an
 * unfinished quantum fails where the text ends less its length (src/encoding/base64/base64.go,
 * decodeQuantum).
 */
export function base64ErrorOffset(text: string): number | undefined {
  let j = 0; // characters of the current quantum read
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n" || c === "\r") continue;
    if (BASE64.test(c)) {
      j = (j + 1) % 4;
      continue;
    }
    if (c !== "=" || j < 2) return i;
    // Padding: one more `=` after two characters, then nothing but line breaks.
    let k = i + 1;
    const skip = () => {
      while (k < text.length && (text[k] === "\n" || text[k] === "\r")) k++;
    };
    if (j === 2) {
      skip();
      if (k === text.length) return k;
      if (text[k] !== "=") return k - 1;
      k++;
    }
    skip();
    return k < text.length ? k : undefined;
  }
  return j === 0 ? undefined : text.length - j;
}

/** An int32 as Go's decoder reads a JSON number into one, or the number's mismatch text. */
function int32Mismatch(v: number): string | undefined {
  return Number.isInteger(v) && v < 2 ** 31 && v >= -(2 ** 31) ? undefined : `number ${v}`;
}

/**
 * The error of a type that decodes itself, as its UnmarshalJSON reports it; the catalog names
 * the type (resource.Quantity) or its format (int-or-string, date-time) says which it is.
 */
function selfDecodingError(
  ref: string,
  target: TypeDefinition,
  v: unknown,
  struct: string,
  field: string,
): string | undefined {
  if (ref === QUANTITY_DEF) {
    // Quoted or not, the text is parsed (`5`, `"500m"`); anything else is no quantity.
    const text = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "";
    return typeof v === "object" || typeof v === "boolean" || !parseQuantity(text)
      ? QUANTITY_FORMAT_ERROR
      : undefined;
  }
  if (target.format === "int-or-string") {
    // A string is the string form; anything else is read into the int32.
    if (typeof v === "string") return undefined;
    const what = typeof v === "number" ? int32Mismatch(v) : jsonKind(v);
    return what === undefined
      ? undefined
      : `json: cannot unmarshal ${what} into Go struct field ${struct}.${field} of type int32`;
  }
  if (target.format === "date-time" && typeof v !== "string")
    return mismatch(v, "string", struct, field);
  return undefined;
}

function checkValue(
  walk: Walk,
  node: DefinitionNode,
  v: unknown,
  struct: string,
  field: string,
): void {
  if (v === null || v === undefined || walk.fatal) return;
  if (node.$ref) {
    const target = walk.defs.get(node.$ref);
    if (!target) return;
    if (!target.properties) {
      // Types with their own JSON form: RawExtension and JSON take anything.
      walk.fatal = selfDecodingError(node.$ref, target, v, struct, field);
      return;
    }
    if (!isObject(v)) walk.save(mismatch(v, goType(node), struct, field));
    else checkStruct(walk, node.$ref, v, field);
    return;
  }
  switch (node.type) {
    case "integer": {
      if (typeof v !== "number") {
        walk.save(mismatch(v, goType(node), struct, field));
        return;
      }
      const bits = node.format === "int32" ? 31 : 63;
      if (!Number.isInteger(v) || v >= 2 ** bits || v < -(2 ** bits))
        walk.save(
          `json: cannot unmarshal number ${v} into Go struct field ${struct}.${field} of type ${goType(node)}`,
        );
      return;
    }
    case "number":
      if (typeof v !== "number") walk.save(mismatch(v, goType(node), struct, field));
      return;
    case "boolean":
      if (typeof v !== "boolean") walk.save(mismatch(v, goType(node), struct, field));
      return;
    case "string":
      if (typeof v !== "string") walk.save(mismatch(v, goType(node), struct, field));
      else if (node.format === "byte") {
        // A []byte is base64 text, read by base64.StdEncoding (Secret and ConfigMap data).
        const at = base64ErrorOffset(v);
        if (at !== undefined) walk.save(`illegal base64 data at input byte ${at}`);
      }
      return;
    case "array": {
      if (!Array.isArray(v)) {
        walk.save(mismatch(v, goType(node), struct, field));
        return;
      }
      if (node.items) for (const item of v) checkValue(walk, node.items, item, struct, field);
      return;
    }
    case "object": {
      if (!isObject(v)) {
        walk.save(mismatch(v, goType(node), struct, field));
        return;
      }
      if (typeof node.additionalProperties !== "object") return;
      for (const item of Object.values(v))
        checkValue(walk, node.additionalProperties, item, struct, field);
      return;
    }
  }
}

function checkStruct(walk: Walk, defName: string, obj: Record<string, unknown>, path: string) {
  const def = walk.defs.get(defName);
  if (!def?.properties) return;
  const struct = defName.slice(defName.lastIndexOf(".") + 1);
  for (const key in obj) {
    const prop = def.properties[key];
    if (prop) checkValue(walk, prop, obj[key], struct, path ? `${path}.${key}` : key);
    if (walk.fatal) return;
  }
}

/** The type error of a built-in object against its definition, as Go's decoder words it. */
export function builtinTypeError(
  catalog: Catalog,
  defName: string,
  obj: Record<string, unknown>,
): string | undefined {
  const walk = new Walk(definitionsOf(catalog));
  checkStruct(walk, defName, obj, "");
  return walk.fatal ?? walk.saved;
}

/** A value of a field typed by `node`, with its quantities canonical (in place where it can). */
function canonical(defs: Definitions, node: DefinitionNode, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (node.$ref === QUANTITY_DEF) {
    const g = goQuantity(v);
    return g ? quantityString(g) : v;
  }
  // metav1.Time marshals whole seconds in UTC, MicroTime six fractional digits
  // (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go, micro_time.go).
  if (node.$ref === TIME_DEF) return normalizeTime(v);
  if (node.$ref === MICRO_TIME_DEF) return normalizeMicroTime(v);
  if (node.$ref) {
    if (isObject(v)) canonicalStruct(defs, node.$ref, v);
    return v;
  }
  if (node.type === "array" && node.items && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = canonical(defs, node.items, v[i]);
  } else if (
    node.type === "object" &&
    typeof node.additionalProperties === "object" &&
    isObject(v)
  ) {
    for (const k in v) v[k] = canonical(defs, node.additionalProperties, v[k]);
  }
  return v;
}

/** Whether a value of the definition can hold a Quantity, Time or MicroTime below its metadata. */
function holdsCanonical(defs: Definitions, defName: string): boolean {
  let holds = defs.canonicalBearing.get(defName);
  if (holds !== undefined) return holds;
  // Reachability over the definitions' references (recursive types such as JSONSchemaProps
  // included); only the asked definition's answer is kept.
  const seen = new Set<string>();
  const reaches = (n: DefinitionNode | boolean | undefined): boolean => {
    if (typeof n !== "object") return false;
    if (n.$ref === QUANTITY_DEF || n.$ref === TIME_DEF || n.$ref === MICRO_TIME_DEF) return true;
    if (n.$ref === OBJECT_META_DEF) return false;
    if (n.$ref !== undefined) {
      if (seen.has(n.$ref)) return false;
      seen.add(n.$ref);
      if (reaches(defs.get(n.$ref))) return true;
    }
    return (
      reaches(n.items) ||
      reaches(n.additionalProperties) ||
      Object.values(n.properties ?? {}).some(reaches)
    );
  };
  holds = reaches({ $ref: defName });
  defs.canonicalBearing.set(defName, holds);
  return holds;
}

function canonicalStruct(defs: Definitions, defName: string, obj: Record<string, unknown>): void {
  // Most kinds (ConfigMaps, Secrets, Services, ...) hold none: their bodies are not walked.
  if (!holdsCanonical(defs, defName)) return;
  const def = defs.get(defName);
  if (!def?.properties) return;
  for (const key in obj) {
    const prop = def.properties[key];
    if (prop) obj[key] = canonical(defs, prop, obj[key]);
  }
}

/**
 * Rewrites a decoded built-in's quantities and times as kube-apiserver serves them back: the
 * decoded resource.Quantity marshals its canonical String() (`1000m` is `"1"`, `0.5` is
 * `"500m"`, `2048Mi` is `"2Gi"`, numbers become strings), a metav1.Time whole seconds
 * (`00:00:00.5Z` is `00:00:00Z`), a MicroTime six fractional digits.
 */
export function canonicalizeValues(
  catalog: Catalog,
  defName: string,
  obj: Record<string, unknown>,
): void {
  canonicalStruct(definitionsOf(catalog), defName, obj);
}
