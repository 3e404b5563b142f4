/**
 * How yaml.v2 (v2.4 resolve.go `resolve`) reads a plain scalar back: which strings would come back
 * as booleans, numbers, nulls or timestamps, and so must be quoted to stay strings. Go's strconv
 * decides the numbers: integers must fit int64 or uint64, floats must not overflow float64.
 */
import { isYamlTimestamp } from "./timestamp.js";

/** resolve.go's resolveMap: the words read as booleans, nulls and special floats. */
const RESOLVE_MAP = new Set([
  ...["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO"],
  ...["true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"],
  ...["", "~", "null", "Null", "NULL"],
  ...[".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"],
  ...["-.inf", "-.Inf", "-.INF"],
  // "<<" is in the map too, but its first character has no hint, so yaml.v2 never looks it up.
]);

/** resolve.go's resolveTable: only scalars starting with one of these are looked at further. */
const HINTED = /^[-+0-9yYnNtTfFoO~.]/;

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** What Go's strconv.ParseFloat accepts after a leading '.': digits, underscores between digits. */
const DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;
/** strconv.ParseInt/ParseUint with base 0 (underscores already removed). */
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** The magnitude of a Go integer literal (base prefix or legacy octal). */
function magnitude(digits: string): bigint {
  if (digits.length > 1 && digits[0] === "0" && /[0-7]/.test(digits[1]!)) {
    return BigInt(`0o${digits.slice(1)}`);
  }
  return BigInt(digits.toLowerCase());
}

/** Whether Go's ParseInt(s, 0, 64) or ParseUint(s, 0, 64) accepts s. */
function isGoInteger(s: string): boolean {
  const m = GO_INT.exec(s);
  if (!m) return false;
  // Short decimal literals always fit; only long ones need the exact range check.
  if (m[2]!.length < 18 && !/^0[xXbBoO]/.test(m[2]!)) return true;
  const n = magnitude(m[2]!);
  if (m[1] === "-") return n <= INT64_MAX + 1n;
  if (m[1] === "+") return n <= INT64_MAX;
  return n <= UINT64_MAX;
}

/** Whether Go's ParseFloat accepts s (syntax checked by the caller) without overflowing. */
const finiteFloat = (s: string) => Number.isFinite(Number(s.replaceAll("_", "")));

/** The `0b` fallbacks of resolve.go: ParseInt(rest, 2, 64), which takes a sign after the prefix. */
function isBinaryFallback(plain: string): boolean {
  if (plain.startsWith("0b")) {
    const m = /^([-+]?)([01]+)$/.exec(plain.slice(2));
    if (!m) return false;
    const n = BigInt(`0b${m[2]}`);
    return m[1] === "-" ? n <= INT64_MAX + 1n : n <= (m[1] === "+" ? INT64_MAX : UINT64_MAX);
  }
  if (plain.startsWith("-0b")) {
    return /^[01]+$/.test(plain.slice(3)) && BigInt(`0b${plain.slice(3)}`) <= INT64_MAX + 1n;
  }
  return false;
}

/** Whether yaml.v2 resolves the plain scalar `s` to something other than a string. */
export function resolvesToNonString(s: string): boolean {
  if (s !== "" && !HINTED.test(s)) return false;
  if (RESOLVE_MAP.has(s)) return true;
  const c = s[0]!;
  if (c === ".") return DOT_FLOAT.test(s) && finiteFloat(s);
  if (c !== "+" && c !== "-" && (c < "0" || c > "9")) return false;
  if (isYamlTimestamp(s)) return true;
  const plain = s.includes("_") ? s.replaceAll("_", "") : s;
  if (isGoInteger(plain)) return true;
  if (YAML_STYLE_FLOAT.test(plain) && finiteFloat(plain)) return true;
  return isBinaryFallback(plain);
}

/** yaml.v2's isBase60Float: written quoted for old parsers, though yaml.v2 reads it as a string. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** Whether yaml.v2's encoder may write the string `s` plain (encode.go stringv canUsePlain). */
export function canBePlain(s: string): boolean {
  return !resolvesToNonString(s) && !BASE60_FLOAT.test(s);
}
