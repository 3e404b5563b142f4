/**
 * `@opgen/apimachinery/validation`: custom resources validated as kube-apiserver validates them
 * (structural schema, then CEL rules): envtest's admission and `opgen manifests`' sample checks
 * share it, with ObjectMeta's rules. Needs the optional CEL peer dependencies (@marcbachmann/cel-js,
 * re2js).
 */
export { type CelOutcome, validateCel } from "./cel.js";
export {
  type CustomResourceProblems,
  customResourceBodyErrors,
  validateCustomResource,
} from "./custom-resource.js";
export {
  type NameRule,
  nameErrors,
  type ObjectMetaOptions,
  objectMetaErrors,
  TOTAL_ANNOTATION_SIZE_LIMIT,
} from "./object-meta.js";
