import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The root folder of the installed opgen package (where package.json, templates/ and dist/ live),
 * found by walking up from this module so it works from src/ (tests) and dist/ (the CLI) alike.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "templates")) || !existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("opgen: cannot find the package root (templates/ missing)");
    dir = parent;
  }
  cached = dir;
  return dir;
}
