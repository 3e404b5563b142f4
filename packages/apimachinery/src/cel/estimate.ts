/**
 * The static cost estimate kube-apiserver 1.32 computes for a CRD rule (cel-go 0.22's
 * `checker.Cost` with Kubernetes' library estimator and the schema's size estimator), over the
 * AST cel-js parsed and type-checked: identifiers and field selections cost 1, literals 0, calls
 * 1 plus their arguments, string functions in proportion to the sizes involved (0.1 per
 * character, regular expressions 0.25 per pattern character), list and map literals 10 and 30,
 * and a macro (`all`, `exists`, `exists_one`, `map`, `filter`) the cost of its expansion's
 * step and condition times the size of what it iterates over (a schema field, a literal or a
 * computed list); `cel.bind` and optional access as cel-go 0.22 costs them (before its bind and
 * optional cost tracking). Sizes come from literals, from the schema (`SizeDecl`, by the field
 * path an expression reaches from `self`) or are unknown (up to 2^64). Kubernetes' IP/CIDR,
 * quantity and URL functions, cel-go's sets extension, `strings.quote` and `format` are costed
 * as their estimators do, checked against upstream's golden numbers (apiserver/pkg/cel/library
 * cost_test.go, cel-go checker/cost_test.go). Sources read: kube's library cost.go (1.30 and
 * later), cel-go's checker/cost.go before PR 1104 (the 0.17-0.22 line) and ext/sets.go; what
 * later releases changed is left undecided.
 *
 * `exact` is false when the expression uses something whose estimate this port cannot
 * reproduce with certainty (a dyn value where its type decides the cost, equality of
 * Kubernetes' library types, named formats, `optMap`/`optFlatMap`): callers then make no
 * decision on the estimate rather than refuse what the cluster might accept.
 */

import { type FunctionCostContext, functionCost } from "./estimate-functions.js";
import {
  add,
  type CostEstimate,
  factor,
  fixed,
  isNode,
  LIBRARY_TYPES,
  LIST_CREATE,
  MAP_CREATE,
  mul,
  NAMESPACES,
  NOT_PORTED,
  type Node,
  negativeLiteral,
  OPTIONAL_FUNCTIONS,
  PRIMITIVES,
  type Range,
  SCALARS,
  STRING_TRAVERSAL,
  sat,
  TYPE_IDENTS,
  UNKNOWN,
  union,
} from "./estimate-model.js";
import type { SizeDecl } from "./size-estimate.js";

export type { CostEstimate, Range } from "./estimate-model.js";

class Estimator implements FunctionCostContext {
  private readonly paths = new WeakMap<Node, string[]>();
  private readonly sizes = new WeakMap<Node, Range>();
  private readonly locals = new Map<string, string[][]>();
  /** Variables cel.bind() declares in scope (how many times each). */
  private readonly bound = new Map<string, number>();
  inexact: string | undefined;

  constructor(
    private readonly root: SizeDecl | undefined,
    private readonly matchesName: string,
  ) {}

  giveUp(why: string): void {
    this.inexact ??= why;
  }

  typeName(n: Node): string {
    const t = n.checkedType;
    if (!t) {
      this.giveUp("an unchecked node");
      return "dyn";
    }
    return t.name;
  }

  /**
   * The kind of a node's type where the estimate depends on it. A dyn here is a value kube may
   * type otherwise (an object that preserves unknown fields), so the estimate is not exact.
   */
  kind(n: Node): string {
    const name = this.typeName(n);
    if (name === "dyn") this.giveUp("a dyn value");
    if (name.startsWith("list<")) return "list";
    if (name.startsWith("map<")) return "map";
    if (name.startsWith("optional<")) return "optional";
    return name;
  }

  /** cel-go's isScalar: an optional is an opaque type, not a scalar. */
  private isScalar(n: Node): boolean {
    return SCALARS.has(this.typeName(n));
  }

  path(n: Node): string[] | undefined {
    if (n.op === "id") {
      const stack = this.locals.get(n.args as string);
      if (stack && stack.length > 0) return stack[stack.length - 1];
    }
    return this.paths.get(n);
  }

  /** The schema's size for a field path from `self` (the size estimator kube plugs in). */
  schemaSize(path: string[] | undefined): Range | undefined {
    if (!path || path.length === 0 || !this.root) return undefined;
    let d: SizeDecl | undefined = this.root;
    for (const seg of path.slice(1)) {
      if (!d) return undefined;
      if (seg === "@items" || seg === "@values") d = d.elem;
      else if (seg === "@keys") d = d.key;
      else d = d.fields?.get(seg);
    }
    return d ? { min: 0, max: d.maxElements } : undefined;
  }

  private literalSize(n: Node): Range | undefined {
    if (n.op === "value") {
      const v = n.args;
      if (typeof v === "string") return fixed([...v].length);
      if (v instanceof Uint8Array) return fixed(v.length);
      if (v === null || ["boolean", "number", "bigint"].includes(typeof v)) return fixed(1);
      if (typeof v === "object") return fixed(1); // uint, double wrappers
      return undefined;
    }
    if (negativeLiteral(n)) return fixed(1);
    if (n.op === "list") return fixed((n.args as unknown[]).length);
    if (n.op === "map") return fixed((n.args as unknown[]).length);
    return undefined;
  }

  /** cel-go's computeSize: computed, literal, schema, scalar; undefined when unknown. */
  private computeSize(n: Node): Range | undefined {
    const size =
      this.sizes.get(n) ??
      this.literalSize(n) ??
      this.schemaSize(this.path(n)) ??
      (this.isScalar(n) ? fixed(1) : undefined);
    // Unsized and dyn here (oldSelf.value() of an optional oldSelf, dyn()): kube's type may be
    // a scalar, sized 1.
    if (size === undefined && this.typeName(n) === "dyn") this.giveUp("the size of a dyn value");
    return size;
  }

  size(n: Node): Range {
    return this.computeSize(n) ?? UNKNOWN;
  }

  /** Kubernetes' library sizeEstimate: computed, literal or schema size, else unknown. */
  libSize(n: Node): Range {
    return this.sizes.get(n) ?? this.literalSize(n) ?? this.schemaSize(this.path(n)) ?? UNKNOWN;
  }

  cost(n: Node): Range {
    switch (n.op) {
      case "value":
        return fixed(0);
      case "id": {
        const name = n.args as string;
        const local = this.locals.get(name);
        if (!local?.length) {
          if (
            name !== "self" &&
            name !== "oldSelf" &&
            !TYPE_IDENTS.has(name) &&
            !this.bound.get(name)
          ) {
            this.giveUp(`the identifier ${name}`);
          }
          // cel-go gives every other identifier the path [name], type names included.
          this.paths.set(n, [name]);
        }
        return fixed(1);
      }
      case ".": {
        const [operand, field] = n.args as [Node, string];
        let sum = this.cost(operand);
        const k = this.kind(operand);
        const struct =
          !SCALARS.has(k) && !PRIMITIVES.has(k) && k !== "list" && k !== "optional" && k !== "dyn";
        // Selecting from a map or an object costs 1 more than its operand.
        if (k === "map" || struct) {
          sum = add(sum, fixed(1));
        }
        const p = this.path(operand);
        if (p) this.paths.set(n, [...p, field]);
        return sum;
      }
      case "[]": {
        const [obj, index] = n.args as [Node, Node];
        const args = add(this.cost(obj), this.cost(index));
        const k = this.kind(obj);
        const p = this.path(obj);
        if (k === "list") {
          if (p) this.paths.set(n, [...p, "@items"]);
        } else if (k === "map") {
          if (p) this.paths.set(n, [...p, "@values"]);
        } else {
          this.giveUp("indexing a non-container");
        }
        return add(fixed(1), args);
      }
      case ".?": {
        // `_?._`(operand, 'field'): a function of its operand and a literal, unknown to both
        // estimators in cel-go 0.22 (1 plus the operand); its result has no path.
        const [operand] = n.args as [Node, string];
        return add(fixed(1), this.cost(operand));
      }
      case "[?]": {
        const [obj, index] = n.args as [Node, Node];
        return add(fixed(1), add(this.cost(obj), this.cost(index)));
      }
      case "&&":
      case "||": {
        const [l, r] = n.args as [Node, Node];
        const lc = this.cost(l);
        const rc = this.cost(r);
        return { min: lc.min, max: sat(lc.max + rc.max) };
      }
      case "!_":
        return add(fixed(1), this.cost(n.args as Node));
      case "-_":
        // cel-go's parser folds a negated number into the literal.
        if (negativeLiteral(n)) return fixed(0);
        return add(fixed(1), this.cost(n.args as Node));
      case "?:": {
        const [c, t, f] = n.args as [Node, Node, Node];
        const cost = add(this.cost(c), union(this.cost(t), this.cost(f)));
        this.sizes.set(n, union(this.size(t), this.size(f)));
        return cost;
      }
      case "==":
      case "!=":
        return this.compare(n, true);
      case "<":
      case "<=":
      case ">":
      case ">=":
        return this.compare(n, false);
      case "in": {
        const [l, r] = n.args as [Node, Node];
        const args = add(this.cost(l), this.cost(r));
        const k = this.kind(r);
        if (k === "list") return add(factor(this.size(r), 1), args);
        return add(fixed(1), args);
      }
      case "+": {
        const [l, r] = n.args as [Node, Node];
        const args = add(this.cost(l), this.cost(r));
        const k = this.kind(l);
        if (k === "string" || k === "bytes" || k === "list") {
          const size = add(this.size(l), this.size(r));
          this.sizes.set(n, size);
          if (k === "list") return add(fixed(1), args);
          return add(factor(size, STRING_TRAVERSAL), args);
        }
        return add(fixed(1), args);
      }
      case "-":
      case "*":
      case "/":
      case "%": {
        const [l, r] = n.args as [Node, Node];
        return add(fixed(1), add(this.cost(l), this.cost(r)));
      }
      case "list": {
        let sum = fixed(LIST_CREATE);
        for (const e of n.args as Node[]) sum = add(sum, this.cost(e));
        return sum;
      }
      case "map": {
        let sum = fixed(MAP_CREATE);
        for (const [k, v] of n.args as [Node, Node][]) {
          sum = add(sum, add(this.cost(k), this.cost(v)));
        }
        return sum;
      }
      case "call":
      case "rcall":
        return this.call(n);
      default:
        this.giveUp(`the ${n.op} operator`);
        return fixed(0);
    }
  }

  /** Equality, and ordering of strings and bytes: the shorter operand's size, 0.1 per unit. */
  private compare(n: Node, equality: boolean): Range {
    const [l, r] = n.args as [Node, Node];
    const args = add(this.cost(l), this.cost(r));
    if (!equality) {
      const k = this.kind(l);
      if (k !== "string" && k !== "bytes") return add(fixed(1), args);
    } else if (LIBRARY_TYPES.has(this.typeName(l)) || LIBRARY_TYPES.has(this.typeName(r))) {
      this.giveUp(`equality of ${this.typeName(l)} values`);
    }
    const smallestMax = Math.min(this.size(l).max, this.size(r).max);
    return add(factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL), args);
  }

  private call(n: Node): Range {
    const rcall = n.op === "rcall";
    const a = n.args as unknown[];
    const name = a[0] === this.matchesName ? "matches" : (a[0] as string);
    const target = rcall ? (a[1] as Node) : undefined;
    const args = (rcall ? a[2] : a[1]) as Node[];
    if (n.meta?.alternate) return this.macro(n, name, target, args);
    if (name === "bind" && target?.op === "id" && target.args === "cel") return this.bind(n, args);
    if (n.meta?.macro && !OPTIONAL_FUNCTIONS.has(name)) {
      if (name !== "has") {
        this.giveUp(`the ${name} macro`);
        return fixed(0);
      }
      const sel = args[0] as Node;
      if (sel.op !== ".") this.giveUp("has() of an optional field");
      // A presence test costs its operand only: kube's environment turns cel-go's presence
      // test cost off (PresenceTestHasCost(false), kept from before cel-go 0.17.7).
      return this.cost((sel.args as [Node])[0]);
    }
    const ns = target?.op === "id" ? (target.args as string) : undefined;
    const nsType = ns === "optional" ? "OptionalNamespace" : ns;
    if (
      ns &&
      NAMESPACES.has(ns) &&
      !this.locals.get(ns)?.length &&
      this.typeName(target as Node) === nsType
    ) {
      // One global function to cel-go: no target, nothing to cost for the namespace.
      return this.call2(n, `${ns}.${name}`, undefined, args);
    }
    return this.call2(n, name, target, args);
  }

  private call2(n: Node, name: string, target: Node | undefined, args: Node[]): Range {
    if (NOT_PORTED.has(name)) this.giveUp(`${name}()`);
    const argCosts = args.map((x) => this.cost(x));
    let argSum = fixed(0);
    for (const c of argCosts) argSum = add(argSum, c);
    const targetCost = target ? this.cost(target) : fixed(0);
    const fn = functionCost(this, n, name, target, args);
    return add(targetCost, add(fn, argSum));
  }

  /** The size of a call's result, which later size estimates of the call use. */
  resultSize(n: Node, size: Range): void {
    this.sizes.set(n, size);
  }

  /**
   * cel.bind(v, init, result) as cel-go 0.22 costs it: a comprehension over an empty list (10)
   * whose accumulator is `v`: init + result. `v` is an identifier like any other to it (path
   * [v], which kube's size estimator resolves from the rule's root), and the bind is sized as
   * its empty range (0). Later releases track `v`'s own size instead.
   */
  private bind(node: Node, args: Node[]): Range {
    const [v, init, result] = args;
    if (v?.op !== "id" || !init || !result) {
      this.giveUp("the bind macro");
      return fixed(0);
    }
    const name = v.args as string;
    let cost = add(fixed(LIST_CREATE), this.cost(init));
    this.bound.set(name, (this.bound.get(name) ?? 0) + 1);
    cost = add(cost, this.cost(result));
    this.bound.set(name, (this.bound.get(name) ?? 1) - 1);
    this.sizes.set(node, fixed(0));
    return cost;
  }

  /**
   * cel-go's macro expansions: init + result + range size x (condition + step). As cel-go 0.22
   * (kube 1.32) does, whatever the range (a schema field, a literal, a computed list): the
   * iteration variable's path is the range's path (none for a computed range) plus `@items` or
   * `@keys`, and the macro's result is sized as its range, whichever macro it is (later
   * releases size `all` and `exists` by their literal accumulator).
   */
  private macro(node: Node, name: string, target: Node | undefined, args: Node[]): Range {
    const iterVar = args[0];
    if (!target || !iterVar || iterVar.op !== "id") {
      this.giveUp(`the ${name} macro`);
      return fixed(0);
    }
    const rangeCost = this.cost(target);
    const k = this.kind(target);
    const p = this.path(target);
    if (k !== "list" && k !== "map") this.giveUp(`${name}() over a ${k} value`);
    const rangeCnt = this.size(target);
    this.sizes.set(node, rangeCnt);
    const v = iterVar.args as string;
    const stack = this.locals.get(v) ?? [];
    stack.push([...(p ?? []), k === "map" ? "@keys" : "@items"]);
    this.locals.set(v, stack);
    const sub = args.slice(1).map((x) => this.cost(x));
    stack.pop();
    const [first = fixed(0), second = fixed(0)] = sub;
    let init: Range;
    let cond: Range;
    let step: Range;
    const result = fixed(1);
    switch (name) {
      case "all":
        // @not_strictly_false(@result); @result && p
        init = fixed(0);
        cond = fixed(2);
        step = { min: 1, max: sat(1 + first.max) };
        break;
      case "exists":
        // @not_strictly_false(!@result); @result || p
        init = fixed(0);
        cond = fixed(3);
        step = { min: 1, max: sat(1 + first.max) };
        break;
      case "exists_one":
        // p ? @result + 1 : @result; result @result == 1
        init = fixed(0);
        cond = fixed(0);
        step = add(first, union(fixed(2), fixed(1)));
        return add(add(add(rangeCost, init), fixed(2)), mul(rangeCnt, add(step, cond)));
      case "map":
        // @result + [t], or p ? @result + [t] : @result
        init = fixed(LIST_CREATE);
        cond = fixed(0);
        step =
          args.length === 3
            ? add(first, union(add(fixed(12), second), fixed(1)))
            : add(fixed(12), first);
        break;
      case "filter":
        // p ? @result + [x] : @result
        init = fixed(LIST_CREATE);
        cond = fixed(0);
        step = add(first, union(fixed(13), fixed(1)));
        break;
      default:
        this.giveUp(`the ${name} macro`);
        return fixed(0);
    }
    return add(add(add(rangeCost, init), result), mul(rangeCnt, add(step, cond)));
  }
}

/**
 * The estimated cost of a compiled expression (its cel-js AST after type checking) with `self`
 * (and `oldSelf`) sized by `root`. `matchesName` is the name the RE2 `matches` is bound under.
 */
export function estimateAst(
  ast: unknown,
  root: SizeDecl | undefined,
  matchesName: string,
): CostEstimate {
  if (!isNode(ast)) return { min: 0, max: 0, exact: false, inexact: "no AST" };
  const e = new Estimator(root, matchesName);
  const c = e.cost(ast);
  return e.inexact === undefined
    ? { ...c, exact: true }
    : { ...c, exact: false, inexact: e.inexact };
}
