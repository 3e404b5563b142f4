/**
 * The cost limits kube-apiserver 1.32 puts on a CRD's `x-kubernetes-validations` when the CRD is
 * created or updated (apiextensions `validation.go`, `CELSchemaContext`): each rule's estimated
 * cost, times the number of times the rule can run per request (the product of `maxItems` and
 * `maxProperties` above it, or what fits in a request when one is missing), must stay within
 * 10,000,000, each messageExpression's within the same, and all of them together within
 * 100,000,000. Only exact estimates (see estimate.ts) decide: an expression whose estimate this
 * port cannot reproduce is neither refused nor counted, so no CRD the cluster accepts is refused.
 */
import type { JSONSchemaProps } from "../schema/types.js";
import type { CostEstimate } from "./estimate.js";
import { compileRule, estimateCost } from "./program.js";
import { maxCardinality, type SizeDecl, sizeDecl } from "./size-estimate.js";

/** kube's limit on one expression's estimated cost (`StaticEstimatedCostLimit`). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** kube's limit on the estimated cost of all of a CRD's rules (`StaticEstimatedCRDCostLimit`). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const U64 = 2 ** 64;

/** A cost refusal, as kube reports it: a Forbidden error at `field`. */
export interface CostError {
  field: string;
  detail: string;
  /** The rule's node and index when the error is about one expression (or its share of the total). */
  rule?: { schema: JSONSchemaProps; index: number; expression: "rule" | "messageExpression" };
}

/** Go's `%.<d>f`: the exact binary value rounded half to even. */
export function goFixed(x: number, digits: number): string {
  const [ip = "0", fp = ""] = x.toPrecision(100).split(".");
  const frac = fp.padEnd(digits + 1, "0");
  let keep = BigInt(ip + frac.slice(0, digits));
  const next = frac[digits] as string;
  const rest = frac.slice(digits + 1);
  if (next > "5" || (next === "5" && /[1-9]/.test(rest)) || (next === "5" && keep % 2n === 1n)) {
    keep += 1n;
  }
  const s = keep.toString().padStart(digits + 1, "0");
  return digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** kube's getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? "more than 100x" : f < 1.5 ? `${goFixed(f, 6)}x` : `${goFixed(f, 1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

const isSchema = (v: unknown): v is JSONSchemaProps =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const mulGuard = (base: number, cardinality: number) =>
  base === 0 ? 0 : Math.min(base * cardinality, U64);

/** How many elements a node multiplies its children by; undefined when unbounded. */
function maxElements(s: JSONSchemaProps): number | undefined {
  if (s.type === "object") {
    if (s.additionalProperties !== undefined) {
      return typeof s.maxProperties === "number" ? Math.max(0, s.maxProperties) : undefined;
    }
    return 1;
  }
  if (s.type === "array") {
    return typeof s.maxItems === "number" ? Math.max(0, s.maxItems) : undefined;
  }
  return 1;
}

/** The estimated cost of one rule or messageExpression on `schema`, or undefined if not exact. */
export function expressionCost(
  expr: string,
  schema: JSONSchemaProps,
  root: boolean,
  optionalOldSelf: boolean,
  decl: SizeDecl | undefined = sizeDecl(schema, root),
): CostEstimate | undefined {
  const program = compileRule(expr, { schema, root }, optionalOldSelf);
  if (program instanceof Error) return undefined;
  return estimateCost(program, decl);
}

export interface CostCheckOptions {
  /** On update of a version whose schema did not change, only the total is checked. */
  suppressPerExpression?: boolean;
}

/**
 * The cost errors kube reports for one version's `openAPIV3Schema` at `path`
 * (`spec.versions[i].schema.openAPIV3Schema`): per rule and messageExpression, then, when the
 * total is over its limit, the (up to four) biggest contributors and the total itself.
 */
export function crdRuleCostErrors(
  rootSchema: JSONSchemaProps,
  path: string,
  options: CostCheckOptions = {},
): CostError[] {
  const errs: CostError[] = [];
  let total = 0;
  let expensive: { field: string; cost: number; rule: CostError["rule"] }[] = [];
  const observe = (field: string, cost: number, rule: CostError["rule"]) => {
    total = Math.min(total + cost, U64);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    expensive.push({ field, cost, rule });
    expensive.sort((a, b) => b.cost - a.cost);
    expensive = expensive.slice(0, 4);
  };

  const visit = (s: JSONSchemaProps, at: string, card: number | undefined, root: boolean) => {
    // kube reports a node's children (additionalProperties, properties, items) before the node.
    const factor = maxElements(s);
    const childCard = card === undefined || factor === undefined ? undefined : card * factor;
    if (isSchema(s.additionalProperties)) {
      visit(s.additionalProperties, `${at}.additionalProperties`, childCard, false);
    }
    for (const [k, child] of Object.entries(s.properties ?? {})) {
      if (isSchema(child)) visit(child, `${at}.properties[${k}]`, childCard, false);
    }
    if (isSchema(s.items)) visit(s.items, `${at}.items`, childCard, false);
    const rules = s["x-kubernetes-validations"] ?? [];
    if (rules.length > 0) {
      const decl = sizeDecl(s, root || s["x-kubernetes-embedded-resource"] === true);
      const ruleCard = decl ? maxCardinality(decl.minSerializedSize) : 0;
      rules.forEach((r, i) => {
        const rulePath = `${at}.x-kubernetes-validations[${i}]`;
        if (!(r.rule ?? "").trim()) return;
        const optionalOldSelf = r.optionalOldSelf === true;
        const est = expressionCost(r.rule, s, root, optionalOldSelf, decl);
        if (!est?.exact) return;
        const cost = mulGuard(est.max, card ?? ruleCard);
        if (!options.suppressPerExpression && cost > STATIC_ESTIMATED_COST_LIMIT) {
          errs.push({
            field: `${rulePath}.rule`,
            detail: costErrorMessage("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT),
            rule: { schema: s, index: i, expression: "rule" },
          });
        }
        observe(`${rulePath}.rule`, cost, { schema: s, index: i, expression: "rule" });
        const messageExpression = (r.messageExpression ?? "").trim();
        if (!messageExpression) return;
        const msg = expressionCost(r.messageExpression as string, s, root, optionalOldSelf, decl);
        if (!msg?.exact) return;
        // kube does not multiply a messageExpression's cost by the cardinality.
        if (!options.suppressPerExpression && msg.max > STATIC_ESTIMATED_COST_LIMIT) {
          errs.push({
            field: `${rulePath}.messageExpression`,
            detail: costErrorMessage(
              "estimated messageExpression cost",
              msg.max,
              STATIC_ESTIMATED_COST_LIMIT,
            ),
            rule: { schema: s, index: i, expression: "messageExpression" },
          });
        }
        observe(`${rulePath}.messageExpression`, msg.max, {
          schema: s,
          index: i,
          expression: "messageExpression",
        });
      });
    }
  };
  visit(rootSchema, path, 1, true);

  if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of expensive) {
      errs.push({
        field: e.field,
        detail:
          "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
        ...(e.rule ? { rule: e.rule } : {}),
      });
    }
    errs.push({
      field: path,
      detail: costErrorMessage(
        "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
        total,
        STATIC_ESTIMATED_CRD_COST_LIMIT,
      ),
    });
  }
  return errs;
}
