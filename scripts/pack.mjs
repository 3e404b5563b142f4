#!/usr/bin/env node
// `npm run pack [-- <dir>]`: the four publishable tarballs (opgen and the three @opgen packages) in
// one folder, after one build: the files `npm publish` would ship.
// The folder defaults to `pack/` in the checkout; a relative path is taken from where npm was run.
// `node scripts/pack.mjs --no-build <dir>` packs the dist/ folders as they are (for a test suite
// that has built already while other tests read them) and refuses when one is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const noBuild = args[0] === "--no-build";
const [dirArg, ...extra] = noBuild ? args.slice(1) : args;
if (extra.length > 0 || dirArg?.startsWith("-")) {
  console.error(
    "usage: npm run pack [-- <dir>] or node scripts/pack.mjs [--no-build] [<dir>]: one optional folder for the tarballs (default pack/)",
  );
  process.exit(2);
}
const out = dirArg ? resolve(process.env.INIT_CWD ?? process.cwd(), dirArg) : join(root, "pack");

// npm is npm.cmd on Windows, which only a shell can start.
const shell = process.platform === "win32";
if (noBuild) {
  const entries = [
    "dist/cli.js",
    ...["apimachinery", "runtime", "envtest"].map((p) => `packages/${p}/dist/index.js`),
  ];
  const missing = entries.filter((entry) => !existsSync(join(root, entry)));
  if (missing.length > 0) {
    console.error(
      `pack --no-build: ${missing.join(", ")} missing; run \`npm run build\` first, or pack without --no-build`,
    );
    process.exit(1);
  }
} else if (
  process.env.npm_lifecycle_event !== "pack" ||
  process.env.npm_config_ignore_scripts === "true"
) {
  // `npm run pack` has just run the root's prepack (clean dist/, `npm run build`), as npm runs
  // pre<script> first; started any other way, do the same here. One build for all four (each
  // package's prepack would rebuild @opgen/apimachinery again), to stderr so that stdout holds only
  // the tarballs' paths.
  const clean = spawnSync(process.execPath, [join(root, "scripts/clean-dist.mjs")], {
    stdio: ["ignore", 2, 2],
  });
  if (clean.status !== 0) process.exit(1);
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", 2, 2], shell });
  if (build.status !== 0) {
    console.error(
      `npm run build failed (exit ${build.status}); fix the errors above and run again`,
    );
    process.exit(1);
  }
}
mkdirSync(out, { recursive: true });
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
