/**
 * The apiextensions.k8s.io/v1 CustomResourceDefinition as the validator reads it: what the CLI
 * assembles and what envtest stores. Fields are optional where a client may leave them out, so a
 * malformed body is reported field by field rather than refused by its type.
 */
import type { crdRuleCostErrors } from "../cel/crd-cost.js";
import type { compileRule } from "../cel/program.js";
import type { JsonObject } from "../schema/json.js";
import type { JSONSchemaProps } from "../schema/types.js";

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

/** A printer column (`CustomResourceColumnDefinition`). */
export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: {
    status?: JsonObject;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: { jsonPath: string }[];
}

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; [key: string]: unknown };
  spec: {
    group: string;
    names: CustomResourceDefinitionNames;
    scope: string;
    versions: CustomResourceDefinitionVersion[];
    conversion?: JsonObject;
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: JsonObject[];
    acceptedNames?: CustomResourceDefinitionNames;
    storedVersions?: string[];
  };
}

/**
 * The CEL half of CRD validation (rules.ts): compiling x-kubernetes-validations typed against
 * their node, and their estimated cost. Passed in, so a validator for CRDs without rules
 * (core.ts) does not load the CEL engine.
 */
export interface RuleChecks {
  compile: typeof compileRule;
  costErrors: typeof crdRuleCostErrors;
}
