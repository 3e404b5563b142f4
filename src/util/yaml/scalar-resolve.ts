/**
 * How yaml.v2 reads a plain scalar back (resolve.go): which strings would come back as booleans,
 * numbers, nulls or timestamps, and so must be quoted to stay strings.
 */

const RESOLVE_MAP = new Set([
  "y",
  "Y",
  "yes",
  "Yes",
  "YES",
  "n",
  "N",
  "no",
  "No",
  "NO",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "on",
  "On",
  "ON",
  "off",
  "Off",
  "OFF",
  "",
  "~",
  "null",
  "Null",
  "NULL",
  ".nan",
  ".NaN",
  ".NAN",
  ".inf",
  ".Inf",
  ".INF",
  "+.inf",
  "+.Inf",
  "+.INF",
  "-.inf",
  "-.Inf",
  "-.INF",
  "<<",
]);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/;
const GO_FLOAT = /^[-+]?((\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|inf|infinity|nan)$/i;
export const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt]| )(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?)?$/;

function validTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  // The forms without a time zone require a space separator or none (Go's layouts).
  if (m[4] !== undefined && /[Tt]/.test(s) && m[7] === undefined) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(Number(m[1]), month, 0)).getUTCDate();
  if (day > days) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59))
    return false;
  return true;
}

/** Whether yaml.v2 resolves the plain scalar `s` to something other than a string. */
export function resolvesToNonString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return true;
  const c = s[0];
  if (c === ".") return GO_FLOAT.test(s);
  if (c === "+" || c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
    if (validTimestamp(s)) return true;
    const plain = s.replaceAll("_", "");
    if (GO_INT.test(plain)) return true;
    if (YAML_FLOAT.test(plain)) return true;
    if (/^-?0b[01]+$/.test(plain)) return true;
  }
  return false;
}
