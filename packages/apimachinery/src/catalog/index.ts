/**
 * `@opgen/apimachinery/catalog`: Kubernetes 1.32's built-in API as the real API data describes it
 * (generated from ../shared/reference/kubernetes by `npm run catalog`): the resources discovery
 * serves, and each type's structural schema with list/map semantics, patch strategies and
 * defaults. Everything is read lazily, per file, on first use.
 */
export {
  type DefinitionNode,
  definition,
  definitionName,
  description,
  type TypeDefinition,
} from "./definitions.js";
export { type ExpandOptions, expandSchema } from "./expand.js";
export { definitionOfModel, definitionPackages } from "./models.js";
export { type ProtobufDescriptor, protobufSchemas } from "./protobuf.js";
export {
  builtinResources,
  findResource,
  preferredVersion,
  type ResourceDescriptor,
  type SubresourceDescriptor,
} from "./resources.js";
