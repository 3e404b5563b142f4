/**
 * The CEL half of CRD validation: x-kubernetes-validations compiled typed against their schema
 * node, and their estimated cost, as kube-apiserver checks them on CRD create and update.
 */
import { crdRuleCostErrors } from "../cel/crd-cost.js";
import { compileRule } from "../cel/program.js";
import type { RuleChecks } from "./types.js";

export const celRuleChecks: RuleChecks = { compile: compileRule, costErrors: crdRuleCostErrors };
