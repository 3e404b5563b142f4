/**
 * Which TypeScript sources the generators read: every `.ts` file under the scanned folders
 * except tests (`*.test.ts`, `*.spec.ts`, `test/` folders), declaration files, build output,
 * dependencies and dot-folders.
 */
import { readdirSync, readlinkSync, realpathSync, type Stats, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { CliError } from "../util/errors.js";
import { compareGoStrings } from "../util/go-strings.js";

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
 * controllers yet simply has no markers. Symbolic links are followed (a folder reached twice
 * through links is read once, so a link cycle ends); a link that points nowhere is an error
 * naming it, since the sources it stood for would silently be missing.
 */
export function listSourceFiles(projectDir: string, paths: readonly string[]): string[] {
  const found = new Set<string>();
  const visited = new Set<string>();
  const walk = (dir: string): void => {
    const real = realpathSync(dir);
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = statIfExists(full);
        if (!target) {
          throw new CliError(
            `${toPosix(relative(projectDir, full))} is a symbolic link to ${readlinkSync(full)}, which does not exist; fix or remove the link`,
          );
        }
        isDir = target.isDirectory();
        isFile = target.isFile();
      }
      if (isDir) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) walk(full);
      } else if (isFile && isScannedFile(entry.name)) {
        found.add(toPosix(relative(projectDir, full)));
      }
    }
  };
  for (const path of paths) {
    const full = join(projectDir, path);
    const stat = statIfExists(full);
    if (!stat) continue;
    if (stat.isDirectory()) walk(full);
    else if (isScannedFile(full)) found.add(toPosix(relative(projectDir, full)));
  }
  return [...found].sort(compareGoStrings);
}

/**
 * Checks paths a user named (`--paths`, `--rbac-paths`): each must be a folder or a TypeScript
 * source; returns one message per path that is not, saying which and why.
 */
export function badSourcePaths(
  projectDir: string,
  paths: readonly string[],
  flag: string,
): string[] {
  const problems: string[] = [];
  for (const path of paths) {
    const stat = statIfExists(join(projectDir, path));
    if (!stat) problems.push(`${flag} ${path}: no such file or folder in ${projectDir}`);
    // The same rule listSourceFiles reads by: a named file it would skip is no source either.
    else if (!stat.isDirectory() && !(stat.isFile() && isScannedFile(path)))
      problems.push(`${flag} ${path}: not a folder or a .ts source (tests and .d.ts are not read)`);
  }
  return problems;
}

/** stat() that follows links; undefined when the path (or a link's target) does not exist. */
function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}
