#!/usr/bin/env node
// `npm run pack [-- <dir>]`: the four publishable tarballs (opgen and the three @opgen packages) in
// one folder, after one build: the files `npm publish` would ship.
// The folder defaults to `pack/` in the checkout; a relative path is taken from where npm was run.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const [dirArg, ...extra] = process.argv.slice(2);
if (extra.length > 0 || dirArg?.startsWith("-")) {
  console.error(
    "usage: npm run pack [-- <dir>]: one optional folder for the tarballs (default pack/)",
  );
  process.exit(2);
}
const out = dirArg ? resolve(process.env.INIT_CWD ?? process.cwd(), dirArg) : join(root, "pack");
mkdirSync(out, { recursive: true });

// npm is npm.cmd on Windows, which only a shell can start.
const shell = process.platform === "win32";
// One build for all four (each package's prepack would rebuild @opgen/apimachinery again), to stderr
// so that stdout holds only the tarballs' paths.
const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", 2, 2], shell });
if (build.status !== 0) {
  console.error(`npm run build failed (exit ${build.status}); fix the errors above and run again`);
  process.exit(1);
}
const run = spawnSync(
  "npm",
  [
    "pack",
    "--json",
    "--ignore-scripts",
    "--workspaces",
    "--include-workspace-root",
    "--pack-destination",
    out,
  ],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], shell },
);
if (run.status !== 0) {
  console.error(`npm pack failed (exit ${run.status}); see above`);
  process.exit(1);
}
const from = process.env.INIT_CWD ?? process.cwd();
for (const { filename } of JSON.parse(run.stdout)) console.log(relative(from, join(out, filename)));
