/**
 * The shapes of the marker catalogue: what a marker definition declares (name, where it may stand,
 * typed arguments, help, how it changes a schema) and what the parser hands back for one marker
 * found in a source file. Definitions live in `definitions/`; the parser and `opgen markers` both
 * read them through the registry, so the catalogue is the single source of marker truth.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";

/**
 * Where a marker may stand.
 * - `field`: a property of an interface, class or object type literal.
 * - `type`: an interface, class or type alias used by a field (also a root type).
 * - `root`: a root kind, the interface or class marked `@resource`.
 * - `package`: the JSDoc of the exported `GroupVersion` const in `groupversion.ts`.
 * - `controller`: a class or function in the controllers folder (`@rbac`).
 * - `source`: any JSDoc comment of any scanned source (`@webhook`, which, like controller-gen's
 *   package-level markers, describes the project rather than the declaration it stands on).
 */
export type MarkerTarget = "field" | "type" | "root" | "package" | "controller" | "source";

/**
 * Argument value types.
 * - `string`: a bare word or a quoted string (`"..."` or `'...'`, or backticks for regular expressions).
 * - `int`, `number`, `bool`: as written (`bool` may be left out on a value-less marker: `UniqueItems`).
 * - `list`: values joined with `;` (`shortName=ac;acs`); elements are strings unless `items: "any"`.
 * - `any`: a YAML flow value (`1`, `ClusterIP`, `{}`, `[a, b]`, `{a: 1}`), as `@default` takes it.
 * - `text`: the rest of the marker as one string, spaces included (`@title A title`).
 */
export type ArgType = "string" | "int" | "number" | "bool" | "list" | "any" | "text";

export type MarkerValue =
  | string
  | number
  | boolean
  | null
  | MarkerValue[]
  | { [key: string]: MarkerValue };

export interface ArgSpec {
  /** Argument name as written (`scope=`); "" for the single anonymous value (`Minimum=1`, `@listType map`). */
  readonly name: string;
  readonly type: ArgType;
  /** Element type of a `list`: plain strings, or typed values (`Enum=1;2;"foo"`). */
  readonly items?: "string" | "any";
  readonly required?: boolean;
  /** Allowed values, checked by the parser (`scope=Namespaced|Cluster`). */
  readonly oneOf?: readonly string[];
  /**
   * The values help shows, left to a later check to refuse (`@printcolumn type=`: the CRD
   * validator refuses others with kube-apiserver's own message).
   */
  readonly suggest?: readonly string[];
  readonly help: string;
}

/** What a schema-applying marker sees: the node's schema and a way to report a misuse. */
export interface ApplyContext {
  /** Where the marker stands, for messages: `field "spec.size"` or `type Foo`. */
  readonly subject: string;
  /** Reports that the marker cannot apply here (wrong type, missing companion marker ...). */
  error(message: string): void;
}

export interface MarkerDefinition {
  /**
   * Name as written after `@`: a single word (`resource`, `default`), or a word and a sub-name for
   * families (`validation Minimum`, `subresource scale`, `validation items:MaxLength`).
   */
  readonly name: string;
  readonly targets: readonly MarkerTarget[];
  /** Empty for flag markers (`@optional`); one anonymous `""` argument, or named arguments. */
  readonly args: readonly ArgSpec[];
  /** Whether the marker may appear more than once on the same target (printcolumn, XValidation). */
  readonly repeatable?: boolean;
  /** Catalogue group, for `opgen markers` and docs/markers.md. */
  readonly group: "validation" | "field" | "topology" | "crd" | "package" | "rbac" | "webhook";
  /** One-line help. */
  readonly help: string;
  /** A complete example as written in a JSDoc comment. */
  readonly example: string;
  /** The controller-gen marker it corresponds to, for translating Kubebuilder code. */
  readonly kubebuilder?: string;
  /**
   * Changes the schema of the node the marker stands on. Markers are applied in ascending
   * `priority` (default 10), then in source order; `items:` variants run after all others.
   */
  readonly applyToSchema?: (schema: JSONSchemaProps, value: MarkerArgs, ctx: ApplyContext) => void;
  readonly priority?: number;
  /** For `validation items:X`: apply to `items` of an array instead of the node itself. */
  readonly itemsOf?: string;
}

/** Parsed arguments by name ("" for the anonymous value). */
export type MarkerArgs = Readonly<Record<string, MarkerValue>>;

/** A position in a source file; line and column are 1-based. */
export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One marker found in a JSDoc comment, checked against its definition. */
export interface ParsedMarker {
  readonly def: MarkerDefinition;
  readonly args: MarkerArgs;
  /** Position of the `@` of the tag. */
  readonly pos: SourcePos;
  /** The tag as written, for messages. */
  readonly source: string;
}
