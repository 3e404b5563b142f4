/**
 * `@opgen/apimachinery/merge`: strategic merge patch and the list semantics of server-side apply,
 * driven by the catalog (built-ins) or a CRD schema through one navigator.
 */

export { itemKey, type ListShape, listShape } from "./list-shape.js";
export {
  catalogNode,
  type DefinitionLookup,
  listMapKey,
  type MergeNode,
  schemaNode,
} from "./navigator.js";
export * as ssa from "./ssa/index.js";
export { applyStrategicMergePatch } from "./strategic.js";
