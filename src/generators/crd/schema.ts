/**
 * The OpenAPI v3 schema subset a CRD uses (apiextensions.k8s.io/v1 JSONSchemaProps), as plain
 * JSON-able objects. Keys are named as they appear in YAML so a schema can be written as is; the
 * YAML writer sorts keys, so the order properties are set in does not matter.
 */
import type { MarkerValue } from "../../markers/types.js";

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  default?: MarkerValue;
  example?: MarkerValue;
  enum?: MarkerValue[];
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
  required?: string[];
  additionalProperties?: JSONSchemaProps | boolean;
  anyOf?: JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  externalDocs?: { url?: string; description?: string };
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: ValidationRule[];
}
