/**
 * The order yaml.v2 (v2.4, sorter.go `keyList.Less`) sorts string map keys in: non-letters before
 * letters, runs of digits compared by value. controller-gen's YAML follows it, so ours does.
 * A digit run's value is accumulated as Go does, in an int64 that wraps past 2^63, and a non-ASCII
 * decimal digit adds its code point minus '0'; so a long run can sort before a short one.
 */

/** yaml.v2's sort order of string map keys (sorter.go keyList.Less). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  return keyLess(a, b) ? -1 : 1;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) =>
  c < 0x80 ? isAsciiLetter(c) : LETTER.test(String.fromCodePoint(c));
const isDigit = (c: number) => (c < 0x80 ? isAsciiDigit(c) : DIGIT.test(String.fromCodePoint(c)));

function keyLess(a: string, b: string): boolean {
  if (isAscii(a) && isAscii(b)) {
    // The common case (schema keys): decide on the first difference without allocating.
    const n = Math.min(a.length, b.length);
    let i = 0;
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    if (i === n) return a.length < b.length;
    const ac = a.charCodeAt(i);
    const bc = b.charCodeAt(i);
    const al = isAsciiLetter(ac);
    const bl = isAsciiLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    if (!isAsciiDigit(ac) && !isAsciiDigit(bc)) return ac < bc;
  }
  return runesLess(codePoints(a), codePoints(b));
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const c of s) out.push(c.codePointAt(0)!);
  return out;
}

/** keyList.Less on two strings' runes. */
function runesLess(ar: number[], br: number[]): boolean {
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 48 || br[i] === 48) {
      // A zero inside a run that has a non-zero digit before it counts from 1, as in yaml.v2.
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 48) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = wrap(an * 10n + BigInt(ar[ai]! - 48));
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = wrap(bn * 10n + BigInt(br[bi]! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

/** Go's int64 arithmetic wraps around. */
const wrap = (n: bigint) => BigInt.asIntN(64, n);
