/**
 * The TypeScript sources the RBAC generator reads: every `.ts` file under the scanned folders except
 * tests, declaration files and dependencies, parsed lazily and syntax-only (`ts.createSourceFile`,
 * no program, no type checker) so a scan of a whole project stays in the tens of milliseconds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ts } from "ts-morph";
import { compareGoStrings } from "./go-strings.js";

const SKIPPED_DIRS = new Set(["node_modules", "dist", "test", "tests", "__tests__", ".git"]);

function isScannedFile(name: string): boolean {
  return (
    name.endsWith(".ts") &&
    !name.endsWith(".d.ts") &&
    !name.endsWith(".test.ts") &&
    !name.endsWith(".spec.ts")
  );
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * Project-relative POSIX paths of the scanned files under `paths` (folders or single files relative
 * to `projectDir`), sorted and without duplicates. Missing folders are skipped: a project without
 * controllers yet simply has no markers.
 */
export function listSourceFiles(projectDir: string, paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) walk(full);
      } else if (entry.isFile() && isScannedFile(entry.name)) {
        found.add(toPosix(relative(projectDir, full)));
      }
    }
  };
  for (const path of paths) {
    const full = join(projectDir, path);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) walk(full);
    else if (isScannedFile(full)) found.add(toPosix(relative(projectDir, full)));
  }
  return [...found].sort(compareGoStrings);
}

/** Source files by project-relative path, each read and parsed at most once per run. */
export class SourceCache {
  private readonly texts = new Map<string, string | undefined>();
  private readonly parsed = new Map<string, ts.SourceFile | undefined>();

  constructor(readonly projectDir: string) {}

  /** The file's text; undefined when it does not exist. Cheap: no parse. */
  text(path: string): string | undefined {
    if (this.texts.has(path)) return this.texts.get(path);
    const full = join(this.projectDir, path);
    const text =
      existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
    this.texts.set(path, text);
    return text;
  }

  /** The file's syntax tree (parent pointers set); undefined when it does not exist. */
  get(path: string): ts.SourceFile | undefined {
    if (this.parsed.has(path)) return this.parsed.get(path);
    const text = this.text(path);
    const file =
      text === undefined
        ? undefined
        : ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    this.parsed.set(path, file);
    return file;
  }
}
