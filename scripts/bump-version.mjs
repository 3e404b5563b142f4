#!/usr/bin/env node
// Sets one version on opgen, @opgen/runtime and @opgen/envtest (they are released in step), on
// the workspace packages' references to each other, and opens a CHANGELOG section for it.
// The scaffold's default dependency range follows opgen's own version (src/generators/scaffold/context.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error("usage: npm run version:bump -- <major.minor.patch[-prerelease]>");
  process.exit(1);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const files = ["package.json", "packages/runtime/package.json", "packages/envtest/package.json"];
const ours = new Set(["opgen", "@opgen/runtime", "@opgen/envtest"]);
for (const file of files) {
  const path = root + file;
  const pkg = JSON.parse(readFileSync(path, "utf8"));
  pkg.version = version;
  for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
    for (const name of Object.keys(pkg[field] ?? {})) {
      if (ours.has(name) && pkg[field][name] !== "*") pkg[field][name] = version;
    }
  }
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
}
const changelog = `${root}CHANGELOG.md`;
const text = readFileSync(changelog, "utf8");
if (!text.includes(`## ${version}`)) {
  writeFileSync(
    changelog,
    text.replace(/\n## /, `\n## ${version}\n\n- (describe the changes)\n\n## `),
  );
}
console.log(
  `opgen, @opgen/runtime and @opgen/envtest are now ${version}; run npm install to update the lockfile.`,
);
