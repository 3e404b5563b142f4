/**
 * The checkers of test/unit/architecture.test.ts, kept apart so each runs on the real sources and
 * on a planted violation alike: they take sources as text (path + content) and parse them with
 * TypeScript's parser (syntax only, no program), so a planted file needs no disk.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import ts from "typescript";

export interface Source {
  /** Repository-relative, `/`-separated. */
  path: string;
  text: string;
}

/** The product code: the CLI and the three workspaces' `src/`, without declaration files. */
export const PRODUCT_ROOTS = [
  "src",
  "packages/apimachinery/src",
  "packages/runtime/src",
  "packages/envtest/src",
];

export function readSources(root: string, dirs: string[] = PRODUCT_ROOTS): Source[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
    });
  return dirs.flatMap((d) =>
    walk(join(root, d)).map((p) => ({
      path: relative(root, p).split("\\").join("/"),
      text: readFileSync(p, "utf8"),
    })),
  );
}

const parsed = new Map<string, ts.SourceFile>();

function parse(source: Source): ts.SourceFile {
  const key = `${source.path}\0${source.text.length}`;
  let sf = parsed.get(key);
  if (!sf || sf.text !== source.text) {
    sf = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true);
    parsed.set(key, sf);
  }
  return sf;
}

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

// ---------------------------------------------------------------------------------------------
// Layers

export interface ImportEdge {
  from: string;
  line: number;
  spec: string;
  /** `import type`, or every named binding type-only: erased from the emitted JavaScript. */
  typeOnly: boolean;
  /** `await import("...")`: loaded when first used, not when the importer is. */
  dynamic: boolean;
}

/** Every static import, re-export and dynamic `import()` of a source. */
export function importsOf(source: Source): ImportEdge[] {
  const sf = parse(source);
  const out: ImportEdge[] = [];
  const add = (node: ts.Node, spec: string, typeOnly: boolean, dynamic: boolean) =>
    out.push({ from: source.path, line: lineOf(sf, node.getStart(sf)), spec, typeOnly, dynamic });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly, false);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const named = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (!!named &&
          ts.isNamedExports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier.text, typeOnly, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * The layer a repository path belongs to: a workspace (`apimachinery`, `runtime`), the CLI
 * (`cli`), or a folder of envtest's `src/` (`envtest/rest`, `envtest/admission/plugins`, and
 * `envtest/.` for the composition files directly under `src/`).
 */
export function layerOf(path: string): string | undefined {
  if (path.startsWith("src/")) return "cli";
  const ws = /^packages\/(apimachinery|runtime)\/src\//.exec(path);
  if (ws) return ws[1];
  const env = /^packages\/envtest\/src\/(.*)$/.exec(path);
  if (!env) return undefined;
  const parts = env[1]!.split("/");
  if (parts.length === 1) return "envtest/.";
  // admission/ holds the generic chain and dispatcher; its plugins and policies are layers above.
  if (parts[0] === "admission" && parts.length > 2 && ["plugins", "policy"].includes(parts[1]!))
    return `envtest/admission/${parts[1]}`;
  return `envtest/${parts[0]}`;
}

/** The layer an import names: a relative path resolved from its importer, or a workspace. */
export function targetLayer(edge: ImportEdge): string | undefined {
  if (edge.spec.startsWith(".")) {
    return layerOf(posix.normalize(posix.join(dirname(edge.from), edge.spec)));
  }
  const pkg = /^@opgen\/(apimachinery|runtime|envtest)(\/|$)/.exec(edge.spec);
  if (pkg) return pkg[1] === "envtest" ? "envtest" : pkg[1];
  if (edge.spec === "opgen" || edge.spec.startsWith("opgen/")) return "cli";
  return undefined;
}

export interface LayerRule {
  /** Layers this one may import (its own is always allowed). */
  may: string[];
  /** Layers it may import only lazily: a dynamic `import()` or a type-only import. */
  lazily?: string[];
}

/** A layer a layer of envtest imports stands for all of envtest when the importer is outside. */
function allowed(rule: LayerRule, from: string, to: string, edge: ImportEdge): boolean {
  if (to === from) return true;
  const matches = (l: string) => to === l || (l === "envtest" && to.startsWith("envtest/"));
  if (rule.may.some(matches)) return true;
  return (edge.dynamic || edge.typeOnly) && (rule.lazily ?? []).some(matches);
}

/** Imports that cross layers the table does not allow, as `file:line from -> to (spec)`. */
export function layerViolations(sources: Source[], rules: Record<string, LayerRule>): string[] {
  const out: string[] = [];
  for (const source of sources) {
    const from = layerOf(source.path);
    if (!from) continue;
    const rule = rules[from];
    for (const edge of importsOf(source)) {
      const to = targetLayer(edge);
      if (!to || to === from) continue;
      if (!rule || !allowed(rule, from, to, edge))
        out.push(`${edge.from}:${edge.line} ${from} -> ${to} (${edge.spec})`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Function length

export interface FunctionLength {
  where: string;
  name: string;
  lines: number;
}

function functionName(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (node.name) return node.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText(sf);
  return "<anonymous>";
}

/**
 * Functions (declarations, methods, accessors, constructors, arrows, expressions) whose own body
 * spans more than `max` lines: the lines between a block's braces, or an expression body's lines.
 * Nested functions count in their parent's body too: a long function stays long however it nests.
 */
export function longFunctions(sources: Source[], max: number): FunctionLength[] {
  const out: FunctionLength[] = [];
  for (const source of sources) {
    const sf = parse(source);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const body = node.body as ts.Node;
        const first = lineOf(sf, body.getStart(sf));
        const last = lineOf(sf, body.getEnd());
        const lines = ts.isBlock(body) ? last - first - 1 : last - first + 1;
        if (lines > max)
          out.push({
            where: `${source.path}:${lineOf(sf, node.getStart(sf))}`,
            name: functionName(node, sf),
            lines,
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Resource names

/**
 * String literals that name a built-in resource by its plural (`"pods"`), with its group
 * (`"apps/deployments"`, `"/pods"`) or with a subresource (`"pods/eviction"`), as `file:line "text"`.
 */
export function resourceNameLiterals(sources: Source[], plurals: Set<string>): string[] {
  const out: string[] = [];
  const names = (text: string) => {
    if (plurals.has(text)) return true;
    const parts = text.split("/");
    return parts.length === 2 && (plurals.has(parts[0]!) || plurals.has(parts[1]!));
  };
  for (const source of sources) {
    const sf = parse(source);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        names(node.text) &&
        !ts.isImportDeclaration(node.parent) &&
        !ts.isExportDeclaration(node.parent)
      )
        out.push(`${source.path}:${lineOf(sf, node.getStart(sf))} ${JSON.stringify(node.text)}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Store writes

/**
 * Calls of the store's write methods (`commit`, `nextRV`), whatever the receiver is named,
 * outside the layers that may write.
 */
export function storeWrites(sources: Source[], writers: string[]): string[] {
  const out: string[] = [];
  for (const source of sources) {
    if (!source.path.startsWith("packages/envtest/src/")) continue;
    if (writers.includes(layerOf(source.path) ?? "")) continue;
    const sf = parse(source);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ["commit", "nextRV"].includes(node.expression.name.text)
      )
        out.push(`${source.path}:${lineOf(sf, node.getStart(sf))} ${node.getText(sf)}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}
