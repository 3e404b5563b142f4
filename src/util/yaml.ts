/**
 * A YAML writer that lays documents out exactly as controller-gen does: values through
 * gopkg.in/yaml.v2 (v2.4) Marshal. That means
 * - map keys sorted by yaml.v2's `keyList.Less` (non-letters before letters, digit runs by value);
 * - block style with 2-space indentation, sequences not indented under their key;
 * - `{}` / `[]` for empty maps and lists;
 * - strings plain when YAML would read them back as the same string, double-quoted when they would
 *   read as something else (`"true"`, `"1"`, `""`) or hold characters yaml.v2 escapes (tabs,
 *   control characters, NEL, characters above U+FFFF, a BOM), single-quoted when an indicator
 *   forbids plain (`'{}'`, `'*'`, `'a: b'`), literal `|-` blocks when they hold a line break;
 * - plain and quoted scalars folded at a space once the line passes 80 columns;
 * - keys over 128 bytes or holding a line break in the `? key` / `: value` form;
 * - numbers as yaml.v2 writes the JSON controller-gen produces (`1.2345675e+06`, `1e+20`).
 * The structure follows yaml.v2's emitter state machine (emitterc.go) call for call; the scalar
 * writers are in yaml/emitter.ts. Values are plain JSON-like data: objects, arrays, strings,
 * numbers, booleans, null; `undefined` properties are left out. Used for CRDs, RBAC roles, webhook
 * configurations and samples alike. test/unit/yaml-differential.test.ts checks it against yaml.v2.
 */
import { Emitter } from "./yaml/emitter.js";
import { compareKeys, isAscii } from "./yaml/key-order.js";
import { formatNumber } from "./yaml/number.js";
import { analyzeScalar, chooseStyle, type Style } from "./yaml/scalar-style.js";

export { formatNumber } from "./yaml/number.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/** yaml_emitter_check_simple_key: a key longer than this (in UTF-8 bytes) is written `? key`. */
const MAX_SIMPLE_KEY_BYTES = 128;

interface StringFacts {
  /** The string as written: a lone surrogate becomes U+FFFD, as in the UTF-8 file. */
  text: string;
  valueStyle: Style;
  /** The style as a simple key, or undefined when it cannot be one. */
  keyStyle: Style | undefined;
}

const factsCache = new Map<string, StringFacts>();

/** Style facts of a string (cached: keys and descriptions repeat a lot in a CRD). */
function factsOf(s: string): StringFacts {
  let facts = factsCache.get(s);
  if (facts === undefined) {
    const text = isAscii(s) ? s : s.replace(/\p{Cs}/gu, "\ufffd");
    const analysis = analyzeScalar(text);
    const simple = !analysis.multiline && utf8Length(text) <= MAX_SIMPLE_KEY_BYTES;
    facts = {
      text,
      valueStyle: chooseStyle(text, analysis, false),
      // The one place opgen leaves yaml.v2: it writes the key `<<` plain, and then reads it back
      // as a merge key (an error, or the value's entries merged into the map), as does every
      // YAML 1.1 reader. Quoted, it stays the key "<<". docs/yaml.md lists this exclusion.
      keyStyle: text === "<<" ? "double" : simple ? chooseStyle(text, analysis, true) : undefined,
    };
    if (factsCache.size < 50_000) factsCache.set(s, facts);
  }
  return facts;
}

function utf8Length(s: string): number {
  if (isAscii(s)) return s.length;
  return Buffer.byteLength(s, "utf8");
}

/** yaml_emitter_emit_scalar for a string: the scalar's own indent level, then its writer. */
function writeString(e: Emitter, text: string, style: Style, simpleKey: boolean): void {
  e.increaseIndent(true, false);
  if (style === "plain") e.writePlain(text, !simpleKey);
  else if (style === "single") e.writeSingleQuoted(text, !simpleKey);
  else if (style === "double") e.writeDoubleQuoted(text, !simpleKey);
  else e.writeLiteral(text);
  e.popIndent();
}

function definedEntries(obj: { [key: string]: Json | undefined }): [string, Json][] {
  return Object.entries(obj).filter(([, v]) => v !== undefined) as [string, Json][];
}

/** yaml_emitter_emit_node: `mapping` is true for a mapping's value (mapping_context). */
function writeNode(e: Emitter, v: Json, mapping: boolean): void {
  if (v === null) e.writePlain("null", true);
  else if (typeof v === "boolean") e.writePlain(v ? "true" : "false", true);
  else if (typeof v === "number") e.writePlain(formatNumber(v), true);
  else if (typeof v === "string") {
    const facts = factsOf(v);
    writeString(e, facts.text, facts.valueStyle, false);
  } else if (Array.isArray(v)) {
    if (v.length === 0) writeEmpty(e, "[", "]");
    else writeSequence(e, v, mapping);
  } else {
    const entries = definedEntries(v);
    if (entries.length === 0) writeEmpty(e, "{", "}");
    else writeMapping(e, entries);
  }
}

/** An empty collection: yaml.v2 switches to flow style for it. */
function writeEmpty(e: Emitter, open: string, close: string): void {
  e.writeIndicator(open, true, true, false);
  e.writeIndicator(close, false, false, false);
}

/** yaml_emitter_emit_block_sequence_item: under a key, the dashes stay at the key's indent. */
function writeSequence(e: Emitter, items: Json[], mapping: boolean): void {
  e.increaseIndent(false, mapping && !e.indention);
  for (const item of items) {
    e.writeIndent();
    e.writeIndicator("-", true, false, true);
    writeNode(e, item, false);
  }
  e.popIndent();
}

/** yaml_emitter_emit_block_mapping_key and _value, keys in yaml.v2's order. */
function writeMapping(e: Emitter, entries: [string, Json][]): void {
  // Sorted as written: a lone surrogate sorts as the U+FFFD it becomes.
  const keyed = entries.map(([key, value]) => [factsOf(key), value] as const);
  keyed.sort(([a], [b]) => compareKeys(a.text, b.text));
  e.increaseIndent(false, false);
  for (const [facts, value] of keyed) {
    e.writeIndent();
    if (facts.keyStyle !== undefined) {
      writeString(e, facts.text, facts.keyStyle, true);
      e.writeIndicator(":", false, false, false);
    } else {
      e.writeIndicator("?", true, false, true);
      writeString(e, facts.text, facts.valueStyle, false);
      e.writeIndent();
      e.writeIndicator(":", true, false, true);
    }
    writeNode(e, value, true);
  }
  e.popIndent();
}

/** One YAML document (no `---`), as yaml.v2's Marshal writes it. */
export function toYaml(value: unknown): string {
  const e = new Emitter();
  writeNode(e, value as Json, false);
  // yaml_emitter_emit_document_end: a final line break unless the output already ends a line.
  e.writeIndent();
  return e.text();
}

/** Documents as controller-gen writes a file: each preceded by `---`. */
export function toYamlDocuments(docs: readonly unknown[]): string {
  return docs.map((d) => `---\n${toYaml(d)}`).join("");
}
