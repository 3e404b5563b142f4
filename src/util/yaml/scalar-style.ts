/**
 * Which style yaml.v2 (v2.4) writes a string in: encode.go `stringv` asks for a literal block when
 * the string holds "\n", plain when it reads back as the same string, double-quoted otherwise; then
 * emitterc.go `yaml_emitter_analyze_scalar` and `yaml_emitter_select_scalar_style` fall back from
 * plain to single-quoted and from single-quoted or literal to double-quoted where the characters
 * do not allow them. Only block context matters here: opgen writes flow style for `{}` and `[]` only.
 */
import { canBePlain } from "./scalar-resolve.js";

export type Style = "plain" | "single" | "double" | "literal";

export interface ScalarAnalysis {
  /** Holds a line break (\n, \r, NEL, LS or PS): never a simple key. */
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** yaml.v2's is_printable: what the emitter writes without an escape (tabs and NEL are not). */
export function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

export const isBreak = (cp: number) =>
  cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
const isBlank = (cp: number) => cp === 0x20 || cp === 0x09;
const FIRST_INDICATORS = new Set("#,[]{}&*!|>'\"%@`".split("").map((c) => c.charCodeAt(0)));

/** emitterc.go yaml_emitter_analyze_scalar, for block context. */
export function analyzeScalar(s: string): ScalarAnalysis {
  if (s.length === 0)
    return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  let indicators = s.startsWith("---") || s.startsWith("...");
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
  let precededByWhitespace = true;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const next = i + (cp > 0xffff ? 2 : 1);
    const last = next >= s.length;
    const followedByWhitespace = last || isBlank(s.charCodeAt(next));
    if (i === 0) {
      if (FIRST_INDICATORS.has(cp)) indicators = true;
      else if ((cp === 0x3f || cp === 0x3a || cp === 0x2d) && followedByWhitespace)
        indicators = true;
    } else if (cp === 0x3a && followedByWhitespace) {
      indicators = true;
    } else if (cp === 0x23 && precededByWhitespace) {
      indicators = true;
    }
    if (!isPrintable(cp)) special = true;
    if (cp === 0x20) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    // is_blankz: blanks, breaks and NUL.
    precededByWhitespace = isBlank(cp) || isBreak(cp) || cp === 0;
    i = next;
  }
  let blockPlain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
  let singleQuoted = true;
  let block = !trailingSpace;
  if (breakSpace) blockPlain = singleQuoted = false;
  if (spaceBreak || special) blockPlain = singleQuoted = block = false;
  if (lineBreaks || indicators) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, singleQuoted, block };
}

/** The style yaml.v2 writes `s` in, as a mapping key (`simpleKey`) or as any other scalar. */
export function chooseStyle(s: string, a: ScalarAnalysis, simpleKey: boolean): Style {
  let style: Style = s.includes("\n") ? "literal" : canBePlain(s) ? "plain" : "double";
  if (simpleKey && a.multiline) style = "double";
  if (style === "plain" && (!a.blockPlain || (s.length === 0 && simpleKey))) style = "single";
  if (style === "single" && !a.singleQuoted) style = "double";
  if (style === "literal" && (!a.block || simpleKey)) style = "double";
  return style;
}
