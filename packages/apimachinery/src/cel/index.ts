/**
 * `@opgen/apimachinery/cel`: CEL as kube-apiserver 1.32 runs CRD validation rules: the
 * Kubernetes environment and libraries, compile errors in cel-go's form, `matches` with RE2 and
 * a metered evaluation, so the generator refuses at the marker a rule the cluster would refuse
 * and envtest enforces what the cluster enforces. @marcbachmann/cel-js and re2js are optional
 * peer dependencies: the CLI and envtest install them, an operator does not carry them.
 */
export { CelCostLimitError } from "./cost.js";
export {
  type CostCheckOptions,
  type CostError,
  costErrorMessage,
  crdRuleCostErrors,
  expressionCost,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
} from "./crd-cost.js";
export type { CostEstimate } from "./estimate.js";
export {
  type AuthzCheck,
  type AuthzFunction,
  type AuthzUser,
  CelAuthorizer,
  ResourceCheck,
} from "./library/authz.js";
export {
  CelCompileError,
  type CelProgram,
  celEvalMessage,
  celValue,
  compileCel,
  compileCelTyped,
  compileCelWith,
  compileRule,
  estimateCost,
  evaluateCel,
  type RuleScope,
  type TypedVariable,
} from "./program.js";
export {
  MAX_REQUEST_SIZE_BYTES,
  maxCardinality,
  type SizeDecl,
  sizeDecl,
} from "./size-estimate.js";

/** kube's per-expression runtime cost limit (`celconfig.PerCallLimit`). */
export const PER_CALL_COST_LIMIT = 1_000_000;
/** kube's runtime cost budget for all the rules of one object (`celconfig.RuntimeCELCostBudget`). */
export const RUNTIME_COST_BUDGET = 10_000_000;
