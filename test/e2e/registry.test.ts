/**
 * The path a user takes once opgen is published: the four tarballs of `npm run pack` published to
 * a local registry (Verdaccio; everything else proxied to npm's own registry), then, in an empty
 * folder and with nothing but that registry, `npx opgen@<version> init`, `npx opgen create api`
 * and `create webhook`, and the new project's build and tests on the packages it installed from
 * the registry: no checkout, no `file:` links.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";
import { type LocalRegistry, startLocalRegistry } from "../helpers/registry.js";

const PACKAGES = ["opgen", "@opgen/apimachinery", "@opgen/runtime", "@opgen/envtest"];
const version = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version as string;

const out = tempDir("opgen-npx-");
const user = join(out, "user");
const project = join(user, "my-operator");
let registry: LocalRegistry;

interface Lockfile {
  packages: Record<string, { version?: string; resolved?: string; link?: boolean }>;
}

afterAll(async () => {
  await registry?.stop();
});

beforeAll(async () => {
  // The tarballs `npm publish` would upload, from the dist/ the suite has built (packaging.test.ts
  // packs a fresh clone, builds included); rebuilding here would rewrite files other tests read.
  const tarballs = join(out, "tarballs");
  // pack.mjs prints paths relative to INIT_CWD (where `npm run` was started), else to its cwd.
  const pack = [join(REPO_ROOT, "scripts/pack.mjs"), "--no-build", tarballs];
  const { stdout } = await execa("node", pack, {
    cwd: REPO_ROOT,
    env: { INIT_CWD: REPO_ROOT },
  });
  registry = await startLocalRegistry({ local: ["opgen", "@opgen/*"] });
  for (const line of stdout.trim().split("\n")) {
    await registry.publish(resolve(REPO_ROOT, line));
  }
  mkdirSync(project, { recursive: true });
}, 180_000);

describe("opgen from a registry", () => {
  // As the user's shell would run them: every npm and npx configured for the local registry.
  const run = (file: string, args: string[], cwd: string) =>
    execa(file, args, { cwd, env: { ...registry.env, CI: "true" }, extendEnv: false, all: true });

  it("serves the four packages from the local registry alone, at the checkout's version", async () => {
    for (const name of PACKAGES) {
      const res = await fetch(`${registry.url}${name.replace("/", "%2f")}`);
      expect(res.status, name).toBe(200);
      const doc = (await res.json()) as {
        "dist-tags": Record<string, string>;
        versions: Record<string, { dist: { tarball: string } }>;
      };
      // Only what was published: a package of the same name upstream is never merged in.
      expect(Object.keys(doc.versions), name).toEqual([version]);
      expect(doc["dist-tags"].latest, name).toBe(version);
      expect(doc.versions[version]!.dist.tarball.startsWith(registry.url), name).toBe(true);
    }
  });

  it("answers npx opgen@<version> --version from the published package", async () => {
    const { stdout } = await run("npx", ["--yes", `opgen@${version}`, "--version"], user);
    expect(stdout.trim()).toBe(version);
    // npx installed it, with its dependencies, into the npx cache from the local registry.
    const npxCache = join(registry.env.npm_config_cache!, "_npx");
    const installs = readdirSync(npxCache);
    expect(installs).toHaveLength(1);
    const lock = JSON.parse(
      readFileSync(join(npxCache, installs[0]!, "package-lock.json"), "utf8"),
    ) as Lockfile;
    expect(lock.packages["node_modules/opgen"]?.resolved).toBe(
      `${registry.url}opgen/-/opgen-${version}.tgz`,
    );
    expect(lock.packages["node_modules/@opgen/envtest"]?.version).toBe(version);
  }, 120_000);

  it("scaffolds and installs with npx opgen@<version> init, every opgen package from the registry", async () => {
    await run("npx", ["--yes", `opgen@${version}`, "init", "--domain", "example.com"], project);
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    // Not from a checkout: the registry at opgen's own version.
    expect(pkg.dependencies["@opgen/runtime"]).toBe(`^${version}`);
    expect(pkg.devDependencies["@opgen/envtest"]).toBe(`^${version}`);
    expect(pkg.devDependencies.opgen).toBe(`^${version}`);
    // @opgen/apimachinery comes with the runtime and envtest; the project names it nowhere.
    expect(pkg.dependencies["@opgen/apimachinery"]).toBeUndefined();

    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as Lockfile;
    for (const name of PACKAGES) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry!.version, name).toBe(version);
      expect(entry!.resolved, name).toBe(
        `${registry.url}${name}/-/${name.replace(/^@opgen\//, "")}-${version}.tgz`,
      );
    }
    const local = Object.entries(lock.packages).filter(
      ([path, e]) => path !== "" && (e.link || !e.resolved?.startsWith(registry.url)),
    );
    expect(local, "installed from elsewhere than the registry").toEqual([]);
  }, 240_000);

  it("creates an API and a webhook with the project's opgen, then builds and passes its tests", async () => {
    const kind = ["--group", "web", "--version", "v1alpha1", "--kind", "Site"];
    // npx finds the opgen the project installed (node_modules/.bin): nothing more to fetch.
    await run("npx", ["--no-install", "opgen", "create", "api", ...kind], project);
    await run(
      "npx",
      [
        "--no-install",
        "opgen",
        "create",
        "webhook",
        ...kind,
        "--defaulting",
        "--programmatic-validation",
      ],
      project,
    );
    await run("npm", ["run", "build"], project);
    expect(
      readFileSync(join(project, "config/crd/bases/web.example.com_sites.yaml"), "utf8"),
    ).toContain("name: sites.web.example.com");
    const test = await run("npm", ["test"], project);
    // The controller test and the webhook test, both run.
    expect(stripVTControlCharacters(test.all)).toMatch(/Test Files {2}2 passed \(2\)/);
  }, 240_000);
});
