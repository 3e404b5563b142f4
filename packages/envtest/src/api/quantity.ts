/**
 * resource.Quantity values (`500m`, `1Gi`, `2e3`, `1.5`) as numbers, for comparing requests,
 * limits and LimitRange bounds. Exact enough for comparison: binary and decimal suffixes and
 * exponents are applied to a JavaScript number.
 */
const SUFFIXES: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY =
  /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei))?$/;

/** The value of a quantity, or undefined when it is not one. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === "number") return q;
  if (typeof q !== "string") return undefined;
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[2]) return base * 10 ** Number(m[2].slice(1));
  return base * (SUFFIXES[m[3] ?? ""] ?? 1);
}
