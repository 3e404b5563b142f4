/**
 * The order yaml.v2 (v2.4, sorter.go `keyList.Less`) sorts string map keys in: non-letters before
 * letters, runs of digits compared by value. controller-gen's YAML follows it, so ours does.
 */

/** yaml.v2's sort order of string map keys (sorter.go keyList.Less). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  return keyLess(a, b) ? -1 : 1;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (c: string) => LETTER.test(c);
const isDigit = (c: string) => DIGIT.test(c);

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function keyLess(a: string, b: string): boolean {
  if (isAscii(a) && isAscii(b)) return asciiKeyLess(a, b);
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === "0" || br[i] === "0") {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + (ar[ai]!.charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + (br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiDigit = (c: number) => c >= 48 && c <= 57;

/** keyLess on ASCII strings without allocating (the common case: schema keys). */
function asciiKeyLess(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ac = a.charCodeAt(i);
    const bc = b.charCodeAt(i);
    if (ac === bc) continue;
    const al = isAsciiLetter(ac);
    const bl = isAsciiLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === 48 || bc === 48) {
      for (let j = i - 1; j >= 0 && isAsciiDigit(a.charCodeAt(j)); j--) {
        if (a.charCodeAt(j) !== 48) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < a.length && isAsciiDigit(a.charCodeAt(ai)); ai++)
      an = an * 10 + (a.charCodeAt(ai) - 48);
    for (; bi < b.length && isAsciiDigit(b.charCodeAt(bi)); bi++)
      bn = bn * 10 + (b.charCodeAt(bi) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return a.length < b.length;
}
