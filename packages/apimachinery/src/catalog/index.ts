/**
 * `@opgen/apimachinery/catalog`: the built-in API of each Kubernetes minor opgen knows, as the
 * real API data describes it (generated from reference/kubernetes by `npm run catalog`): the
 * resources discovery serves, and each type's structural schema with list/map semantics, patch
 * strategies and defaults. `catalogFor(minor)` gives one minor's catalog; everything is read
 * lazily, per file, on first use. Which minor a program uses is its version profile's
 * (`@opgen/apimachinery/version`).
 */
export {
  Catalog,
  catalogFor,
  catalogMinors,
  type FeatureGateSpec,
  type ReleaseFacts,
} from "./catalog.js";
export { defaultCatalogMinor } from "./data.js";
export type { DefinitionNode, TypeDefinition } from "./definitions.js";
export type { ExpandOptions } from "./expand.js";
export type { ProtobufDescriptor } from "./protobuf.js";
export type {
  ResourceDescriptor,
  ResourceQuery,
  SubresourceDescriptor,
} from "./resources.js";
