/**
 * `@opgen/apimachinery/apiextensions`: the one CRD validator, what kube-apiserver 1.32 checks when
 * a CustomResourceDefinition is created or updated (names, versions, structural schemas and their
 * defaults, typed CEL compilation of x-kubernetes-validations with the cost estimate, printer
 * columns, scale paths, conversion), and the defaults it applies first. `opgen manifests` and
 * envtest both call it. Needs the optional CEL peer dependencies (@marcbachmann/cel-js, re2js);
 * `./core` is the same validator for CRDs without rules, without the CEL engine.
 */
import type { FieldError } from "../status/index.js";
import { celRuleChecks } from "./rules.js";
import type { CustomResourceDefinition } from "./types.js";
import { crdValidationErrors } from "./validation.js";

// The defaults and types are core's: one export list for both entry points.
export {
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionVersion,
  defaultCustomResourceDefinition,
} from "./core.js";

/**
 * The errors kube-apiserver answers a CRD create (no `old`) or update with (`old` the stored
 * CRD), as a 422's causes. Default the CRD first (defaultCustomResourceDefinition), as the
 * server does.
 */
export function validateCustomResourceDefinition(
  crd: CustomResourceDefinition,
  old?: CustomResourceDefinition,
): FieldError[] {
  return crdValidationErrors(crd, old, celRuleChecks);
}
