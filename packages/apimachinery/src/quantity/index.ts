/**
 * `@opgen/apimachinery/quantity`: resource.Quantity (`500m`, `1.5Gi`, `2e3`) parsed exactly, as
 * k8s.io/apimachinery's ParseQuantity reads it: a decimal mantissa with an optional sign, then a
 * decimal SI suffix, a binary suffix or an exponent. The value is kept as an integer scaled by a
 * power of ten (binary suffixes only ever produce finite decimals), so comparisons and sums are
 * exact where a float would not be. Used by envtest's resource checks and by CEL's quantity
 * library.
 */

const DECIMAL: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

const QUANTITY =
  /^([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/;

// Go reads the exponent as an int32 but then works with arbitrary-precision decimals; an exponent
// this large would make a BigInt of millions of digits, so such values are refused (no request a
// cluster accepts in practice carries one).
const MAX_EXPONENT = 1000;

/** ParseQuantity's error for a string that is not a quantity. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** An exact quantity: `units / 10^scale`, with the suffix it was written with. */
export class Quantity {
  constructor(
    readonly units: bigint,
    readonly scale: number,
    readonly text: string,
  ) {}

  /** -1, 0 or 1. */
  sign(): number {
    return this.units === 0n ? 0 : this.units < 0n ? -1 : 1;
  }

  /** Compares two quantities by value (-1, 0, 1). */
  cmp(other: Quantity): number {
    const [a, b] = aligned(this, other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  add(other: Quantity): Quantity {
    const [a, b, scale] = aligned(this, other);
    return fromUnits(a + b, scale);
  }

  sub(other: Quantity): Quantity {
    const [a, b, scale] = aligned(this, other);
    return fromUnits(a - b, scale);
  }

  /** Whether the value is a whole number. */
  isInteger(): boolean {
    return this.units % 10n ** BigInt(this.scale) === 0n;
  }

  /** The whole value (callers check isInteger first). */
  integer(): bigint {
    return this.units / 10n ** BigInt(this.scale);
  }

  /** The value as a float, as AsApproximateFloat64. */
  toNumber(): number {
    return Number(this.units) / 10 ** this.scale;
  }

  toString(): string {
    return this.text;
  }
}

function aligned(a: Quantity, b: Quantity): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [
    a.units * 10n ** BigInt(scale - a.scale),
    b.units * 10n ** BigInt(scale - b.scale),
    scale,
  ];
}

function fromUnits(units: bigint, scale: number): Quantity {
  let u = units;
  let s = scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  const whole = s === 0 ? u.toString() : undefined;
  return new Quantity(u, s, whole ?? (Number(u) / 10 ** s).toString());
}

/** The quantity a string denotes, or undefined when ParseQuantity would refuse it. */
export function parseQuantity(text: string): Quantity | undefined {
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [, sign, mantissa = "", exp, suffix = ""] = m;
  const [whole = "", frac = ""] = mantissa.split(".");
  let units = BigInt(`${whole || "0"}${frac}`);
  let scale = frac.length;
  let power = 0;
  if (exp !== undefined) power = Number(exp);
  else if (suffix in DECIMAL) power = DECIMAL[suffix] ?? 0;
  if (Math.abs(power) > MAX_EXPONENT) return undefined;
  if (power >= 0) units *= 10n ** BigInt(power);
  else scale -= power;
  if (suffix in BINARY) units <<= BigInt(BINARY[suffix] ?? 0);
  if (sign === "-") units = -units;
  return new Quantity(units, scale, text);
}

/** A quantity's value as a number (approximate), or undefined when it is not one. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === "number") return q;
  if (typeof q !== "string") return undefined;
  return parseQuantity(q.trim())?.toNumber();
}
