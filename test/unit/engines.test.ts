/**
 * `engines` is a promise to users: every Node.js that satisfies a package's range runs it. That
 * holds only if each production dependency, transitively, accepts at least that range (a
 * dependency that needs Node 22 would break Node 20 users who trust the range). CI runs the suites
 * on Node 20, 22 and 24; this keeps the declared range honest between those runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const read = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** Node's lookup: <dir>/node_modules/<name>, then each parent's, up to the repository. */
function resolveFrom(dir: string, name: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (d === REPO_ROOT || d === dirname(d)) return undefined;
  }
}

/** Every package a production install of the package in `dir` brings, with its folder. */
function productionClosure(dir: string): Map<string, Manifest> {
  const seen = new Map<string, Manifest>();
  const visit = (at: string, manifest: Manifest, optional: Set<string>) => {
    const deps = { ...manifest.optionalDependencies, ...manifest.dependencies };
    for (const name of Object.keys(deps)) {
      const found = resolveFrom(at, name);
      if (!found) {
        // An optional dependency for another platform is not installed here, and need not be.
        if (optional.has(name)) continue;
        throw new Error(`${manifest.name}: dependency ${name} is not installed`);
      }
      if (seen.has(found)) continue;
      const m = read(found);
      seen.set(found, m);
      visit(found, m, new Set(Object.keys(m.optionalDependencies ?? {})));
    }
  };
  const root = read(dir);
  visit(dir, root, new Set(Object.keys(root.optionalDependencies ?? {})));
  return seen;
}

/** Node 20 from 20.19 (require of ES modules unflagged), 22 from 22.12 (likewise), and later. */
const ENGINES = "^20.19.0 || >=22.12.0";

const PACKAGES = ["", "packages/apimachinery", "packages/runtime", "packages/envtest"];

describe("engines.node", () => {
  it("is one range across the published packages and the scaffold", () => {
    const ranges = PACKAGES.map((p) => read(join(REPO_ROOT, p)).engines?.node);
    const scaffold = readFileSync(join(REPO_ROOT, "templates/init/package.json.hbs"), "utf8");
    expect(new Set(ranges)).toEqual(new Set([ENGINES]));
    expect(scaffold).toContain(`"node": ${JSON.stringify(ENGINES)}`);
  });

  for (const pkg of PACKAGES) {
    const dir = join(REPO_ROOT, pkg);
    const { name, engines } = read(dir);
    it(`${name}: every production dependency accepts all of ${engines?.node}`, () => {
      const closure = productionClosure(dir);
      const narrower = [...closure.values()]
        .filter((m) => m.engines?.node && !semver.subset(engines?.node ?? "*", m.engines.node))
        .map((m) => `${m.name}@${m.version} needs node ${m.engines?.node}`);
      expect(narrower).toEqual([]);
    });
  }
});
