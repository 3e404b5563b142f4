/** `@opgen/apimachinery/schema`: the apiextensions v1 schema types and structural helpers. */
export type { ExternalDocumentation, JSONSchemaProps, JSONValue, ValidationRule } from "./types.js";
