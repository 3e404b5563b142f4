/**
 * @opgen/runtime: the reconcile runtime opgen operators run on (controller-runtime for TypeScript).
 * This module is the package's only public entry point.
 */
export { defineKind, type Kind, type KindSpec, kindKey, parseApiVersion } from "./api/kind.js";
export { kinds } from "./api/kinds.js";
export type {
  Condition,
  ConditionStatus,
  Duration,
  IntOrString,
  int32,
  int64,
  KubeObject,
  MicroTime,
  NamespacedName,
  ObjectMeta,
  Quantity,
  Time,
} from "./api/types.js";
