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
import type { Diagnostic } from "../source/diagnostics.js";
import type { RawTag } from "./jsdoc.js";
import type { MarkerRegistry } from "./registry.js";
import { closest } from "./suggest.js";
import type {
  MarkerDefinition,
  MarkerTarget,
  MarkerValue,
  ParsedMarker,
  SourcePos,
} from "./types.js";
import { commaJoinedList, convert, describeType, tokenize } from "./values.js";

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
  source: "any JSDoc comment",
};

export function markerLabel(def: MarkerDefinition): string {
  return `@${def.name}`;
}

function error(pos: SourcePos, message: string): Diagnostic {
  return { severity: "error", file: pos.file, line: pos.line, column: pos.column, message };
}

/** `Enum=a,b` is the one value "a,b": said, with the spellings of a list. */
function commaListWarning(
  def: MarkerDefinition,
  raw: string,
  meant: readonly string[],
  pos: SourcePos,
): Diagnostic {
  const name = def.name.split(" ").at(-1)!;
  return {
    severity: "warning",
    ...pos,
    message: `${markerLabel(def)}=${raw} is one value, "${raw}": write ${name}={${meant.join(",")}} or ${name}=${meant.join(";")} for ${meant.length} values (or ${name}="${raw}" to keep one)`,
  };
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
    // A marker that may stand anywhere (`@webhook`) is collected project-wide by its own
    // generator; where another generator reads this comment, it is simply not its business.
    if (def.targets.includes("source") && target !== "source") continue;
    if (!allowedOn(def.targets, target)) {
      const where = def.targets.map((t) => TARGET_WORDS[t]).join(" or ");
      diagnostics.push(
        error(tag.pos, `${label} cannot stand on ${TARGET_WORDS[target]}; it belongs on ${where}`),
      );
      continue;
    }
    const before = diagnostics.length;
    const args = parseArgs(def, tag, textOffset, lenient, diagnostics);
    // A warning (`Enum=a,b`) keeps the marker; an error drops it.
    const valid = !diagnostics.slice(before).some((d) => d.severity === "error");
    const earlier = def.repeatable ? undefined : markers.find((m) => m.def === def);
    if (earlier && valid) {
      // controller-gen takes a repeated marker; the same one twice (an `@storageversion` copied
      // with its type) changes nothing, two different values are a mistake to point out.
      if (JSON.stringify(earlier.args) !== JSON.stringify(args)) {
        diagnostics.push(
          error(
            tag.pos,
            `${label} is given more than once, with different values (line ${earlier.pos.line})`,
          ),
        );
      }
      continue;
    }
    if (valid) {
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
  // As in the lookup, the last segment may be an argument name (`webhok:mutating=true`).
  const hint =
    head && registry.isFamily(head)
      ? closest(rest.join(":"), registry.familyMembers(head))
      : (closest(segments.join(":"), registry.tagNames()) ??
        (segments.length > 1
          ? closest(segments.slice(0, -1).join(":"), registry.tagNames())
          : undefined));
  const suggestion =
    hint &&
    (head && registry.isFamily(head) ? `@kubebuilder:${head}:${hint}` : `@kubebuilder:${hint}`);
  return {
    message: `unknown marker @${tag.name}${suggestion ? `; did you mean ${suggestion}?` : ""}`,
  };
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
      const meant = anonymous.type === "list" ? commaJoinedList(raw) : undefined;
      if (meant) diagnostics.push(commaListWarning(def, raw, meant, at(start)));
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
