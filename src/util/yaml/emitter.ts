/**
 * The output side of yaml.v2's emitter (v2.4 emitterc.go): the column, indentation and whitespace
 * state, and the writers of plain, single-quoted, double-quoted and literal scalars, each a
 * transcription of its yaml_emitter_write_* function so line folding at 80 columns, escapes and
 * block headers come out byte for byte. Columns count code points, as yaml.v2 counts runes.
 */
import { isBreak, isPrintable } from "./scalar-style.js";

const BEST_INDENT = 2;
const BEST_WIDTH = 80;
const SPACE = 0x20;

/** Double-quoted escapes yaml.v2 writes by name; other characters get \x, \u or \U. */
const NAMED_ESCAPES = new Map<number, string>([
  [0x00, "0"],
  [0x07, "a"],
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0b, "v"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x1b, "e"],
  [0x22, '"'],
  [0x5c, "\\"],
  [0x85, "N"],
  [0xa0, "_"],
  [0x2028, "L"],
  [0x2029, "P"],
]);

function escaped(cp: number): string {
  const named = NAMED_ESCAPES.get(cp);
  if (named !== undefined) return `\\${named}`;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

/** Code points in s (surrogate pairs count once). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

export class Emitter {
  private out = "";
  private column = 0;
  indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  indention = true;

  text(): string {
    return this.out;
  }

  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }

  /** write_break: "\n" as a line break, LS and PS as themselves; either way a new line. */
  private writeBreak(ch: string): void {
    this.out += ch;
    this.column = 0;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.putBreak();
    }
    if (this.column < indent) {
      this.out += " ".repeat(indent - this.column);
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  /** write_indicator, for ASCII indicators. */
  writeIndicator(
    ind: string,
    needWhitespace: boolean,
    isWhitespace: boolean,
    isIndention: boolean,
  ): void {
    if (needWhitespace && !this.whitespace) {
      this.out += " ";
      this.column++;
    }
    this.out += ind;
    this.column += ind.length;
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** write_plain_scalar, for a value with no line break (a plain scalar never has one). */
  writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) {
      this.out += " ";
      this.column++;
    }
    const length = codePointLength(value);
    if (!allowBreaks || this.column + length <= BEST_WIDTH + 1 || !value.includes(" ")) {
      // No space can reach past column 80: nothing to fold.
      this.out += value;
      this.column += length;
    } else {
      this.writeFolding(value, true);
    }
    this.whitespace = false;
    this.indention = false;
  }

  writeSingleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    this.writeFolding(value, allowBreaks, true);
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * The loop write_plain_scalar and write_single_quoted_scalar share: a space past column 80
   * becomes a line break (not the first or last character when quoted, nor before another space);
   * line breaks are written doubled for "\n" and indented after.
   */
  private writeFolding(value: string, allowBreaks: boolean, quoted = false): void {
    let spaces = false;
    let breaks = false;
    // Characters written as they are collect in value[run, i) and go out in one piece.
    let run = 0;
    for (let i = 0; i < value.length; ) {
      const cp = value.codePointAt(i)!;
      const next = i + (cp > 0xffff ? 2 : 1);
      if (cp === SPACE) {
        const fold =
          allowBreaks &&
          !spaces &&
          this.column > BEST_WIDTH &&
          (!quoted || (i > 0 && next < value.length)) &&
          value.charCodeAt(next) !== SPACE;
        if (fold) {
          this.out += value.slice(run, i);
          run = next;
          this.writeIndent();
        } else {
          this.column++;
        }
        spaces = true;
      } else if (isBreak(cp)) {
        this.out += value.slice(run, i);
        run = next;
        if (!breaks && cp === 0x0a) this.putBreak();
        this.writeBreak(value.slice(i, next));
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) {
          this.out += value.slice(run, i);
          run = i;
          this.writeIndent();
        }
        if (quoted && cp === 0x27) {
          // A quote is doubled: write the run through it, then start the next run at it.
          this.out += value.slice(run, next);
          run = i;
          this.column++;
        }
        this.column++;
        this.indention = false;
        spaces = false;
        breaks = false;
      }
      i = next;
    }
    this.out += value.slice(run);
  }

  writeDoubleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // is_bom(value, i) looks at the start of the value whatever i is: after a leading BOM, every
    // character is escaped.
    const bom = value.charCodeAt(0) === 0xfeff;
    let spaces = false;
    let run = 0;
    for (let i = 0; i < value.length; ) {
      const cp = value.codePointAt(i)!;
      const next = i + (cp > 0xffff ? 2 : 1);
      if (bom || !isPrintable(cp) || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
        const e = escaped(cp);
        this.out += value.slice(run, i) + e;
        run = next;
        this.column += e.length;
        spaces = false;
      } else if (cp === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && next < value.length) {
          this.out += value.slice(run, i);
          run = next;
          this.writeIndent();
          if (value.charCodeAt(next) === SPACE) {
            this.out += "\\";
            this.column++;
          }
        } else {
          this.column++;
        }
        spaces = true;
      } else {
        this.column++;
        spaces = false;
      }
      i = next;
    }
    this.out += value.slice(run);
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  writeLiteral(value: string): void {
    this.writeIndicator("|", true, false, false);
    const first = value.codePointAt(0)!;
    if (first === SPACE || isBreak(first)) {
      this.writeIndicator(String(BEST_INDENT), false, false, false);
    }
    const chomp = chompHint(value);
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (let i = 0; i < value.length; ) {
      const cp = value.codePointAt(i)!;
      const next = i + (cp > 0xffff ? 2 : 1);
      if (isBreak(cp)) {
        this.writeBreak(value.slice(i, next));
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        // The rest of the line at once: no break inside it, one column per code point.
        let end = next;
        while (end < value.length && !isBreak(value.charCodeAt(end))) end++;
        const line = value.slice(i, end);
        this.out += line;
        this.column += codePointLength(line);
        this.indention = false;
        breaks = false;
        i = end;
        continue;
      }
      i = next;
    }
  }
}

/** yaml_emitter_write_block_scalar_hints' chomping: strip, keep, or clip (""). */
function chompHint(value: string): string {
  const lastCp = value.codePointAt(value.length - 1)!;
  if (!isBreak(lastCp)) return "-";
  if (value.length === 1) return "+";
  return isBreak(value.charCodeAt(value.length - 2)) ? "+" : "";
}
