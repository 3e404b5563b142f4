/**
 * A YAML writer that lays documents out exactly as controller-gen does: Go values through
 * gopkg.in/yaml.v2 (v2.4). That means
 * - map keys sorted by yaml.v2's `keyList.Less` (non-letters before letters, digit runs by value);
 * - block style with 2-space indentation, sequences not indented under their key;
 * - `{}` / `[]` for empty maps and lists;
 * - strings plain when YAML would read them back as the same string, double-quoted when they would
 *   read as something else (`"true"`, `"1"`, `""`), single-quoted when an indicator forbids plain
 *   (`'{}'`, `'*'`, `'a: b'`), literal `|-` blocks when they hold a line break;
 * - plain and quoted scalars folded at a space once the line passes 80 columns.
 * Values are plain JSON-like data: objects, arrays, strings, numbers, booleans, null; `undefined`
 * properties are left out. Used for CRDs and RBAC roles alike.
 */
import { compareKeys, isAscii } from "./yaml/key-order.js";
import { BASE60_FLOAT, resolvesToNonString } from "./yaml/scalar-resolve.js";

// ---- Scalar analysis (emitterc.go yaml_emitter_analyze_scalar) ----

interface ScalarFlags {
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
  multiline: boolean;
}

const isBreakChar = (c: string) =>
  c === "\n" || c === "\r" || c === "\u0085" || c === "\u2028" || c === "\u2029";

function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function analyze(chars: readonly string[]): ScalarFlags {
  if (chars.length === 0)
    return { blockPlain: true, singleQuoted: true, block: false, multiline: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const head = chars.slice(0, 3).join("");
  if (head === "---" || head === "...") blockIndicators = true;
  let precededByWhitespace = true;
  const n = chars.length;
  for (let i = 0; i < n; i++) {
    const c = chars[i]!;
    const next = chars[i + 1];
    const followedByWhitespace =
      next === undefined || next === " " || next === "\t" || isBreakChar(next);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(c)) blockIndicators = true;
      else if ((c === "?" || c === ":") && followedByWhitespace) blockIndicators = true;
      else if (c === "-" && followedByWhitespace) blockIndicators = true;
    } else if (c === ":" && followedByWhitespace) {
      blockIndicators = true;
    } else if (c === "#" && precededByWhitespace) {
      blockIndicators = true;
    }
    if (c === "\t") {
      // yaml.v2 treats tabs as printable; they only matter through the space rules below.
    } else if (!isPrintable(c)) {
      special = true;
    }
    if (c === " ") {
      if (i === 0) leadingSpace = true;
      if (i === n - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakChar(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === n - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === " " || c === "\t" || isBreakChar(c);
  }
  let blockPlain = true;
  let singleQuoted = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) {
    blockPlain = false;
    singleQuoted = false;
  }
  if (spaceBreak || special) {
    blockPlain = false;
    singleQuoted = false;
    block = false;
  }
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { blockPlain, singleQuoted, block, multiline: lineBreaks };
}

// ---- The emitter ----

const BEST_WIDTH = 80;

class Writer {
  private readonly parts: string[] = [];
  column = 0;

  put(s: string): void {
    this.parts.push(s);
    const nl = s.lastIndexOf("\n");
    if (nl >= 0) this.column = codePoints(s.slice(nl + 1));
    else this.column += codePoints(s);
  }

  /** yaml.v2's write_indent: a line break unless already at the start of a line, then spaces. */
  newline(indent: number): void {
    const last = this.parts[this.parts.length - 1];
    const atLineStart = last?.endsWith("\n");
    this.parts.push(`${atLineStart ? "" : "\n"}${" ".repeat(indent)}`);
    this.column = indent;
  }

  toString(): string {
    return this.parts.join("");
  }
}

function codePoints(s: string): number {
  // Surrogate pairs count once, as yaml.v2 counts runes.
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

type Style = "plain" | "single" | "double" | "literal";

function chooseStyle(s: string, chars: readonly string[], simpleKey: boolean): Style {
  const flags = analyze(chars);
  let style: Style;
  if (s.includes("\n")) style = "literal";
  else if (resolvesToNonString(s) || BASE60_FLOAT.test(s)) style = "double";
  else style = "plain";
  if (simpleKey && flags.multiline) style = "double";
  if (style === "plain") {
    if (!flags.blockPlain) style = "single";
    if (chars.length === 0 && simpleKey) style = "single";
  }
  if (style === "single" && !flags.singleQuoted) style = "double";
  if (style === "literal" && (!flags.block || simpleKey)) style = "double";
  return style;
}

const plainCache = new Map<string, boolean>();

/** Whether `s` is written plain (cached: keys and short values repeat a lot in a CRD). */
function isPlain(s: string, simpleKey: boolean): boolean {
  const key = simpleKey ? `k${s}` : `v${s}`;
  let plain = plainCache.get(key);
  if (plain === undefined) {
    plain = chooseStyle(s, Array.from(s), simpleKey) === "plain";
    if (plainCache.size < 50_000) plainCache.set(key, plain);
  }
  return plain;
}

/** Writes a string scalar; `indent` is where folded continuation lines start. */
function writeString(w: Writer, s: string, indent: number, simpleKey: boolean): void {
  // Fast path: a plain scalar that cannot reach past column 80 needs no folding.
  if (
    s.length < 200 &&
    (simpleKey || w.column + s.length <= BEST_WIDTH + 1) &&
    isAscii(s) &&
    isPlain(s, simpleKey)
  ) {
    w.put(s);
    return;
  }
  const chars = Array.from(s);
  const style = chooseStyle(s, chars, simpleKey);
  const allowBreaks = !simpleKey;
  switch (style) {
    case "plain": {
      let spaces = false;
      let buf = "";
      let column = w.column;
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i]!;
        if (c === " ") {
          if (allowBreaks && !spaces && column > BEST_WIDTH && chars[i + 1] !== " ") {
            w.put(buf);
            buf = "";
            w.newline(indent);
            column = indent;
          } else {
            buf += c;
            column++;
          }
          spaces = true;
        } else {
          buf += c;
          column++;
          spaces = false;
        }
      }
      w.put(buf);
      return;
    }
    case "single": {
      w.put("'");
      let spaces = false;
      let buf = "";
      let column = w.column;
      const n = chars.length;
      for (let i = 0; i < n; i++) {
        const c = chars[i]!;
        if (c === " ") {
          if (
            allowBreaks &&
            !spaces &&
            column > BEST_WIDTH &&
            i > 0 &&
            i < n - 1 &&
            chars[i + 1] !== " "
          ) {
            w.put(buf);
            buf = "";
            w.newline(indent);
            column = indent;
          } else {
            buf += c;
            column++;
          }
          spaces = true;
        } else {
          buf += c === "'" ? "''" : c;
          column += c === "'" ? 2 : 1;
          spaces = false;
        }
      }
      w.put(`${buf}'`);
      return;
    }
    case "double": {
      w.put('"');
      let spaces = false;
      let buf = "";
      let column = w.column;
      const n = chars.length;
      for (let i = 0; i < n; i++) {
        const c = chars[i]!;
        if (!isPrintable(c) || c === "\ufeff" || isBreakChar(c) || c === '"' || c === "\\") {
          const e = escapeChar(c);
          buf += e;
          column += e.length;
          spaces = false;
        } else if (c === " ") {
          if (allowBreaks && !spaces && column > BEST_WIDTH && i > 0 && i < n - 1) {
            w.put(buf);
            buf = "";
            w.newline(indent);
            column = indent;
            if (chars[i + 1] === " ") {
              buf += "\\";
              column++;
            }
          } else {
            buf += c;
            column++;
          }
          spaces = true;
        } else {
          buf += c;
          column++;
          spaces = false;
        }
      }
      w.put(`${buf}"`);
      return;
    }
    case "literal": {
      let header = "|";
      if (chars[0] === " " || isBreakChar(chars[0]!)) header += "2";
      const last = chars.length - 1;
      if (!isBreakChar(chars[last]!)) header += "-";
      else if (last === 0 || isBreakChar(chars[last - 1]!)) header += "+";
      w.put(header);
      let breaks = true;
      let buf = "";
      for (const c of chars) {
        if (isBreakChar(c)) {
          buf += "\n";
          breaks = true;
        } else {
          if (breaks) {
            // write_indent: a newline only if we are not already at the start of a line.
            if (buf === "") {
              buf += `\n${" ".repeat(indent)}`;
            } else {
              buf += " ".repeat(indent);
            }
            breaks = false;
          }
          buf += c;
        }
      }
      w.put(buf);
      return;
    }
  }
}

function escapeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  const named: Record<number, string> = {
    0: "0",
    7: "a",
    8: "b",
    9: "t",
    10: "n",
    11: "v",
    12: "f",
    13: "r",
    27: "e",
    34: '"',
    92: "\\",
    133: "N",
    160: "_",
    8232: "L",
    8233: "P",
  };
  if (named[cp] !== undefined) return `\\${named[cp]}`;
  if (cp <= 0xff) return `\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  return `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`;
}

/** A number as Go prints it: integers as such, floats with strconv.FormatFloat(f, 'g', -1, 64). */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return ".nan";
  if (n === Number.POSITIVE_INFINITY) return ".inf";
  if (n === Number.NEGATIVE_INFINITY) return "-.inf";
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  const [mantissa, expText] = n.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 21) {
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return String(n);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

function isEmptyCollection(v: unknown): "{}" | "[]" | undefined {
  if (Array.isArray(v)) return v.length === 0 ? "[]" : undefined;
  if (v !== null && typeof v === "object") {
    return Object.values(v).every((x) => x === undefined) ? "{}" : undefined;
  }
  return undefined;
}

function writeScalar(w: Writer, v: Json, indent: number): void {
  if (v === null) w.put("null");
  else if (typeof v === "boolean") w.put(v ? "true" : "false");
  else if (typeof v === "number") w.put(formatNumber(v));
  else writeString(w, v as string, indent, false);
}

function sortedEntries(obj: { [key: string]: Json | undefined }): [string, Json][] {
  return (Object.entries(obj).filter(([, v]) => v !== undefined) as [string, Json][]).sort(
    ([a], [b]) => compareKeys(a, b),
  );
}

/** Writes a block mapping whose keys start at `indent`; the first key is already positioned if `inline`. */
function writeMapping(
  w: Writer,
  obj: { [key: string]: Json | undefined },
  indent: number,
  inline: boolean,
): void {
  let first = true;
  for (const [key, value] of sortedEntries(obj)) {
    if (!(first && inline)) w.newline(indent);
    first = false;
    writeString(w, key, indent, true);
    w.put(":");
    writeValue(w, value, indent, "mapping");
  }
}

function writeSequence(w: Writer, items: Json[], indent: number, inline: boolean): void {
  let first = true;
  for (const item of items) {
    if (!(first && inline)) w.newline(indent);
    first = false;
    w.put("-");
    writeValue(w, item, indent, "sequence");
  }
}

/** Writes the value after `key:` or `-`; `indent` is the indent of that key or dash. */
function writeValue(w: Writer, value: Json, indent: number, parent: "mapping" | "sequence"): void {
  const empty = isEmptyCollection(value);
  if (empty) {
    w.put(` ${empty}`);
  } else if (Array.isArray(value)) {
    if (parent === "mapping") writeSequence(w, value, indent, false);
    else {
      w.put(" ");
      writeSequence(w, value, indent + 2, true);
    }
  } else if (value !== null && typeof value === "object") {
    if (parent === "mapping") writeMapping(w, value, indent + 2, false);
    else {
      w.put(" ");
      writeMapping(w, value, indent + 2, true);
    }
  } else {
    w.put(" ");
    writeScalar(w, value, indent + 2);
  }
}

/** One YAML document (no `---`), ending with a newline. */
export function toYaml(value: unknown): string {
  const w = new Writer();
  const v = value as Json;
  const empty = isEmptyCollection(v);
  if (empty) return `${empty}\n`;
  if (Array.isArray(v)) {
    writeSequence(w, v, 0, true);
  } else if (v !== null && typeof v === "object") {
    writeMapping(w, v, 0, true);
  } else {
    writeScalar(w, v, 0);
  }
  return `${w.toString()}\n`;
}

/** Documents as controller-gen writes a file: each preceded by `---`. */
export function toYamlDocuments(docs: readonly unknown[]): string {
  return docs.map((d) => `---\n${toYaml(d)}`).join("");
}
