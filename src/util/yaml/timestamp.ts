/**
 * Whether yaml.v2 (resolve.go parseTimestamp) reads a plain scalar as a timestamp: Go's time.Parse
 * with one of four layouts, "2006-1-2T15:4:5.999999999Z07:00", the same with a lower-case `t`,
 * "2006-1-2 15:4:5.999999999" and "2006-1-2". Go's parser is looser than the layouts read: one- or
 * two-digit fields, any run of spaces for the space, `,` as the decimal mark, a zone hour or minute
 * that Go's atoi takes with a sign (`+-1:00`). This follows Go 1.19's time/format.go.
 */

const isDigit = (s: string, i: number) => i < s.length && s[i]! >= "0" && s[i]! <= "9";

/** Go's getnum(s, false): one or two leading digits; -1 when there is none. */
function getnum(s: string, at: number): [value: number, next: number] {
  if (!isDigit(s, at)) return [-1, at];
  if (!isDigit(s, at + 1)) return [Number(s[at]), at + 1];
  return [Number(s.slice(at, at + 2)), at + 2];
}

/** Go's atoi: an optional sign, then digits and nothing else. */
const goAtoi = (s: string) => /^[-+]?[0-9]+$/.test(s);

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses the clock part from `at`: `15:4:5`, optional `.999999999`; returns the end or -1. */
function clock(s: string, at: number): number {
  const [hour, h] = getnum(s, at);
  if (hour < 0 || hour >= 24 || s[h] !== ":") return -1;
  const [min, m] = getnum(s, h + 1);
  if (min < 0 || min >= 60 || s[m] !== ":") return -1;
  const [sec, end] = getnum(s, m + 1);
  if (sec < 0 || sec >= 60) return -1;
  // stdFracSecond9: a mark and up to nine digits when a digit follows the mark.
  if ((s[end] === "." || s[end] === ",") && isDigit(s, end + 1)) {
    let i = 0;
    while (i < 9 && isDigit(s, end + 1 + i)) i++;
    return end + 1 + i;
  }
  return end;
}

/** Go's stdISO8601ColonTZ from `at`: `Z` or `±hh:mm`; returns the end or -1. */
function zone(s: string, at: number): number {
  if (s[at] === "Z") return at + 1;
  if (s.length - at < 6 || s[at + 3] !== ":") return -1;
  if (s[at] !== "+" && s[at] !== "-") return -1;
  if (!goAtoi(s.slice(at + 1, at + 3)) || !goAtoi(s.slice(at + 4, at + 6))) return -1;
  return at + 6;
}

export function isYamlTimestamp(s: string): boolean {
  // Quick check (as yaml.v2's): four digits, then '-'.
  if (s.length < 5 || s[4] !== "-" || !/^[0-9]{4}/.test(s)) return false;
  const year = Number(s.slice(0, 4));
  const [month, mEnd] = getnum(s, 5);
  if (month < 1 || month > 12 || s[mEnd] !== "-") return false;
  const [day, dEnd] = getnum(s, mEnd + 1);
  if (day < 0) return false;
  const validDay = day >= 1 && day <= daysIn(month, year);
  if (dEnd === s.length) return validDay;
  const sep = s[dEnd];
  if (sep === "T" || sep === "t") {
    const c = clock(s, dEnd + 1);
    return c >= 0 && zone(s, c) === s.length && validDay;
  }
  if (sep === " ") {
    let at = dEnd;
    while (s[at] === " ") at++;
    return clock(s, at) === s.length && validDay;
  }
  return false;
}
