/**
 * Kubernetes' CEL list library (`k8s.io/apiserver/pkg/cel/library/lists.go`): `isSorted`, `sum`,
 * `min`, `max`, `indexOf`, `lastIndexOf` on lists of comparable values.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { celEqual, celError, compareValues } from "./values.js";

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  let acc = list[0] as bigint | number;
  for (const v of list.slice(1)) {
    if (typeof acc === "bigint" && typeof v === "bigint") {
      acc += v;
      if (acc > 9223372036854775807n || acc < -9223372036854775808n)
        throw celError("integer overflow");
    } else if (typeof acc === "number" && typeof v === "number") acc += v;
    else throw celError("no such overload");
  }
  return acc;
}

function extreme(list: unknown[], name: string, sign: number): unknown {
  if (list.length === 0) throw celError(`${name} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) if (compareValues(v, best) * sign > 0) best = v;
  return best;
}

export function registerLists(env: Environment): void {
  env.registerFunction("list<A>.isSorted(): bool", (list: unknown[]) =>
    list.every((v, i) => i === 0 || compareValues(list[i - 1], v) <= 0),
  );
  env.registerFunction("list<A>.sum(): A", sum);
  env.registerFunction("list<A>.min(): A", (list: unknown[]) => extreme(list, "min", -1));
  env.registerFunction("list<A>.max(): A", (list: unknown[]) => extreme(list, "max", 1));
  env.registerFunction("list<A>.indexOf(A): int", (list: unknown[], v: unknown) =>
    BigInt(list.findIndex((x) => celEqual(x, v))),
  );
  env.registerFunction("list<A>.lastIndexOf(A): int", (list: unknown[], v: unknown) => {
    for (let i = list.length - 1; i >= 0; i--) if (celEqual(list[i], v)) return BigInt(i);
    return -1n;
  });
}
