/**
 * The apiextensions.k8s.io/v1 schema types (`JSONSchemaProps` and its CEL `ValidationRule`), as
 * plain JSON-able objects keyed as they appear in YAML: the one definition the CLI writes CRDs
 * with and envtest validates, prunes and defaults against.
 */

/** A JSON value: what `default`, `example` and `enum` entries may hold. */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONValue[]
  | { [key: string]: JSONValue };

/** An `x-kubernetes-validations` entry: a CEL rule and how its failure is reported. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?:
    | "FieldValueInvalid"
    | "FieldValueForbidden"
    | "FieldValueRequired"
    | "FieldValueDuplicate"
    | (string & {});
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface ExternalDocumentation {
  url?: string;
  description?: string;
}

/** apiextensions.k8s.io/v1 JSONSchemaProps, the subset a structural CRD schema may use. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  default?: JSONValue;
  example?: JSONValue;
  enum?: JSONValue[];
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  nullable?: boolean;
  items?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  patternProperties?: Record<string, JSONSchemaProps>;
  required?: string[];
  additionalProperties?: JSONSchemaProps | boolean;
  additionalItems?: JSONSchemaProps | boolean;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  definitions?: Record<string, JSONSchemaProps>;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  externalDocs?: ExternalDocumentation;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map" | (string & {});
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular" | (string & {});
  "x-kubernetes-validations"?: ValidationRule[];
}
