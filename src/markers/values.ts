/**
 * The value grammar of marker arguments, as controller-gen reads it: `key=value` pairs, quoted
 * strings (`"..."` with escapes, `'...'`, backticks verbatim), lists written `a;b` or `{a,b}`,
 * maps `{key: value}`, numbers and booleans, and the type a value must have for its argument.
 */
import { parse as parseYaml } from "yaml";
import { yamlReason } from "../util/yaml-errors.js";
import type { ArgSpec, MarkerValue } from "./types.js";

export interface Token {
  key: string;
  raw: string;
  /** Offset of the value in the argument text. */
  at: number;
  hasValue: boolean;
}

/** Splits `key=value` pairs separated by commas or whitespace; quoted values may hold both. */
export function tokenize(text: string, fail: (offset: number, message: string) => void): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === "," || /\s/.test(text[i]!))) i++;
    if (i >= n) break;
    const keyMatch = /^[A-Za-z][A-Za-z0-9_.-]*/.exec(text.slice(i));
    if (!keyMatch) {
      fail(i, `expected key=value, got "${text.slice(i).split(/[\s,]/)[0]}"`);
      return tokens;
    }
    const key = keyMatch[0];
    i += key.length;
    if (text[i] !== "=") {
      tokens.push({ key, raw: "", at: i, hasValue: false });
      continue;
    }
    i++;
    const start = i;
    while (i < n && text[i] !== "," && !/\s/.test(text[i]!)) {
      const q = text[i]!;
      if (q === '"' || q === "'" || q === "`") {
        const close = closingQuote(text, i);
        if (close < 0) {
          fail(i, `unterminated ${q} quote`);
          return tokens;
        }
        i = close + 1;
      } else if (q === "{") {
        // controller-gen's `{a,b}` lists and `{k: v}` maps hold commas and spaces.
        const close = closingBrace(text, i);
        if (close < 0) {
          fail(i, "unterminated { (a list is {a,b}, a map {key: value})");
          return tokens;
        }
        i = close + 1;
      } else {
        i++;
      }
    }
    tokens.push({ key, raw: text.slice(start, i), at: start, hasValue: true });
  }
  return tokens;
}

/** Index of the quote closing the one at `open` (backslash escapes inside "..." and '...'). */
function closingQuote(text: string, open: number): number {
  const q = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\" && q !== "`") {
      i++;
      continue;
    }
    if (text[i] === q) return i;
  }
  return -1;
}

/** Index of the `}` closing the `{` at `open` (nesting and quotes respected), or -1. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const close = closingQuote(text, i);
      if (close < 0) return -1;
      i = close;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits on `sep` outside quotes and braces. */
function splitTop(raw: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const close = closingQuote(raw, i);
      if (close > 0) i = close;
    } else if (c === "{") {
      const close = closingBrace(raw, i);
      if (close > 0) i = close;
    } else if (c === sep) {
      parts.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(raw.slice(start));
  return parts.map((p) => p.trim());
}

/**
 * A list written with commas (`Enum=a,b,c`), which the grammar reads as the one element "a,b,c"
 * (elements are joined with `;` or written `{a,b,c}`): the elements its author most likely meant,
 * or undefined for any other list (a quoted `"a,b"` is one element on purpose).
 */
export function commaJoinedList(raw: string): string[] | undefined {
  if (raw.startsWith("{")) return undefined;
  const parts = splitTop(raw, ";");
  if (parts.length !== 1) return undefined;
  const elements = splitTop(parts[0]!, ",");
  return elements.length > 1 && elements.every((e) => e !== "") ? elements : undefined;
}

/** The elements of a `{a,b}` list, or undefined when `raw` is not one braced group. */
function bracedElements(raw: string): string[] | undefined {
  if (!raw.startsWith("{") || closingBrace(raw, 0) !== raw.length - 1) return undefined;
  const inner = raw.slice(1, -1).trim();
  return inner === "" ? [] : splitTop(inner, ",");
}

/** Whether a braced group is a map: `{}` or a first element `key: value` (controller-gen's guess). */
function isBracedMap(elements: readonly string[]): boolean {
  if (elements.length === 0) return true;
  const first = elements[0]!;
  return /^("[^"]*"|'[^']*'|[A-Za-z0-9_./-]+)\s*:/.test(first);
}

/** The unquoted value if `raw` is exactly one quoted string, else undefined. */
function unquote(raw: string): string | undefined {
  const q = raw[0];
  if ((q !== '"' && q !== "'" && q !== "`") || raw.length < 2) return undefined;
  if (closingQuote(raw, 0) !== raw.length - 1) return undefined;
  const body = raw.slice(1, -1);
  if (q === "`") return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    switch (c[0]) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "u":
        return String.fromCharCode(Number.parseInt(c.slice(1), 16));
      default:
        return c;
    }
  });
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Controller-gen's guess for untyped values (`guessType`): quoted -> string, `{...}` -> a map if
 * its first element is `key: value` (or it is `{}`), else a list; numbers, booleans, else string.
 */
function guess(raw: string): MarkerValue {
  const q = unquote(raw);
  if (q !== undefined) return q;
  const elements = bracedElements(raw);
  if (elements) {
    if (!isBracedMap(elements)) return elements.map(guess);
    const map: { [key: string]: MarkerValue } = {};
    for (const e of elements) {
      const colon = splitTop(e, ":");
      const key = unquote(colon[0]!) ?? colon[0]!;
      map[key] = guess(colon.slice(1).join(":").trim());
    }
    return map;
  }
  // opgen also reads YAML flow sequences (`[x, y]`) where controller-gen would take a string.
  if (raw.startsWith("[")) {
    try {
      return parseYaml(raw, { schema: "core", strict: true }) as MarkerValue;
    } catch {
      return raw;
    }
  }
  if (NUMBER.test(raw)) return Number(raw);
  if (raw === "true" || raw === "false") return raw === "true";
  return raw;
}

export function describeType(spec: ArgSpec): string {
  if (spec.oneOf) return `one of ${spec.oneOf.join(", ")}`;
  switch (spec.type) {
    case "string":
    case "text":
      return "a string";
    case "int":
      return "a whole number";
    case "number":
      return "a number";
    case "bool":
      return "true or false";
    case "list":
      return "a list joined with ;";
    case "any":
      return "a YAML value";
  }
}

/**
 * The value YAML's core schema gives the scalars most `@default`s are (integers, decimals,
 * booleans, bare words), read without the YAML parser, which costs ~0.1 ms a value; undefined
 * for anything else, which the parser reads.
 */
function plainScalar(raw: string): MarkerValue | undefined {
  if (/^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(raw)) return Number(raw);
  if (raw === "true" || raw === "True" || raw === "TRUE") return true;
  if (raw === "false" || raw === "False" || raw === "FALSE") return false;
  if (/^[A-Za-z][A-Za-z0-9_-]*$/.test(raw) && !/^(null|Null|NULL)$/.test(raw)) return raw;
  return undefined;
}

export function convert(
  spec: ArgSpec,
  raw: string,
  whole: boolean,
): MarkerValue | { problem: string } {
  const expected = () => ({ problem: `expected ${describeType(spec)}, got "${raw}"` });
  if (
    (spec.type === "list" || spec.type === "any") &&
    raw.startsWith("{") &&
    closingBrace(raw, 0) !== raw.length - 1
  ) {
    return {
      problem: `unbalanced braces in "${raw}" (a list is {a,b}, a map {key: value}; quote a string that holds braces)`,
    };
  }
  switch (spec.type) {
    case "string":
    case "text": {
      const value = unquote(raw) ?? raw;
      if (spec.oneOf && !spec.oneOf.includes(value)) return expected();
      return value;
    }
    case "int":
      return /^[+-]?\d+$/.test(raw) ? Number(raw) : expected();
    case "number":
      return NUMBER.test(raw) ? Number(raw) : expected();
    case "bool":
      return raw === "true" ? true : raw === "false" ? false : expected();
    case "list": {
      const parts = bracedElements(raw) ?? (raw === "" ? [] : splitTop(raw, ";"));
      if (parts.some((p) => p === "")) return { problem: `empty element in list "${raw}"` };
      const values = parts.map((p) => (spec.items === "any" ? guess(p) : (unquote(p) ?? p)));
      if (spec.oneOf) {
        const bad = values.find((v) => typeof v !== "string" || !spec.oneOf!.includes(v));
        if (bad !== undefined) return { problem: `"${String(bad)}" is not ${describeType(spec)}` };
      }
      return values;
    }
    case "any": {
      if (!whole || raw.startsWith("{")) return guess(raw);
      const plain = plainScalar(raw);
      if (plain !== undefined) return plain;
      try {
        return parseYaml(raw, { schema: "core", strict: true }) as MarkerValue;
      } catch (e) {
        return { problem: `not a valid YAML value: ${yamlReason(e as Error)}` };
      }
    }
  }
}
