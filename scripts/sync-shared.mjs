#!/usr/bin/env node
/**
 * Refreshes the upstream data the repository keeps for its tests and its catalog from the shared
 * design folder (../shared, or OPGEN_SHARED_DIR), so a clone alone is the whole project:
 *
 * - test/fixtures/controller-gen, test/fixtures/webhook: controller-gen's and Kubebuilder's goldens;
 * - test/fixtures/seed-001/example.com_myapps.txt: the CRD printed in seed 001 (the lines from
 *   `apiVersion: apiextensions.k8s.io/v1` to `status: {}`), which the golden test compares with;
 * - reference/kubernetes: the per-minor API data (OpenAPI document, +default markers, commented
 *   protobuf schemas), the bootstrap objects, and the 1.32 defaults and protobuf schemas the
 *   catalog script still reads.
 *
 * `npm run sync:shared` copies; `-- --check` copies nothing and exits 1 naming what differs.
 * Each folder's README or SOURCES note names the upstream files; they travel with the data.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const shared = resolve(process.env.OPGEN_SHARED_DIR ?? join(repo, "..", "shared"));
const check = process.argv.includes("--check");

/** [source under ../shared, target under the repository] */
const TREES = [
  ["fixtures/controller-gen", "test/fixtures/controller-gen"],
  ["fixtures/webhook", "test/fixtures/webhook"],
  ...["1.32", "1.33", "1.34", "1.35", "1.36", "bootstrap", "proto"].map((d) => [
    `reference/kubernetes/${d}`,
    `reference/kubernetes/${d}`,
  ]),
  ["reference/kubernetes/README.md", "reference/kubernetes/README.md"],
  ["reference/kubernetes/defaults-1.32.json", "reference/kubernetes/defaults-1.32.json"],
];
const SEED = "seeds/001_b8fe5b676b5c7c8e.txt";
const SEED_TARGET = "test/fixtures/seed-001/example.com_myapps.txt";

if (!existsSync(shared)) {
  console.error(
    `sync:shared: ${shared} not found; set OPGEN_SHARED_DIR to the shared design folder`,
  );
  process.exit(2);
}

/** Every file under a path (the path itself when it is a file), relative to it. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [""];
  return readdirSync(path, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(path, f)).isFile())
    .sort();
}

function seedCrd() {
  const lines = readFileSync(join(shared, SEED), "utf8").split("\n");
  const start = lines.indexOf("apiVersion: apiextensions.k8s.io/v1");
  const end = lines.indexOf("status: {}", start) + 1;
  return `${lines.slice(start, end).join("\n")}\n`;
}

const stale = [];
for (const [from, to] of TREES) {
  const src = join(shared, from);
  const dst = join(repo, to);
  const names = new Set([...files(src), ...files(dst)]);
  for (const name of names) {
    const a = join(src, name);
    const b = join(dst, name);
    if (!existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b))) {
      stale.push(relative(repo, b) || to);
    }
  }
  if (!check && stale.some((s) => s === to || s.startsWith(`${to}/`))) {
    rmSync(dst, { recursive: true, force: true });
    mkdirSync(dirname(dst), { recursive: true });
    cpSync(src, dst, { recursive: true });
  }
}
const seed = seedCrd();
const seedPath = join(repo, SEED_TARGET);
if (!existsSync(seedPath) || readFileSync(seedPath, "utf8") !== seed) {
  stale.push(SEED_TARGET);
  if (!check) {
    mkdirSync(dirname(seedPath), { recursive: true });
    writeFileSync(seedPath, seed);
  }
}

if (stale.length === 0) console.log(`sync:shared: the repository's copies match ${shared}`);
else if (check) {
  const shown = stale.slice(0, 10).join(", ");
  const more = stale.length > 10 ? ` and ${stale.length - 10} more` : "";
  console.error(
    `sync:shared: ${stale.length} files differ from ${shared}: ${shown}${more}; run npm run sync:shared`,
  );
  process.exit(1);
} else console.log(`sync:shared: refreshed ${stale.length} files from ${shared}`);
