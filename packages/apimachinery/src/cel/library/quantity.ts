/**
 * Kubernetes' CEL quantity library (`library/quantity.go`): `quantity()`, `isQuantity()` and the
 * `kubernetes.Quantity` methods, on exact values (../../quantity).
 */
import type { Environment } from "@marcbachmann/cel-js";
import { parseQuantity, QUANTITY_FORMAT_ERROR, Quantity } from "../../quantity/index.js";
import { celError } from "./values.js";

const TYPE = "kubernetes.Quantity";
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** A Quantity as a CEL value (equality by value, as Quantity.Equal). */
class CelQuantity extends Quantity {
  equals(other: unknown): boolean {
    return other instanceof Quantity && this.cmp(other) === 0;
  }
}

const wrap = (q: Quantity) => new CelQuantity(q.units, q.scale, q.text);
const fromInt = (n: bigint) => new CelQuantity(n, 0, n.toString());

function quantity(s: string): CelQuantity {
  const q = parseQuantity(s);
  if (!q) throw celError(QUANTITY_FORMAT_ERROR);
  return wrap(q);
}

export function registerQuantity(env: Environment): void {
  env.registerType(TYPE, CelQuantity);
  env.registerOperator(`${TYPE} == ${TYPE}`, (a: CelQuantity, b: CelQuantity) => a.equals(b));
  env.registerFunction(`quantity(string): ${TYPE}`, quantity);
  env.registerFunction("isQuantity(string): bool", (s: string) => parseQuantity(s) !== undefined);
  env.registerFunction(`${TYPE}.sign(): int`, (q: CelQuantity) => BigInt(q.sign()));
  env.registerFunction(`${TYPE}.isInteger(): bool`, (q: CelQuantity) => {
    if (!q.isInteger()) return false;
    const n = q.integer();
    return n <= MAX_INT64 && n >= MIN_INT64;
  });
  env.registerFunction(`${TYPE}.asInteger(): int`, (q: CelQuantity) => {
    const n = q.isInteger() ? q.integer() : undefined;
    if (n === undefined || n > MAX_INT64 || n < MIN_INT64) {
      throw celError("cannot convert value to integer");
    }
    return n;
  });
  env.registerFunction(`${TYPE}.asApproximateFloat(): double`, (q: CelQuantity) => q.toNumber());
  env.registerFunction(`${TYPE}.add(${TYPE}): ${TYPE}`, (a: CelQuantity, b: CelQuantity) =>
    wrap(a.add(b)),
  );
  env.registerFunction(`${TYPE}.add(int): ${TYPE}`, (a: CelQuantity, b: bigint) =>
    wrap(a.add(fromInt(b))),
  );
  env.registerFunction(`${TYPE}.sub(${TYPE}): ${TYPE}`, (a: CelQuantity, b: CelQuantity) =>
    wrap(a.sub(b)),
  );
  env.registerFunction(`${TYPE}.sub(int): ${TYPE}`, (a: CelQuantity, b: bigint) =>
    wrap(a.sub(fromInt(b))),
  );
  env.registerFunction(
    `${TYPE}.isLessThan(${TYPE}): bool`,
    (a: CelQuantity, b: CelQuantity) => a.cmp(b) < 0,
  );
  env.registerFunction(
    `${TYPE}.isGreaterThan(${TYPE}): bool`,
    (a: CelQuantity, b: CelQuantity) => a.cmp(b) > 0,
  );
  env.registerFunction(`${TYPE}.compareTo(${TYPE}): int`, (a: CelQuantity, b: CelQuantity) =>
    BigInt(a.cmp(b)),
  );
}
