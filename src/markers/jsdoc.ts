/**
 * Splits one `/** ... *\/` comment into its description and its tags, keeping the position of each
 * tag so marker errors point at the right line and column.
 *
 * A `*\/` in the comment stands for the star-slash that would otherwise end it.
 *
 * A tag starts on a line whose text (after the leading `*`) begins with `@name`; it runs to the end
 * of that line, and continues on following lines that do not start a new tag (joined with one
 * space), so a long CEL rule may wrap. Everything before the first tag is the description,
 * normalized as controller-gen normalizes Go doc comments (see {@link normalizeDescription}).
 */
import type { SourcePos } from "./types.js";

/** A tag as written: `@validation Minimum=1` has name `validation` and text `Minimum=1`. */
export interface RawTag {
  readonly name: string;
  readonly text: string;
  /** Position of the `@`. */
  readonly pos: SourcePos;
  /** Maps an offset in `text` to its position in the file (continuation lines included). */
  positionOf(offset: number): SourcePos;
}

export interface JSDocParts {
  readonly description: string;
  readonly tags: readonly RawTag[];
}

/** Line starts of a file, for turning offsets into 1-based line/column. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(
    readonly file: string,
    text: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): SourcePos {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

interface CommentLine {
  text: string;
  /** File offset of text[0]. */
  offset: number;
}

const TAG_START = /^@([A-Za-z][A-Za-z0-9_:.-]*)/;

/**
 * Parses the JSDoc block `source.slice(start, end)` (which must start with `/**`).
 * `lines` maps offsets of `source` to positions.
 */
export function parseJSDoc(source: string, start: number, end: number, lines: LineMap): JSDocParts {
  const body = commentLines(source, start, end);
  const descLines: string[] = [];
  const tags: RawTag[] = [];
  let current: { name: string; at: number; parts: { text: string; offset: number }[] } | undefined;
  const flush = () => {
    if (current) tags.push(makeTag(current.name, current.at, current.parts, lines));
    current = undefined;
  };
  for (const line of body) {
    const m = TAG_START.exec(line.text);
    if (m) {
      flush();
      const rest = line.text.slice(m[0].length);
      const lead = rest.length - rest.trimStart().length;
      current = {
        name: m[1]!,
        at: line.offset,
        parts: [{ text: rest.trim(), offset: line.offset + m[0].length + lead }],
      };
    } else if (current) {
      const t = line.text.trim();
      if (t)
        current.parts.push({
          text: t,
          offset: line.offset + (line.text.length - line.text.trimStart().length),
        });
    } else {
      descLines.push(line.text);
    }
  }
  flush();
  return { description: normalizeDescription(descLines), tags };
}

function makeTag(
  name: string,
  at: number,
  parts: { text: string; offset: number }[],
  lines: LineMap,
): RawTag {
  const segments: { from: number; offset: number }[] = [];
  let text = "";
  for (const p of parts) {
    if (!p.text) continue;
    if (text) text += " ";
    segments.push({ from: text.length, offset: p.offset });
    text += p.text;
  }
  return {
    name,
    text,
    pos: lines.position(at),
    positionOf(offset: number): SourcePos {
      let seg = segments[0];
      for (const s of segments) if (s.from <= offset) seg = s;
      return seg ? lines.position(seg.offset + offset - seg.from) : lines.position(at);
    },
  };
}

/** The lines of a JSDoc comment without `/**`, `*\/` and the leading ` * ` of each line. */
function commentLines(source: string, start: number, end: number): CommentLine[] {
  const out: CommentLine[] = [];
  let pos = start + 3; // after "/**"
  const stop = end - 2; // before "*/"
  while (pos <= stop) {
    let eol = source.indexOf("\n", pos);
    if (eol < 0 || eol > stop) eol = stop;
    let from = pos;
    let to = eol;
    if (to > from && source.charCodeAt(to - 1) === 13) to--; // CRLF
    // Leading whitespace, then one "*" and one space, as JSDoc writes it.
    while (from < to && (source[from] === " " || source[from] === "\t")) from++;
    if (source[from] === "*" && from !== stop) {
      from++;
      if (source[from] === " ") from++;
    }
    // `*\/` is how a comment spells `*/` without ending (a pattern such as `^a*\/b$`).
    const text = source.slice(from, to).replace(/\s+$/, "").replaceAll("*\\/", "*/");
    out.push({ text, offset: from });
    pos = eol + 1;
  }
  return out;
}

/**
 * Normalizes description lines as controller-gen does for Go comments (go/ast CommentGroup.Text,
 * then pkg/markers/zip.go extractDoc): trailing spaces dropped, leading and trailing blank lines
 * dropped, runs of blank lines collapsed to one; outside ``` or ~~~ fences, lines starting with
 * `TODO` are skipped and a line starting with `---` ends the description. Lines are joined with
 * `\n`, so line breaks are kept as controller-gen keeps them since v0.14.
 */
export function normalizeDescription(lines: readonly string[]): string {
  const trimmed = lines.map((l) => l.replace(/\s+$/, ""));
  const collapsed: string[] = [];
  for (const line of trimmed) {
    if (line === "" && (collapsed.length === 0 || collapsed[collapsed.length - 1] === "")) continue;
    collapsed.push(line);
  }
  while (collapsed.length && collapsed[collapsed.length - 1] === "") collapsed.pop();
  const out: string[] = [];
  let inFence = false;
  for (const line of collapsed) {
    if (line.startsWith("```") || line.startsWith("~~~")) inFence = !inFence;
    if (!inFence) {
      if (line.startsWith("TODO")) continue;
      if (line.startsWith("---")) break;
    }
    out.push(line);
  }
  return out.join("\n");
}
