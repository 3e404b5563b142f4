/** `@opgen/apimachinery/schema`: the apiextensions v1 schema types and structural helpers. */

export { applyDefaults } from "./defaults.js";
export {
  completeExample,
  type ExampleProblem,
  exampleBody,
  exampleValue,
} from "./example.js";
export { patternExamples } from "./example-pattern.js";
export { deepClone, deepEqual, isObject, type JsonObject } from "./json.js";
export { dropNonNullableNulls, prune } from "./prune.js";
export type { ExternalDocumentation, JSONSchemaProps, JSONValue, ValidationRule } from "./types.js";
export { jsonTypeName, validateSchema } from "./validate.js";
