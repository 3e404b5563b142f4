/**
 * The marker parser: turns the tags of one JSDoc comment into checked markers.
 *
 * Public API (small on purpose; the CRD and RBAC generators both build on it):
 * - `parseMarkers(tags, target, registry)` -> `{ markers, diagnostics }`: every tag that is a
 *   marker, checked against its definition (known name, allowed on `target`, arguments known,
 *   present and of the right type). Standard JSDoc/TSDoc tags (`@see`, `@deprecated`, ...) are
 *   left alone; any other unknown tag is an error with a "did you mean" suggestion.
 * - `markerLabel(def)` -> `@validation Minimum`, for messages.
 * Tags come from `parseJSDoc` in `jsdoc.ts`; definitions from the registry in `registry.ts`.
 *
 * Grammar (DESIGN.md §3): `@name` or `@family Sub`, then either one anonymous value (`Minimum=1`,
 * `@listType map`, `@default {}`) or `key=value` arguments separated by commas or spaces. Values
 * are bare words, numbers, booleans, quoted strings (`"..."` with backslash escapes, `'...'`, or
 * backticks taken verbatim, for regular expressions), lists joined with `;` or written `{a,b}`,
 * and maps `{key: value, k2: {nested: 1}}`, as controller-gen reads them. Controller-gen
 * spellings are accepted too: `@kubebuilder:validation:Minimum=1`, `@kubebuilder:printcolumn:name=...`.
 */
import { parse as parseYaml } from "yaml";
import type { Diagnostic } from "../source/diagnostics.js";
import type { RawTag } from "./jsdoc.js";
import type { MarkerRegistry } from "./registry.js";
import { closest } from "./suggest.js";
import type {
  ArgSpec,
  MarkerDefinition,
  MarkerTarget,
  MarkerValue,
  ParsedMarker,
  SourcePos,
} from "./types.js";

/** JSDoc and TSDoc tags that are documentation, not markers. */
const DOC_TAGS = new Set([
  "alpha",
  "author",
  "beta",
  "category",
  "copyright",
  "decorator",
  "defaultValue",
  "deprecated",
  "description",
  "eventProperty",
  "experimental",
  "file",
  "fileoverview",
  "hidden",
  "ignore",
  "inheritDoc",
  "internal",
  "label",
  "license",
  "link",
  "module",
  "note",
  "override",
  "packageDocumentation",
  "param",
  "privateRemarks",
  "public",
  "readonly",
  "remarks",
  "return",
  "returns",
  "sealed",
  "see",
  "since",
  "summary",
  "template",
  "throws",
  "todo",
  "type",
  "typeParam",
  "typedef",
  "version",
  "virtual",
]);

/** Controller-gen markers with no meaning for TypeScript types; accepted and ignored. */
const IGNORED_KUBEBUILDER = new Set(["object:root", "object:generate", "skip"]);

export interface ParseResult {
  markers: ParsedMarker[];
  diagnostics: Diagnostic[];
}

const TARGET_WORDS: Record<MarkerTarget, string> = {
  field: "a field",
  type: "a type",
  root: "a root type (@resource)",
  package: "the GroupVersion const of groupversion.ts",
  controller: "a controller",
};

export function markerLabel(def: MarkerDefinition): string {
  return `@${def.name}`;
}

function error(pos: SourcePos, message: string): Diagnostic {
  return { severity: "error", file: pos.file, line: pos.line, column: pos.column, message };
}

/** Whether a marker allowed on `targets` may stand on `target` (a root kind is also a type). */
function allowedOn(targets: readonly MarkerTarget[], target: MarkerTarget): boolean {
  return targets.includes(target) || (target === "root" && targets.includes("type"));
}

export function parseMarkers(
  tags: readonly RawTag[],
  target: MarkerTarget,
  registry: MarkerRegistry,
): ParseResult {
  const markers: ParsedMarker[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const tag of tags) {
    if (DOC_TAGS.has(tag.name)) continue;
    const resolved = resolve(tag, registry);
    if (resolved === "ignored") continue;
    if ("message" in resolved) {
      diagnostics.push(error(tag.pos, resolved.message));
      continue;
    }
    const { def, textOffset, lenient } = resolved;
    const label = markerLabel(def);
    if (!allowedOn(def.targets, target)) {
      const where = def.targets.map((t) => TARGET_WORDS[t]).join(" or ");
      diagnostics.push(
        error(tag.pos, `${label} cannot stand on ${TARGET_WORDS[target]}; it belongs on ${where}`),
      );
      continue;
    }
    if (!def.repeatable && markers.some((m) => m.def === def)) {
      diagnostics.push(error(tag.pos, `${label} is given more than once`));
      continue;
    }
    const before = diagnostics.length;
    const args = parseArgs(def, tag, textOffset, lenient, diagnostics);
    if (diagnostics.length === before) {
      markers.push({
        def,
        args,
        pos: tag.pos,
        source: `@${tag.name}${tag.text ? ` ${tag.text}` : ""}`,
      });
    }
  }
  return { markers, diagnostics };
}

type Resolved =
  | { def: MarkerDefinition; textOffset: number; lenient: boolean }
  | { message: string }
  | "ignored";

/** Finds the definition a tag names; `textOffset` is where its arguments start in `tag.text`. */
function resolve(tag: RawTag, registry: MarkerRegistry): Resolved {
  if (tag.name.startsWith("kubebuilder:")) return resolveKubebuilder(tag, registry);
  const word = tag.name;
  if (registry.isFamily(word)) {
    const m = /^[A-Za-z][A-Za-z0-9_:]*/.exec(tag.text);
    const members = registry.familyMembers(word);
    if (!m) {
      return {
        message: `@${word} needs a marker name (one of ${members.filter((s) => !s.includes(":")).join(", ")})`,
      };
    }
    const def = registry.get(`${word} ${m[0]}`);
    if (!def) {
      const hint = closest(m[0], members);
      return {
        message: `unknown marker @${word} ${m[0]}${hint ? `; did you mean @${word} ${hint}?` : ""}`,
      };
    }
    return { def, textOffset: m[0].length, lenient: false };
  }
  const def = registry.get(word);
  if (!def) {
    const hint = closest(word, registry.tagNames());
    return { message: `unknown marker @${word}${hint ? `; did you mean @${hint}?` : ""}` };
  }
  return { def, textOffset: 0, lenient: false };
}

/**
 * `@kubebuilder:validation:Minimum=1`, `@kubebuilder:printcolumn:name="Age",type=date` ...: the
 * name up to `=` names the marker; when it does not, its last `:` segment is the first argument's
 * name, as controller-gen reads it. Argument names then match case-insensitively (`JSONPath`).
 */
/** controller-gen names whose opgen marker has another name. */
const KUBEBUILDER_RENAMES: Readonly<Record<string, string>> = {
  "validation:Optional": "optional",
  "validation:Required": "required",
  "pruning:PreserveUnknownFields": "validation:XPreserveUnknownFields",
  "validation:EmbeddedResource": "validation:XEmbeddedResource",
};

function resolveKubebuilder(tag: RawTag, registry: MarkerRegistry): Resolved {
  const bare = tag.name.slice("kubebuilder:".length);
  const segments = (KUBEBUILDER_RENAMES[bare] ?? bare).split(":");
  if (
    IGNORED_KUBEBUILDER.has(segments.join(":")) ||
    IGNORED_KUBEBUILDER.has(segments.slice(0, 2).join(":"))
  ) {
    return "ignored";
  }
  const [head, ...rest] = segments;
  const candidates: { name: string; argName?: string }[] = [];
  if (head && registry.isFamily(head)) {
    candidates.push({ name: `${head} ${rest.join(":")}` });
    if (rest.length > 1)
      candidates.push({ name: `${head} ${rest.slice(0, -1).join(":")}`, argName: rest.at(-1) });
  } else {
    candidates.push({ name: segments.join(":") });
    if (segments.length > 1)
      candidates.push({ name: segments.slice(0, -1).join(":"), argName: segments.at(-1) });
  }
  for (const c of candidates) {
    const def = registry.get(c.name);
    if (!def) continue;
    if (c.argName) {
      // Re-read "name" + '="Age",...' as 'name="Age",...' by pretending the text starts earlier.
      return { def, textOffset: -c.argName.length, lenient: true };
    }
    return { def, textOffset: 0, lenient: true };
  }
  const hint =
    head && registry.isFamily(head)
      ? closest(rest.join(":"), registry.familyMembers(head))
      : closest(segments.join(":"), registry.tagNames());
  const suggestion =
    hint &&
    (head && registry.isFamily(head) ? `@kubebuilder:${head}:${hint}` : `@kubebuilder:${hint}`);
  return {
    message: `unknown marker @${tag.name}${suggestion ? `; did you mean ${suggestion}?` : ""}`,
  };
}

interface Token {
  key: string;
  raw: string;
  /** Offset of the value in the argument text. */
  at: number;
  hasValue: boolean;
}

function parseArgs(
  def: MarkerDefinition,
  tag: RawTag,
  textOffset: number,
  lenient: boolean,
  diagnostics: Diagnostic[],
): Record<string, MarkerValue> {
  const label = markerLabel(def);
  // A negative offset means the kubebuilder alias carried the first argument's name in the tag name.
  const prefix = textOffset < 0 ? tag.name.slice(tag.name.length + textOffset) : "";
  const text = prefix + tag.text.slice(Math.max(0, textOffset));
  const base = Math.max(0, textOffset) - prefix.length;
  const at = (offset: number) => tag.positionOf(Math.max(0, base + offset));
  const out: Record<string, MarkerValue> = {};

  if (def.args.length === 0) {
    const extra = text.replace(/^=\s*true\s*$/, "").trim();
    if (extra)
      diagnostics.push(
        error(at(text.indexOf(extra)), `${label} takes no arguments, got "${extra}"`),
      );
    return out;
  }

  const anonymous = def.args.length === 1 && def.args[0]!.name === "" ? def.args[0]! : undefined;
  if (anonymous) {
    let start = 0;
    while (start < text.length && /\s/.test(text[start]!)) start++;
    if (text[start] === "=") start++;
    while (start < text.length && /\s/.test(text[start]!)) start++;
    const raw = text.slice(start).trim();
    if (!raw) {
      if (anonymous.type === "bool") out[""] = true;
      else if (anonymous.required !== false)
        diagnostics.push(error(tag.pos, `${label}: missing value (${describeType(anonymous)})`));
      return out;
    }
    const value = convert(anonymous, raw, true);
    if (typeof value === "object" && value !== null && "problem" in value) {
      diagnostics.push(error(at(start), `${label}: ${value.problem}`));
    } else {
      out[""] = value as MarkerValue;
    }
    return out;
  }

  const tokens = tokenize(text, (offset, message) =>
    diagnostics.push(error(at(offset), `${label}: ${message}`)),
  );
  const names = def.args.map((a) => a.name);
  for (const token of tokens) {
    let spec = def.args.find((a) => a.name === token.key);
    if (!spec && lenient)
      spec = def.args.find((a) => a.name.toLowerCase() === token.key.toLowerCase());
    if (!spec) {
      const hint = closest(token.key, names);
      diagnostics.push(
        error(
          at(token.at - token.key.length - (token.hasValue ? 1 : 0)),
          `${label}: unknown argument "${token.key}"${hint ? `; did you mean "${hint}"?` : ""}`,
        ),
      );
      continue;
    }
    if (spec.name in out) {
      diagnostics.push(
        error(at(token.at), `${label}: argument "${spec.name}" is given more than once`),
      );
      continue;
    }
    if (!token.hasValue) {
      if (spec.type === "bool") out[spec.name] = true;
      else
        diagnostics.push(
          error(
            at(token.at),
            `${label}: argument "${spec.name}" needs a value (${describeType(spec)})`,
          ),
        );
      continue;
    }
    const value = convert(spec, token.raw, false);
    if (typeof value === "object" && value !== null && "problem" in value) {
      diagnostics.push(error(at(token.at), `${label}: argument "${spec.name}": ${value.problem}`));
    } else {
      out[spec.name] = value as MarkerValue;
    }
  }
  for (const spec of def.args) {
    if (spec.required && !(spec.name in out) && !tokens.some((t) => t.key === spec.name)) {
      diagnostics.push(
        error(tag.pos, `${label}: missing argument "${spec.name}" (${describeType(spec)})`),
      );
    }
  }
  return out;
}

/** Splits `key=value` pairs separated by commas or whitespace; quoted values may hold both. */
function tokenize(text: string, fail: (offset: number, message: string) => void): Token[] {
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

/** Splits a `;` list outside quotes. */
function splitList(raw: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const close = closingQuote(raw, i);
      if (close > 0) i = close;
    } else if (c === ";") {
      parts.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(raw.slice(start));
  return parts.map((p) => p.trim());
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

function describeType(spec: ArgSpec): string {
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

function convert(spec: ArgSpec, raw: string, whole: boolean): MarkerValue | { problem: string } {
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
      const parts = bracedElements(raw) ?? (raw === "" ? [] : splitList(raw));
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
      try {
        return parseYaml(raw, { schema: "core", strict: true }) as MarkerValue;
      } catch (e) {
        return { problem: `not a valid YAML value: ${(e as Error).message.split("\n")[0]}` };
      }
    }
  }
}
