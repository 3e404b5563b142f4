/**
 * What each function call costs in kube-apiserver 1.32's static estimate, besides its target and
 * arguments: cel-go's sets extension, Kubernetes' library estimator (strings, regex, lists, URLs,
 * IP/CIDR, quantity, format) and cel-go's own, in that order, as the estimator consults them.
 */
import {
  add,
  factor,
  fixed,
  mul,
  type Node,
  type Range,
  REGEX_LENGTH,
  replacedSize,
  SETS,
  STRING_TRAVERSAL,
  sat,
  TRAVERSALS,
  UNKNOWN,
} from "./estimate-model.js";

/** What the function costs need of the estimator walking the expression. */
export interface FunctionCostContext {
  kind(n: Node): string;
  typeName(n: Node): string;
  path(n: Node): string[] | undefined;
  schemaSize(path: string[] | undefined): Range | undefined;
  size(n: Node): Range;
  libSize(n: Node): Range;
  resultSize(n: Node, size: Range): void;
  giveUp(why: string): void;
}

/** What a call costs besides its target and arguments; sets its result size where known. */
export function functionCost(
  est: FunctionCostContext,
  n: Node,
  name: string,
  target: Node | undefined,
  args: Node[],
): Range {
  // cel-go's per-overload estimators come first (the sets extension: one comparison per pair
  // of elements, twice for equivalence), then Kubernetes' library estimator (by function
  // name), then cel-go's own.
  return (
    setsCost(est, name, args) ??
    traversalCost(est, name, target) ??
    kubeStringCost(est, n, name, target, args) ??
    kubeNetworkQuantityCost(est, name, target, args) ??
    celGoCost(est, n, name, target, args) ??
    fixed(1)
  );
}

/** The sets extension: one comparison per pair of elements (twice for equivalence). */
function setsCost(est: FunctionCostContext, name: string, args: Node[]): Range | undefined {
  const arg0 = args[0];
  const setsFactor = SETS.get(name);
  if (setsFactor !== undefined && arg0 && args[1]) {
    const pairs = mul(est.libSize(arg0), est.libSize(args[1]));
    return add(factor(pairs, setsFactor), fixed(1));
  }
  return undefined;
}

/** The list and string traversals of Kubernetes' library. */
function traversalCost(
  est: FunctionCostContext,
  name: string,
  target: Node | undefined,
): Range | undefined {
  if (target && TRAVERSALS.has(name)) {
    if (est.kind(target) === "list") {
      let el = fixed(1);
      const elemType = target.checkedType?.valueType?.name;
      if (elemType === "string" || elemType === "bytes") {
        const p = est.path(target);
        const elSize = (p && est.schemaSize([...p, "@items"])) ?? UNKNOWN;
        el = add(el, factor(elSize, STRING_TRAVERSAL));
      }
      const sz = est.libSize(target);
      return mul(sz, el);
    }
    return factor(est.libSize(target), STRING_TRAVERSAL);
  }
  return undefined;
}

/** Kubernetes' string, URL and regex library functions. */
function kubeStringCost(
  est: FunctionCostContext,
  n: Node,
  name: string,
  target: Node | undefined,
  args: Node[],
): Range | undefined {
  const arg0 = args[0];
  switch (name) {
    case "url":
      if (!target && args.length === 1 && arg0) {
        return factor(est.libSize(arg0), STRING_TRAVERSAL);
      }
      break;
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim":
      if (target) {
        const sz = est.libSize(target);
        est.resultSize(n, sz);
        return factor(sz, STRING_TRAVERSAL);
      }
      break;
    case "replace":
      if (target && arg0 && args[1]) {
        const sz = est.libSize(target);
        est.resultSize(n, replacedSize(sz, est.libSize(arg0), est.libSize(args[1])));
        return factor(sz, 2 * STRING_TRAVERSAL);
      }
      break;
    case "split":
      if (target) {
        const sz = est.libSize(target);
        // At most one item per character, or the literal limit given.
        let max = sz.max;
        const limit = args[1];
        if (limit?.op === "value") max = Number(limit.args);
        est.resultSize(n, { min: 0, max });
        return factor(sz, 2 * STRING_TRAVERSAL);
      }
      break;
    case "join":
      if (target) {
        const list = est.libSize(target);
        const p = est.path(target);
        const elem = (p && est.schemaSize([...p, "@items"])) ?? UNKNOWN;
        let sz = mul(list, elem);
        if (arg0) {
          const sep = est.libSize(arg0);
          sz = add(
            sz,
            mul(sep, {
              min: list.min > 0 ? list.min - 1 : 0,
              max: list.max > 0 ? list.max - 1 : 0,
            }),
          );
        }
        est.resultSize(n, sz);
        return factor(sz, STRING_TRAVERSAL);
      }
      break;
    case "find":
    case "findAll":
      if (target && arg0) {
        const sz = est.libSize(target);
        const str = factor(add(sz, fixed(1)), STRING_TRAVERSAL);
        const re = factor(est.libSize(arg0), REGEX_LENGTH);
        est.resultSize(n, { min: 0, max: sz.max });
        return mul(str, re);
      }
      break;
  }
  return undefined;
}

/** Kubernetes' IP, CIDR and quantity library functions. */
function kubeNetworkQuantityCost(
  est: FunctionCostContext,
  name: string,
  target: Node | undefined,
  args: Node[],
): Range | undefined {
  const arg0 = args[0];
  switch (name) {
    // Kubernetes' IP and CIDR library (apiserver/pkg/cel/library/cost.go): parsing is a
    // traversal of the string; containment compares 4- or 16-byte addresses (and parses a
    // string operand); accessors are nominal.
    case "ip":
      if (target) return fixed(1); // a CIDR's address
      if (arg0) return factor(est.libSize(arg0), STRING_TRAVERSAL);
      break;
    case "cidr":
    case "isIP":
    case "isCIDR":
    case "quantity":
    case "isQuantity":
      if (!target && arg0) return factor(est.libSize(arg0), STRING_TRAVERSAL);
      break;
    case "ip.isCanonical":
      if (arg0) return factor(est.libSize(arg0), 2 * STRING_TRAVERSAL);
      break;
    case "containsIP":
    case "containsCIDR":
      if (target && arg0) {
        const addr = { min: 4, max: 16 };
        let cost = factor(add(addr, addr), STRING_TRAVERSAL);
        if (name === "containsCIDR") {
          cost = add(add(cost, factor(addr, STRING_TRAVERSAL)), fixed(1));
        }
        if (est.typeName(arg0) === "string") {
          cost = add(cost, factor(est.libSize(arg0), STRING_TRAVERSAL));
        }
        return cost;
      }
      break;
    case "sign":
    case "asInteger":
    case "isInteger":
    case "asApproximateFloat":
    case "isGreaterThan":
    case "isLessThan":
    case "compareTo":
    case "add":
    case "sub":
    case "masked":
    case "prefixLength":
    case "family":
    case "isUnspecified":
    case "isLoopback":
    case "isLinkLocalMulticast":
    case "isLinkLocalUnicast":
      return fixed(1);
  }
  return undefined;
}

/** cel-go's own estimates. */
function celGoCost(
  est: FunctionCostContext,
  n: Node,
  name: string,
  target: Node | undefined,
  args: Node[],
): Range | undefined {
  const arg0 = args[0];
  switch (name) {
    case "matches":
      if (target && arg0) {
        const str = factor(add(est.size(target), fixed(1)), STRING_TRAVERSAL);
        const re = factor(est.size(arg0), REGEX_LENGTH);
        return mul(str, re);
      }
      break; // the global matches(s, re) overload has no estimate: O(1)
    case "contains":
      if (target && arg0 && est.kind(target) === "string") {
        return mul(
          factor(est.size(target), STRING_TRAVERSAL),
          factor(est.size(arg0), STRING_TRAVERSAL),
        );
      }
      break;
    case "startsWith":
    case "endsWith":
      if (target && arg0) return factor(est.size(arg0), STRING_TRAVERSAL);
      break;
    case "format":
      // A traversal of the format string; cel-go 0.22 gives the result no size (later
      // releases bound it).
      if (target && arg0 && est.kind(target) === "string") {
        return factor(est.size(target), STRING_TRAVERSAL);
      }
      break;
    case "strings.quote":
      if (arg0) {
        // Every character may be escaped, and the quotes are always added.
        const sz = est.size(arg0);
        est.resultSize(n, { min: sat(sz.min + 2), max: sat(sz.max * 2 + 2) });
        return factor(sz, STRING_TRAVERSAL);
      }
      break;
    case "bytes":
      if (!target && arg0 && est.kind(arg0) === "string") {
        const sz = est.size(arg0);
        est.resultSize(n, { min: sz.min, max: sat(sz.max * 4) });
        return factor(sz, STRING_TRAVERSAL);
      }
      break;
    case "string":
      if (!target && arg0 && est.kind(arg0) === "bytes") {
        const sz = est.size(arg0);
        est.resultSize(n, { min: Math.floor(sz.min / 4), max: sz.max });
        return factor(sz, STRING_TRAVERSAL);
      }
      break;
  }
  return undefined;
}
