/**
 * Expands a built-in definition into the inline structural schema a CRD carries for an embedded
 * Kubernetes type: `$ref`s inlined, the apimachinery scalar types written as controller-gen writes
 * them (IntOrString, Quantity, Time), list/map semantics and defaults kept, patch strategies and
 * kind metadata (which CRD schemas may not carry) dropped.
 */
import { deepClone } from "../schema/json.js";
import type { JSONSchemaProps } from "../schema/types.js";
import type { DefinitionNode, TypeDefinition } from "./definitions.js";

/** The part of a catalog the expansion reads. */
export interface DefinitionSource {
  readonly minor: string;
  definition(name: string): TypeDefinition | undefined;
  description(name: string, property?: string): string | undefined;
}

const META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const intOrString = (): JSONSchemaProps => ({
  anyOf: [{ type: "integer" }, { type: "string" }],
  "x-kubernetes-int-or-string": true,
});

/** Types with a fixed schema in CRDs (controller-gen's known types), by definition name. */
const KNOWN: Record<string, () => JSONSchemaProps> = {
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": intOrString,
  "io.k8s.apimachinery.pkg.api.resource.Quantity": () => ({
    ...intOrString(),
    pattern:
      "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
  }),
  [`${META}Time`]: () => ({ type: "string", format: "date-time" }),
  [`${META}MicroTime`]: () => ({ type: "string", format: "date-time" }),
  [`${META}Duration`]: () => ({ type: "string" }),
  "io.k8s.apimachinery.pkg.runtime.RawExtension": () => ({
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  }),
  "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON": () => ({
    "x-kubernetes-preserve-unknown-fields": true,
  }),
};

const CARRIED = [
  "type",
  "format",
  "enum",
  "default",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  "x-kubernetes-int-or-string",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
] as const;

export interface ExpandOptions {
  /** Carry the Kubernetes descriptions (as the OpenAPI document words them). Default false. */
  descriptions?: boolean;
  /**
   * Definitions written as the given schema instead of expanded (e.g. an embedded ObjectMeta as
   * `type: object`, as controller-gen writes it). Each use gets its own copy.
   */
  replace?: Readonly<Record<string, JSONSchemaProps>>;
  /**
   * Write what controller-gen writes for the Go types rather than what the API server knows:
   * no default from a `+default=ref(...)` marker, and the map type of a type embedded inline
   * (LocalObjectReference's `atomic`) on the type that embeds it.
   */
  controllerGen?: boolean;
}

/** The inline structural schema of a definition; throws for a name the catalog lacks. */
export function expandDefinition(
  source: DefinitionSource,
  name: string,
  opts: ExpandOptions = {},
): JSONSchemaProps {
  return expandRef(name, [], { ...opts, source });
}

interface Expansion extends ExpandOptions {
  source: DefinitionSource;
}

function expandRef(name: string, stack: string[], opts: Expansion): JSONSchemaProps {
  const replaced = opts.replace?.[name];
  if (replaced) return deepClone(replaced);
  const known = KNOWN[name];
  if (known) return known();
  // A type that contains itself cannot be inlined; kube's own schemas do the same.
  if (stack.includes(name)) return { type: "object", "x-kubernetes-preserve-unknown-fields": true };
  const def = opts.source.definition(name);
  if (!def)
    throw new Error(
      `@opgen/apimachinery: no definition ${name} in the Kubernetes ${opts.source.minor} catalog`,
    );
  const out = expandNode(def, [...stack, name], opts, name);
  if (opts.descriptions) {
    const text = opts.source.description(name);
    if (text) out.description = text;
  }
  return out;
}

function expandNode(
  node: DefinitionNode,
  stack: string[],
  opts: Expansion,
  owner?: string,
): JSONSchemaProps {
  let out: JSONSchemaProps = {};
  if (node.$ref) out = expandRef(node.$ref, stack, opts);
  for (const key of CARRIED) {
    const value = node[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  if (opts.controllerGen) {
    if (node["x-opgen-default-ref"]) delete out.default;
    const inlineMapType = node["x-opgen-inline-map-type"];
    if (inlineMapType && !out["x-kubernetes-map-type"])
      out["x-kubernetes-map-type"] = inlineMapType;
  }
  if (node.required && node.required.length > 0) out.required = [...node.required];
  if (node.items) out.items = expandNode(node.items, stack, opts);
  if (node.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof node.additionalProperties === "boolean"
        ? node.additionalProperties
        : expandNode(node.additionalProperties, stack, opts);
  }
  if (node.properties) {
    out.properties = {};
    for (const [prop, child] of Object.entries(node.properties)) {
      const schema = expandNode(child, stack, opts);
      if (opts.descriptions && owner) {
        const text = opts.source.description(owner, prop);
        // The field's own words win; without them the type's description stands, as when
        // controller-gen flattens a reference.
        if (text) schema.description = text;
      }
      out.properties[prop] = schema;
    }
  }
  return out;
}
