/**
 * What the schema walker stands on: the project's source files indexed by name (declarations,
 * imports, re-exports), type names resolved to declarations, the runtime's aliases or client-node
 * models, and markers parsed from JSDoc once per node and applied in controller-gen's order, with
 * every problem reported as a positioned diagnostic.
 */

import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { ts } from "ts-morph";
import { parseMarkers } from "../../markers/parse.js";
import type { MarkerTarget, ParsedMarker } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { ProjectSources, SourceFileInfo } from "../../source/project-sources.js";
import { markerRegistry } from "../markers.js";
import { RUNTIME_TYPES } from "./known-types.js";
import { recordChanges, snapshot } from "./provenance.js";
import { valueProblems } from "./value-checks.js";
import { isExported } from "./walker-util.js";

export type Declaration =
  | ts.InterfaceDeclaration
  | ts.TypeAliasDeclaration
  | ts.ClassDeclaration
  | ts.EnumDeclaration;

export const RUNTIME_MODULE = "@opgen/runtime";
export const CLIENT_NODE_MODULE = "@kubernetes/client-node";

/** Schemas of `@kubernetes/client-node` models, by exported name (`V1PodTemplateSpec`). */
export interface CoreTypeProvider {
  /** The Kubernetes minor whose types these are (named when a type is missing). */
  readonly minor: string;
  schema(name: string): JSONSchemaProps | undefined;
}

export type Resolved =
  | { kind: "decl"; decl: Declaration; file: SourceFileInfo }
  | { kind: "runtime"; name: string }
  | { kind: "core"; name: string }
  | { kind: "none"; message: string };

export interface FileIndex {
  decls: Map<string, Declaration>;
  imports: Map<string, { module: string; name: string }>;
  namespaces: Map<string, string>;
  reexports: { name: string; from?: string; local: string }[];
  starExports: string[];
}

export interface WalkerOptions {
  /** Whether fields declared in `file` are optional unless marked @required (package @optional). */
  optionalByDefault(file: SourceFileInfo): boolean;
  coreTypes?: CoreTypeProvider;
}

export class WalkerBase {
  readonly diagnostics: Diagnostic[] = [];
  private readonly markerCache = new Map<ts.Node, ParsedMarker[]>();
  private readonly indexes = new Map<SourceFileInfo, FileIndex>();
  protected readonly ts: typeof ts;

  constructor(
    protected readonly sources: ProjectSources,
    protected readonly options: WalkerOptions,
  ) {
    this.ts = sources.ts;
  }

  // ---- diagnostics and markers ----

  protected report(
    severity: "error" | "warning",
    file: SourceFileInfo,
    node: ts.Node,
    message: string,
  ): void {
    const pos = file.lines.position(node.getStart(file.sf));
    this.diagnostics.push({
      severity,
      file: pos.file,
      line: pos.line,
      column: pos.column,
      message,
    });
  }

  protected error(file: SourceFileInfo, node: ts.Node, message: string): undefined {
    this.report("error", file, node, message);
    return undefined;
  }

  /** The checked markers of a node's JSDoc, parsed (and their errors reported) once. */
  markersOf(file: SourceFileInfo, node: ts.Node, target: MarkerTarget): ParsedMarker[] {
    const cached = this.markerCache.get(node);
    if (cached) return cached;
    const doc = this.sources.jsDoc(file, node);
    let markers: ParsedMarker[] = [];
    if (doc?.tags.length) {
      const parsed = parseMarkers(doc.tags, target, markerRegistry());
      this.diagnostics.push(...parsed.diagnostics);
      markers = parsed.markers;
    }
    this.markerCache.set(node, markers);
    return markers;
  }

  description(file: SourceFileInfo, node: ts.Node): string {
    return this.sources.jsDoc(file, node)?.description ?? "";
  }

  /** Applies schema markers in controller-gen's order: priority, then source order, `items:` last. */
  applyMarkers(schema: JSONSchemaProps, markers: readonly ParsedMarker[], subject: string): void {
    const ordered = markers
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.def.applyToSchema)
      .sort(
        (a, b) =>
          (a.m.def.itemsOf ? 1 : 0) - (b.m.def.itemsOf ? 1 : 0) ||
          (a.m.def.priority ?? 10) - (b.m.def.priority ?? 10) ||
          a.i - b.i,
      );
    const reported = this.diagnostics.length;
    for (const { m } of ordered) {
      const before = snapshot(schema as Record<string, unknown>);
      m.def.applyToSchema!(schema, m.args, {
        subject,
        error: (message) =>
          this.diagnostics.push({
            severity: "error",
            file: m.pos.file,
            line: m.pos.line,
            column: m.pos.column,
            message,
          }),
      });
      recordChanges(schema as Record<string, unknown>, before, m);
    }
    if (this.diagnostics.length > reported) return;
    for (const p of valueProblems(schema, markers, subject)) {
      this.diagnostics.push({ severity: "error", ...p.marker.pos, message: p.message });
    }
  }

  // ---- name resolution ----

  protected index(file: SourceFileInfo): FileIndex {
    const cached = this.indexes.get(file);
    if (cached) return cached;
    const t = this.ts;
    const idx: FileIndex = {
      decls: new Map(),
      imports: new Map(),
      namespaces: new Map(),
      reexports: [],
      starExports: [],
    };
    for (const stmt of file.sf.statements) {
      if (
        t.isInterfaceDeclaration(stmt) ||
        t.isTypeAliasDeclaration(stmt) ||
        t.isClassDeclaration(stmt) ||
        t.isEnumDeclaration(stmt)
      ) {
        if (stmt.name) idx.decls.set(stmt.name.text, stmt);
        if (isExported(t, stmt) && stmt.name)
          idx.reexports.push({ name: stmt.name.text, local: stmt.name.text });
      } else if (t.isImportDeclaration(stmt) && t.isStringLiteral(stmt.moduleSpecifier)) {
        const module = stmt.moduleSpecifier.text;
        const clause = stmt.importClause;
        const bindings = clause?.namedBindings;
        if (bindings && t.isNamedImports(bindings)) {
          for (const el of bindings.elements) {
            idx.imports.set(el.name.text, { module, name: (el.propertyName ?? el.name).text });
          }
        } else if (bindings && t.isNamespaceImport(bindings)) {
          idx.namespaces.set(bindings.name.text, module);
        }
      } else if (t.isExportDeclaration(stmt)) {
        const from =
          stmt.moduleSpecifier && t.isStringLiteral(stmt.moduleSpecifier)
            ? stmt.moduleSpecifier.text
            : undefined;
        if (!stmt.exportClause && from) idx.starExports.push(from);
        else if (stmt.exportClause && t.isNamedExports(stmt.exportClause)) {
          for (const el of stmt.exportClause.elements) {
            idx.reexports.push({
              name: el.name.text,
              local: (el.propertyName ?? el.name).text,
              from,
            });
          }
        }
      }
    }
    this.indexes.set(file, idx);
    return idx;
  }

  /** Finds what a type name written in `file` refers to. */
  resolveName(file: SourceFileInfo, name: string): Resolved {
    const idx = this.index(file);
    const local = idx.decls.get(name);
    if (local) return { kind: "decl", decl: local, file };
    const imported = idx.imports.get(name);
    if (imported) return this.resolveImport(file, imported.module, imported.name);
    return { kind: "none", message: `cannot find type ${name}` };
  }

  protected resolveImport(file: SourceFileInfo, module: string, name: string): Resolved {
    if (module === RUNTIME_MODULE) {
      if (RUNTIME_TYPES[name]) return { kind: "runtime", name };
      return {
        kind: "none",
        message: `${name} from ${RUNTIME_MODULE} has no schema mapping (known: ${Object.keys(RUNTIME_TYPES).join(", ")})`,
      };
    }
    if (module === CLIENT_NODE_MODULE) return { kind: "core", name };
    const target = this.sources.resolveModule(file, module);
    if (!target)
      return {
        kind: "none",
        message: `cannot follow import of ${name} from "${module}" (only relative imports, ${RUNTIME_MODULE} and ${CLIENT_NODE_MODULE} are read)`,
      };
    return this.resolveExport(this.sources.file(target)!, name, new Set());
  }

  private resolveExport(file: SourceFileInfo, name: string, seen: Set<string>): Resolved {
    if (seen.has(file.path)) return { kind: "none", message: `cannot find exported type ${name}` };
    seen.add(file.path);
    const idx = this.index(file);
    for (const re of idx.reexports) {
      if (re.name !== name) continue;
      if (re.from) return this.resolveImport(file, re.from, re.local);
      return this.resolveName(file, re.local);
    }
    for (const from of idx.starExports) {
      const target = this.sources.resolveModule(file, from);
      if (!target) continue;
      const r = this.resolveExport(this.sources.file(target)!, name, seen);
      if (r.kind !== "none") return r;
    }
    return { kind: "none", message: `cannot find exported type ${name} in ${file.rel}` };
  }

  /**
   * Kubebuilder users may paste Go marker comments (`// +kubebuilder:validation:Minimum=1`);
   * opgen reads markers from JSDoc only, so each one is a warning saying how to write it.
   */
  private checkGoStyleMarkers(file: SourceFileInfo): void {
    const re =
      /^([ \t]*\/\/[ \t]*)\+((?:kubebuilder:|k8s:|optional|required|nullable|listType|listMapKey|mapType|structType|groupName|versionName|default)\S*)/gm;
    for (let m = re.exec(file.text); m; m = re.exec(file.text)) {
      const pos = file.lines.position(m.index + m[1]!.length);
      this.diagnostics.push({
        severity: "warning",
        ...pos,
        message: `Go-style marker comment "+${m[2]}" is ignored; write it in the JSDoc comment as @${m[2]}`,
      });
    }
  }

  /** Parses the markers of every declaration and member of a file, so misplaced markers on types no kind uses are reported too. */
  checkFile(file: SourceFileInfo, isRoot: (decl: Declaration) => boolean): void {
    const t = this.ts;
    this.checkGoStyleMarkers(file);
    for (const stmt of file.sf.statements) {
      if (
        t.isInterfaceDeclaration(stmt) ||
        t.isClassDeclaration(stmt) ||
        t.isTypeAliasDeclaration(stmt) ||
        t.isEnumDeclaration(stmt)
      ) {
        this.markersOf(file, stmt, isRoot(stmt) ? "root" : "type");
        const members = t.isTypeAliasDeclaration(stmt)
          ? t.isTypeLiteralNode(stmt.type)
            ? stmt.type.members
            : []
          : t.isEnumDeclaration(stmt)
            ? []
            : stmt.members;
        for (const m of members) {
          if (t.isPropertySignature(m) || t.isPropertyDeclaration(m))
            this.markersOf(file, m, "field");
        }
      }
    }
  }
}
