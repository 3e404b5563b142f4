/**
 * The pieces of the static CEL cost estimate (estimate.ts) its parts share: cost and size
 * ranges with cel-go's saturating arithmetic, the cost constants, the AST node shape cel-js
 * produces, and the tables of functions and types the estimator treats specially.
 */
/** A [min, max] range of cost units or of sizes. */
export interface Range {
  min: number;
  max: number;
}

export interface CostEstimate extends Range {
  exact: boolean;
  /** Why the estimate is not exact (the first construct met), for diagnostics. */
  inexact?: string;
}

export const U64 = 2 ** 64;
export const UNKNOWN: Range = { min: 0, max: U64 };
export const fixed = (n: number): Range => ({ min: n, max: n });
export const sat = (n: number) => Math.min(n, U64);
export const add = (a: Range, b: Range): Range => ({
  min: sat(a.min + b.min),
  max: sat(a.max + b.max),
});
export const mul = (a: Range, b: Range): Range => ({
  min: sat(a.min * b.min),
  max: sat(a.max * b.max),
});
export const union = (a: Range, b: Range): Range => ({
  min: Math.min(a.min, b.min),
  max: Math.max(a.max, b.max),
});
/** cel-go's MultiplyByCostFactor: the product rounded up. */
export const factor = (a: Range, f: number): Range => ({
  min: sat(Math.ceil(a.min * f)),
  max: sat(Math.ceil(a.max * f)),
});

// cel-go's common cost constants.
export const STRING_TRAVERSAL = 0.1;
export const REGEX_LENGTH = 0.25;
export const LIST_CREATE = 10;
export const MAP_CREATE = 30;

export interface Node {
  op: string;
  args: unknown;
  checkedType?: { name: string; kind: string; valueType?: { name: string; kind: string } };
  meta?: { alternate?: Node; macro?: unknown };
}

export const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).op === "string";

/** `-1`, `-1.5`: one literal to cel-go. */
export const negativeLiteral = (n: Node): boolean =>
  n.op === "-_" &&
  isNode(n.args) &&
  n.args.op === "value" &&
  (typeof n.args.args === "number" || typeof n.args.args === "bigint");

/** Types a field cannot be selected from; anything else that is not a list is a map or object. */
export const PRIMITIVES = new Set(["string", "bytes", "null", "type"]);

export const SCALARS = new Set([
  "bool",
  "int",
  "uint",
  "double",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
]);

/**
 * Functions whose estimate is not ported, or differs between the cel-go and Kubernetes releases
 * this port could read: `reverse` (not in kube 1.32's strings version) and the named-format
 * library (its `validate` cost was added later).
 */
export const NOT_PORTED = new Set(["reverse", "validate", "named", "format.named"]);

/**
 * The namespaces of functions cel-go declares as one global name (`sets.contains`,
 * `ip.isCanonical`, `strings.quote`): cel-js reads them as a method of a namespace constant.
 */
export const NAMESPACES = new Set(["sets", "ip", "strings", "format", "optional"]);

/**
 * The optional-value functions cel-js implements as macros; to cel-go 0.22 they are functions
 * like any other (1 plus the target and arguments: neither estimator knows them).
 */
export const OPTIONAL_FUNCTIONS = new Set(["orValue", "or", "hasValue", "value"]);

/**
 * Kubernetes' library types. Their equality is costed by the operands' sizes in the cel-go
 * release kube 1.30 read (unknown here: a huge estimate) and as 1 once Kubernetes' estimator
 * learned `_==_` for them; which of the two 1.32 runs is not confirmed, so no decision.
 */
export const LIBRARY_TYPES = new Set([
  "net.IP",
  "net.CIDR",
  "kubernetes.URL",
  "kubernetes.Quantity",
  "kubernetes.NamedFormat",
]);

/** The type names a rule may use as values (`type(self.x) == string`). */
export const TYPE_IDENTS = new Set([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "list",
  "map",
  "null_type",
  "type",
]);

/** cel-go's sets extension: its per-overload estimators' factor on the product of the sizes. */
export const SETS = new Map([
  ["sets.contains", 1],
  ["sets.intersects", 1],
  ["sets.equivalent", 2],
]);

/** Kubernetes' library functions costed by the size of a list receiver or a string one. */
export const TRAVERSALS = new Set(["isSorted", "sum", "max", "min", "indexOf", "lastIndexOf"]);

/** The size of `s.replace(from, to)` (Kubernetes' estimate: most and fewest replacements). */
export function replacedSize(sz: Range, from: Range, to: Range): Range {
  const count = { min: 0, max: 0 };
  const retained = { min: 0, max: 0 };
  if (from.min === 0) {
    // Replacing "" surrounds every character.
    count.max = sz.max < U64 ? sz.max + 1 : sz.max;
    retained.max = sz.max;
  } else if (to.max <= from.min) {
    retained.max = sz.max;
  } else {
    count.max = Math.ceil(sz.max / from.min);
  }
  if (from.max === 0) {
    count.min = sz.min < U64 ? sz.min + 1 : sz.min;
    retained.min = sz.min;
  } else if (from.max <= to.min) {
    retained.min = sz.min;
  } else {
    count.min = Math.ceil(sz.min / from.max);
  }
  return add(mul(count, to), retained);
}
