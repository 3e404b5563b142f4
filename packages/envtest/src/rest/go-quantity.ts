/**
 * What kube-apiserver's messages show of a resource.Quantity beyond its exact value (which
 * `@opgen/apimachinery/quantity` parses): the format it was written in, `String()` (the canonical
 * form: `2000m` reads `2`, `1024Mi` reads `1Gi`), `Value()`/`MilliValue()` (rounded up), sums
 * keeping the first term's format, and `%#v` as field errors print a Quantity value. LimitRanger
 * and LimitRange validation word their errors with these.
 */
import { parseQuantity, type Quantity } from "@opgen/apimachinery/quantity";
import { type GoValue, goValue } from "@opgen/apimachinery/status";

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

export interface GoQuantity {
  readonly q: Quantity;
  readonly format: QuantityFormat;
  /** What the request said, for `%#v` (undefined for computed sums). */
  readonly text?: string;
}

const DECIMAL_SUFFIX: Record<number, string> = {
  [-9]: "n",
  [-6]: "u",
  [-3]: "m",
  0: "",
  3: "k",
  6: "M",
  9: "G",
  12: "T",
  15: "P",
  18: "E",
};
const BINARY_SUFFIX = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
/** resource.MaxMilliValue: above it, comparisons fall back to whole units. */
export const MAX_MILLI = 9223372036854775807n / 1000n;

/** A quantity from a resource list (a string, or a number a client sent), or undefined. */
export function goQuantity(v: unknown): GoQuantity | undefined {
  const text = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : undefined;
  if (text === undefined) return undefined;
  const q = parseQuantity(text);
  if (!q) return undefined;
  const format: QuantityFormat = /[KMGTPE]i$/.test(text)
    ? "BinarySI"
    : /[eE][+-]?\d+$/.test(text)
      ? "DecimalExponent"
      : "DecimalSI";
  return { q, format, text };
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** The value scaled by 10^scale, rounded up (AsScale / ScaledValue). */
function scaledCeil(q: Quantity, scale: number): bigint {
  // units / 10^q.scale * 10^-scale
  const shift = -scale - q.scale;
  if (shift >= 0) return q.units * pow10(shift);
  const d = pow10(-shift);
  const whole = q.units / d;
  return q.units % d !== 0n && q.units > 0n ? whole + 1n : whole;
}

export function value(g: GoQuantity): bigint {
  return scaledCeil(g.q, 0);
}

export function milliValue(g: GoQuantity): bigint {
  return scaledCeil(g.q, -3);
}

/**
 * requestLimitEnforcedValues: whole units, or milli-units when none of them would overflow,
 * so `100m` and `0.1` compare equal and `1.5` is above `1`.
 */
export function comparable(...qs: (GoQuantity | undefined)[]): bigint[] {
  const milli = qs.every((g) => g === undefined || value(g) <= MAX_MILLI);
  return qs.map((g) => (g === undefined ? 0n : milli ? milliValue(g) : value(g)));
}

/** Quantity.String(): the canonical form in the quantity's format. */
export function quantityString(g: GoQuantity): string {
  const { q } = g;
  if (q.units === 0n) return "0";
  let format = g.format;
  if (format === "BinarySI") {
    const small = q.cmp(parseQuantity("1024")!) < 0 && q.cmp(parseQuantity("-1024")!) > 0;
    if (small || !q.isInteger()) format = "DecimalSI";
  }
  if (format === "BinarySI") {
    let amount = q.integer();
    let exp = 0;
    while (exp < BINARY_SUFFIX.length - 1 && amount % 1024n === 0n) {
      amount /= 1024n;
      exp++;
    }
    return `${amount}${BINARY_SUFFIX[exp]}`;
  }
  // Mantissa without trailing zeros, exponent moved to a multiple of 3.
  let amount = q.units;
  let exp = -q.scale;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exp++;
  }
  const r = ((exp % 3) + 3) % 3;
  amount *= pow10(r);
  exp -= r;
  if (format === "DecimalExponent") return exp === 0 ? `${amount}` : `${amount}e${exp}`;
  const suffix = DECIMAL_SUFFIX[exp];
  return suffix === undefined ? `${amount}e${exp}` : `${amount}${suffix}`;
}

/** Quantity.Add: the sum keeps the first term's format (unless the first is zero). */
export function addQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  return { q: a.q.add(b.q), format: a.q.units === 0n ? b.format : a.format };
}

/**
 * `%#v` of a resource.Quantity, as field errors print a Quantity value (its String method has a
 * pointer receiver, so the struct is dumped): ParseQuantity's int64 amount and the string it
 * caches when the input is already canonical.
 */
export function goQuantityValue(g: GoQuantity): GoValue {
  const text = g.text ?? quantityString(g);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  const [, sign = "", whole = "", frac = "", suffix = ""] = m ?? [];
  const num = whole.replace(/^0+(?=\d)/, "");
  let amount: { value: bigint; scale: number } | undefined;
  let cached = false;
  if (g.format === "BinarySI") {
    const exp = 10 * BINARY_SUFFIX.indexOf(suffix);
    const precision = 15 - num.length - Math.trunc((exp * 3) / 10) - 1;
    if (frac === "" && precision >= 0) {
      const v = BigInt(num || "0");
      amount = { value: (sign === "-" ? -v : v) << BigInt(exp), scale: 0 };
      cached = exp % 10 === 0 && (v & 7n) !== 0n;
    }
  } else {
    const exp =
      g.format === "DecimalExponent"
        ? Number(suffix.slice(1))
        : Number(Object.entries(DECIMAL_SUFFIX).find(([, s]) => s === suffix)?.[0] ?? 0);
    const scale = exp - frac.length;
    const shifted = num + frac;
    if (18 - (num.length + frac.length) >= 0 && scale >= -9) {
      const v = BigInt(shifted || "0");
      amount = { value: sign === "-" ? -v : v, scale };
      cached = scale % 3 === 0 && !shifted.endsWith("000") && shifted[0] !== "0";
    }
  }
  const i = amount ?? { value: 0n, scale: 0 };
  const s = amount && cached ? text : "";
  return goValue(
    `resource.Quantity{i:resource.int64Amount{value:${i.value}, scale:${i.scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(s)}, Format:${JSON.stringify(g.format)}}`,
  );
}
