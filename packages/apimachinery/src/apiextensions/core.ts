/**
 * `@opgen/apimachinery/apiextensions/core`: the CRD validator without its CEL half, for CRDs
 * that carry no x-kubernetes-validations (it throws on one), so a caller that checks first (the
 * CLI, on every CRD it assembles) does not load the CEL engine for them. The same code as
 * `@opgen/apimachinery/apiextensions`, which passes the CEL checks.
 */
import type { FieldError } from "../status/index.js";
import type { CustomResourceDefinition } from "./types.js";
import { crdValidationErrors } from "./validation.js";

export { defaultCustomResourceDefinition } from "./defaults.js";
export type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
} from "./types.js";

/** validateCustomResourceDefinition of a CRD without x-kubernetes-validations. */
export function validateCustomResourceDefinition(
  crd: CustomResourceDefinition,
  old?: CustomResourceDefinition,
): FieldError[] {
  return crdValidationErrors(crd, old, undefined);
}
