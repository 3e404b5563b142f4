/**
 * CEL value helpers the Kubernetes libraries share: ordering and equality as cel-go defines them
 * for the values cel-js produces (int as bigint, double as number, strings, bools, bytes).
 */
import { EvaluationError } from "@marcbachmann/cel-js";

/** An evaluation error with cel-go's wording (the caller's rule then fails closed). */
export function celError(message: string): Error {
  return new EvaluationError(message);
}

function kind(v: unknown): string {
  if (typeof v === "bigint" || typeof v === "number") return "number";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof Date) return "timestamp";
  return typeof v;
}

/** cel-go's ordering of two comparable values (numbers across int/uint/double). */
export function compareValues(a: unknown, b: unknown): number {
  const ka = kind(a);
  if (ka !== kind(b)) throw celError("no such overload");
  switch (ka) {
    case "number": {
      const x = a as number | bigint;
      const y = b as number | bigint;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case "string":
    case "boolean":
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case "timestamp":
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case "bytes": {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
      }
      return Math.sign(x.length - y.length);
    }
    default:
      // Durations and other objects order by their numeric value when they expose one.
      if (a !== null && typeof a === "object" && "valueOf" in a) {
        const x = (a as { valueOf(): unknown }).valueOf();
        const y = (b as { valueOf(): unknown }).valueOf();
        if (x !== a && y !== b) return compareValues(x, y);
      }
      throw celError("no such overload");
  }
}

/**
 * CEL equality: numbers by value across int/uint/double (NaN equals nothing), lists, maps and
 * objects deeply. cel-js's object wrappers are Maps filled lazily: iterating fills them, and an
 * unset field (undefined) counts as absent, as in a plain object.
 */
export function celEqual(a: unknown, b: unknown): boolean {
  if (kind(a) === "number" && kind(b) === "number") {
    const x = a as number;
    const y = b as number;
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
    return !(x < y) && !(x > y);
  }
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => celEqual(x, b[i]))
    );
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareValues(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map)) return false;
    const ea = [...a].filter(([, v]) => v !== undefined);
    const eb = [...b].filter(([, v]) => v !== undefined);
    return ea.length === eb.length && ea.every(([k, v]) => celEqual(v, b.get(k)));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const eq = (a as { equals?: (o: unknown) => boolean }).equals;
    if (typeof eq === "function") return eq.call(a, b);
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) =>
        celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return false;
}
