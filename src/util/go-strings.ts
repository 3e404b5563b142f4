/**
 * String ordering as Go orders strings. controller-gen sorts verbs, groups, resources and rule keys
 * with `slices.Sort`/`strings.Compare`, which compare UTF-8 bytes; JavaScript's `<` compares UTF-16
 * code units, which disagrees for characters outside the Basic Multilingual Plane.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point.
const ASCII = /^[\x00-\x7f]*$/;

/** `strings.Compare(a, b)`: negative, zero or positive by UTF-8 byte order. */
export function compareGoStrings(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** A new array with duplicates removed, sorted by byte order (controller-gen's `removeDupAndSort`). */
export function dedupSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}
