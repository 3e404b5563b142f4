#!/usr/bin/env node
// Removes the compiled dist/ of the given packages (default: all four) before a pack: tsc never
// deletes what a removed or renamed source compiled to, so a long-lived checkout would otherwise
// publish stale modules. Builds for tests keep dist/ (other test processes may be reading it).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const all = [".", "packages/apimachinery", "packages/runtime", "packages/envtest"];
const packages = process.argv.length > 2 ? process.argv.slice(2) : all;
for (const pkg of packages) {
  if (!all.includes(pkg)) {
    console.error(`clean-dist: unknown package folder ${pkg}; one of ${all.join(", ")}`);
    process.exit(2);
  }
}
for (const pkg of packages) rmSync(join(root, pkg, "dist"), { recursive: true, force: true });
