/**
 * A number as controller-gen's YAML shows it. controller-gen writes JSON with encoding/json, which
 * yaml.v2 reads back and writes again (genall.yamlMarshal): JSON integer text that fits an int64 or
 * a uint64 stays an integer; anything else becomes a float64 and is written with Go's
 * strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form from 1e+06 up and below
 * 1e-04 (`1.2345675e+06`, `1e+20`, `1.8446744073709552e+19`). encoding/json and JSON.stringify
 * print a float64 with the same shortest digits, so the JSON text yaml.v2 reads is the same.
 */

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

export function formatNumber(n: number): string {
  // Not JSON; yaml.v2's own spellings for a float64 that holds them.
  if (Number.isNaN(n)) return ".nan";
  if (n === Number.POSITIVE_INFINITY) return ".inf";
  if (n === Number.NEGATIVE_INFINITY) return "-.inf";
  if (Number.isSafeInteger(n)) return Object.is(n, -0) ? "0" : String(n);
  const json = JSON.stringify(n);
  if (/^-?[0-9]+$/.test(json)) {
    const big = BigInt(json);
    if (big >= INT64_MIN && big <= UINT64_MAX) return json;
  }
  return formatFloatG(n);
}

/** Go's strconv.FormatFloat(n, 'g', -1, 64) for a finite n. */
function formatFloatG(n: number): string {
  const [mantissa, expText] = n.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  // Between 1e-4 and 1e6 JavaScript prints the same shortest digits without an exponent.
  return String(n);
}
