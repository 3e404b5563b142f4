/**
 * The project's TypeScript sources, read and parsed at most once per run and shared by every
 * command that reads them (the CRD and RBAC generators behind `manifests` and `dev`). Parsing
 * is syntax-only (`ts.createSourceFile`, no type-checked program), which is what keeps `opgen manifests` fast; the generators resolve the few type references they need by
 * following imports themselves. TypeScript is loaded lazily (through ts-morph, which bundles it),
 * so importing this module type-only costs nothing.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { ts as TsNamespace } from "ts-morph";
import { type JSDocParts, LineMap, parseJSDoc } from "../markers/jsdoc.js";
import { requireWithCodeCache } from "./compile-cache.js";
import type { Diagnostic } from "./diagnostics.js";
import { listSourceFiles } from "./project-files.js";

export type TS = typeof TsNamespace;
export type Node = TsNamespace.Node;

/** One parsed source file. */
export interface SourceFileInfo {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to the project, POSIX separators: what diagnostics print. */
  readonly rel: string;
  readonly text: string;
  readonly sf: TsNamespace.SourceFile;
  readonly lines: LineMap;
}

let tsModule: TS | undefined;

/**
 * Loads the TypeScript compiler API (once): the copy ts-morph bundles, through `require`.
 * Importing the 9 MB CommonJS file from ESM would first scan it for named exports, which costs
 * ~0.4 s per run; `require` skips that, and a V8 code cache (compile-cache.ts) most of compiling it.
 */
export async function loadTypeScript(): Promise<TS> {
  if (!tsModule) {
    const fromTsMorph = createRequire(createRequire(import.meta.url).resolve("ts-morph"));
    const common = fromTsMorph.resolve("@ts-morph/common");
    const compiler = join(dirname(common), "typescript.js");
    tsModule = existsSync(compiler)
      ? (requireWithCodeCache(compiler) as TS)
      : (fromTsMorph("@ts-morph/common") as { ts: TS }).ts;
  }
  return tsModule;
}

export class ProjectSources {
  private readonly files = new Map<string, SourceFileInfo | null>();
  private readonly docs = new Map<Node, JSDocParts | null>();
  private readonly texts = new Map<string, string | null>();
  private readonly trees = new Map<string, TsNamespace.SourceFile | null>();

  /** `ts` is the compiler API (`loadTypeScript()`); create() loads it. */
  constructor(
    readonly ts: TS,
    readonly projectDir: string,
  ) {}

  static async create(projectDir: string): Promise<ProjectSources> {
    return new ProjectSources(await loadTypeScript(), resolve(projectDir));
  }

  /**
   * Absolute paths of the sources under `dirs` (folders or files relative to the project),
   * sorted; see project-files.ts for what is left out.
   */
  listFiles(dirs: readonly string[]): string[] {
    return listSourceFiles(this.projectDir, dirs).map((rel) => join(this.projectDir, rel));
  }

  /** A file's text (path absolute or relative to the project); undefined when it does not exist. */
  text(path: string): string | undefined {
    const abs = resolve(this.projectDir, path);
    if (this.texts.has(abs)) return this.texts.get(abs) ?? undefined;
    const text = existsSync(abs) && statSync(abs).isFile() ? readFileSync(abs, "utf8") : null;
    this.texts.set(abs, text);
    return text ?? undefined;
  }

  /**
   * A file's full syntax tree, with parent pointers and TypeScript's own JSDoc nodes: what the
   * RBAC scan walks upwards through. Costlier than file(), so only the files it reads get one.
   * Its fileName is project-relative (POSIX), as diagnostics print it.
   */
  syntaxTree(path: string): TsNamespace.SourceFile | undefined {
    const abs = resolve(this.projectDir, path);
    const cached = this.trees.get(abs);
    if (cached !== undefined) return cached ?? undefined;
    const text = this.text(abs);
    const tree =
      text === undefined
        ? null
        : this.ts.createSourceFile(
            relative(this.projectDir, abs).split(sep).join("/"),
            text,
            this.ts.ScriptTarget.Latest,
            true,
            this.ts.ScriptKind.TS,
          );
    this.trees.set(abs, tree);
    return tree ?? undefined;
  }

  /** The parsed file at an absolute path, or undefined when it does not exist. */
  file(path: string): SourceFileInfo | undefined {
    const abs = resolve(path);
    const cached = this.files.get(abs);
    if (cached !== undefined) return cached ?? undefined;
    const text = this.text(abs);
    if (text === undefined) {
      this.files.set(abs, null);
      return undefined;
    }
    const rel = relative(this.projectDir, abs).split(sep).join("/");
    // JSDoc is split by our own parser (markers/jsdoc.ts), so TypeScript skips it; no parent
    // pointers either: both make parsing noticeably cheaper on large APIs.
    const sf = this.ts.createSourceFile(
      abs,
      text,
      {
        languageVersion: this.ts.ScriptTarget.Latest,
        jsDocParsingMode: this.ts.JSDocParsingMode.ParseNone,
      },
      false,
      this.ts.ScriptKind.TS,
    );
    const info: SourceFileInfo = { path: abs, rel, text, sf, lines: new LineMap(rel, text) };
    this.files.set(abs, info);
    return info;
  }

  /**
   * Resolves a relative module specifier (`./foo.js`, `../api/v1`) from `from` to a source file
   * path, the way NodeNext maps `.js` imports back to `.ts` sources.
   */
  resolveModule(from: SourceFileInfo, specifier: string): string | undefined {
    if (!specifier.startsWith(".")) return undefined;
    const base = resolve(dirname(from.path), specifier);
    const stem = base.replace(/\.(m?js|tsx?)$/, "");
    for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, "index.ts")]) {
      if (existsSync(candidate)) return candidate;
    }
    return undefined;
  }

  /** The JSDoc comment (`/** ... *\/`) closest before `node`, split into description and tags. */
  jsDoc(file: SourceFileInfo, node: Node): JSDocParts | undefined {
    const cached = this.docs.get(node);
    if (cached !== undefined) return cached ?? undefined;
    const ranges = this.ts.getLeadingCommentRanges(file.text, node.pos) ?? [];
    let result: JSDocParts | null = null;
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i]!;
      if (
        r.kind === this.ts.SyntaxKind.MultiLineCommentTrivia &&
        file.text.startsWith("/**", r.pos) &&
        r.end - r.pos >= 4
      ) {
        result = parseJSDoc(file.text, r.pos, r.end, file.lines);
        break;
      }
    }
    this.docs.set(node, result);
    return result ?? undefined;
  }

  /**
   * The file's first syntax error, if any (later ones are mostly its echoes), as one diagnostic.
   * A `*\/` written inside a JSDoc comment ends the comment and turns the rest into code: that is
   * named as such, with the escape to use, instead of TypeScript's message about the code.
   * `tree` says which parse to read: the lean one of file() (the CRD generator) or the full one of
   * syntaxTree() (the RBAC scan), so checking a file never parses it a second time.
   */
  syntaxErrors(path: string, tree: "lean" | "full" = "lean"): Diagnostic[] {
    const abs = resolve(this.projectDir, path);
    const lean = tree === "lean" ? this.file(abs) : undefined;
    const sf = lean?.sf ?? (tree === "full" ? this.syntaxTree(abs) : undefined);
    if (!sf) return [];
    const parsed = (sf as unknown as { parseDiagnostics?: readonly TsNamespace.Diagnostic[] })
      .parseDiagnostics;
    const first = parsed?.[0];
    if (!first) return [];
    const text = this.text(abs)!;
    const file = lean ?? {
      text,
      lines: new LineMap(relative(this.projectDir, abs).split(sep).join("/"), text),
    };
    const at = first.start ?? 0;
    const early = earlyCommentEnd(file.text, at);
    if (early !== undefined) {
      return [
        {
          severity: "error",
          ...file.lines.position(early),
          message:
            "`*/` ends this JSDoc comment early and the rest of the line is read as code; inside a marker value or description write `*\\/` (opgen reads it as `*/`)",
        },
      ];
    }
    const reason = this.ts.flattenDiagnosticMessageText(first.messageText, " ").replace(/\.$/, "");
    return [
      {
        severity: "error",
        ...file.lines.position(at),
        message: `syntax error: ${reason}; fix the TypeScript source, nothing is generated from a file that does not parse`,
      },
    ];
  }

  /** 1-based position of a node's first token. */
  position(file: SourceFileInfo, node: Node): { file: string; line: number; column: number } {
    return file.lines.position(node.getStart(file.sf));
  }
}

/**
 * Where a JSDoc comment was closed by a `*\/` with more text after it on the same line, just
 * before the syntax error at `errorAt` (a marker value such as a pattern holding `*\/`).
 */
function earlyCommentEnd(text: string, errorAt: number): number | undefined {
  const close = text.lastIndexOf("*/", errorAt);
  if (close < 0) return undefined;
  const open = text.lastIndexOf("/*", close - 1);
  if (open < 0 || text[open + 2] !== "*") return undefined;
  const eol = text.indexOf("\n", close);
  const rest = text.slice(close + 2, eol < 0 ? text.length : eol);
  if (!rest.trim()) return undefined;
  const linesBetween = text.slice(close, errorAt).split("\n").length - 1;
  return linesBetween <= 1 ? close : undefined;
}
