/**
 * `@opgen/apimachinery/apiextensions`: the one CRD validator, what kube-apiserver 1.32 checks when
 * a CustomResourceDefinition is created or updated (names, versions, structural schemas and their
 * defaults, typed CEL compilation of x-kubernetes-validations with the cost estimate, printer
 * columns, scale paths, conversion), and the defaults it applies first. `opgen manifests` and
 * envtest both call it. Needs the optional CEL peer dependencies (@marcbachmann/cel-js, re2js).
 */
export { defaultCustomResourceDefinition } from "./defaults.js";
export type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
} from "./types.js";
export { validateCustomResourceDefinition } from "./validation.js";
