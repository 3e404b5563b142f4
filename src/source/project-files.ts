/**
 * Which TypeScript sources the generators read: every `.ts` file under the scanned folders
 * except tests (`*.test.ts`, `*.spec.ts`, `test/` folders), declaration files, build output,
 * dependencies and dot-folders.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
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
