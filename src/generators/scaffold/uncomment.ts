/**
 * Kubebuilder's `UncommentCode` (pkg/plugin/util/util.go) for the scaffold's YAML: find an exact
 * commented block and strip the leading `#` of each of its lines, so `#  - source:` becomes
 * ` - source:` as in Kubebuilder's projects. A block found already uncommented is left as it is,
 * which makes every edit idempotent.
 */

export type UncommentResult = "uncommented" | "already" | "missing";

/** `block` with the first `#` of each line removed: what it looks like once uncommented. */
export function uncommented(block: string): string {
  return block
    .split("\n")
    .map((line) => (line.startsWith("#") ? line.slice(1) : line))
    .join("\n");
}

/**
 * Uncomments the first occurrence of `block` (every line starting with `#`) in `text`. Returns
 * the new text and whether the block was uncommented now, was live already, or is in neither
 * form (the caller then falls back to a structural edit or reports it).
 */
export function uncommentBlock(
  text: string,
  block: string,
): { text: string; result: UncommentResult } {
  const at = indexOfLines(text, block);
  if (at >= 0) {
    return {
      text: text.slice(0, at) + uncommented(block) + text.slice(at + block.length),
      result: "uncommented",
    };
  }
  return { text, result: indexOfLines(text, uncommented(block)) >= 0 ? "already" : "missing" };
}

/** Index of `lines` in `text` where it starts a line and ends one (no partial-line matches). */
export function indexOfLines(text: string, lines: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(lines, from);
    if (at < 0) return -1;
    const end = at + lines.length;
    const startsLine = at === 0 || text[at - 1] === "\n";
    const endsLine = end === text.length || text[end] === "\n";
    if (startsLine && endsLine) return at;
    from = at + 1;
  }
}
