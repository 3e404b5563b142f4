/**
 * The user's path from the artifacts a user would download: `npm pack` of the four packages, their
 * file lists, then `npx opgen init` + `create api` from the installed tarball, and the new project's
 * install, build, manifests and tests on the runtime and envtest tarballs.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";

interface PackResult {
  name: string;
  version: string;
  filename: string;
  size: number;
  entryCount: number;
  files: { path: string }[];
}

const out = tempDir("opgen-pack-");
const packs: Record<string, PackResult & { tarball: string }> = {};

async function pack(args: string[]): Promise<void> {
  // The suite has built everything already (npm test builds first); prepack would build again.
  const { stdout } = await execa(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", out, ...args],
    {
      cwd: REPO_ROOT,
      env: { npm_config_loglevel: "error" },
    },
  );
  for (const result of JSON.parse(stdout) as PackResult[]) {
    packs[result.name] = { ...result, tarball: join(out, result.filename) };
  }
}

const paths = (name: string) => packs[name]!.files.map((f) => f.path);

describe("published packages", () => {
  beforeAll(async () => {
    await pack([]);
    await pack(["-w", "@opgen/apimachinery", "-w", "@opgen/runtime", "-w", "@opgen/envtest"]);
  }, 120_000);

  it("packs opgen with its code, templates and docs, and nothing else", () => {
    const files = paths("opgen");
    for (const must of [
      "bin/opgen.js",
      "dist/cli.js",
      "dist/commands/manifests.js",
      "templates/init/package.json.hbs",
      "templates/init/_gitignore.hbs",
      "templates/api/types.ts.hbs",
      "LICENSE",
      "README.md",
      "CHANGELOG.md",
      "package.json",
    ]) {
      expect(files, must).toContain(must);
    }
    const excluded = files.filter((f) =>
      /^(src|test|packages|bench|examples|docs|scripts|\.ci)\/|\.map$|\.test\.(js|ts)$/.test(f),
    );
    expect(excluded).toEqual([]);
  });

  it.each(["@opgen/runtime", "@opgen/envtest"])(
    "packs %s as built code and declarations only",
    (name) => {
      const files = paths(name);
      for (const must of [
        "dist/index.js",
        "dist/index.d.ts",
        "package.json",
        "README.md",
        "LICENSE",
      ]) {
        expect(files, must).toContain(must);
      }
      expect(
        files.filter(
          (f) =>
            !/^dist\/.*\.(js|d\.ts)$/.test(f) &&
            !["package.json", "README.md", "LICENSE"].includes(f),
        ),
      ).toEqual([]);
    },
  );

  it("packs @opgen/apimachinery with its code and the generated catalog data only", () => {
    const files = paths("@opgen/apimachinery");
    for (const must of [
      "dist/index.js",
      "dist/catalog/index.js",
      "dist/catalog/index.d.ts",
      "data/resources.json",
      "data/defs/io.k8s.api.core.v1.json",
      "data/descriptions/io.k8s.api.core.v1.json",
      "package.json",
      "README.md",
      "LICENSE",
    ]) {
      expect(files, must).toContain(must);
    }
    expect(
      files.filter(
        (f) =>
          !/^dist\/.*\.(js|d\.ts)$/.test(f) &&
          !/^data\/.*\.json$/.test(f) &&
          !["package.json", "README.md", "LICENSE"].includes(f),
      ),
    ).toEqual([]);
  });

  it("lists the runtime's production dependencies in its README", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "packages/runtime/package.json"), "utf8"));
    const readme = readFileSync(join(REPO_ROOT, "packages/runtime/README.md"), "utf8");
    const listed = [...readme.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]!.replace(/ .*$/, ""));
    expect(listed.sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("keeps the four versions in step", () => {
    const version = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version;
    expect(packs.opgen!.version).toBe(version);
    expect(packs["@opgen/apimachinery"]!.version).toBe(version);
    expect(packs["@opgen/runtime"]!.version).toBe(version);
    expect(packs["@opgen/envtest"]!.version).toBe(version);
  });

  describe("installed from the tarballs", () => {
    const home = join(out, "user");
    const project = join(out, "user", "my-operator");
    const npx = (args: string[], cwd: string) =>
      execa("npx", ["--no-install", "opgen", ...args], {
        cwd,
        env: { npm_config_loglevel: "error" },
        all: true,
      });

    beforeAll(async () => {
      mkdirSync(project, { recursive: true });
      await execa("npm", ["init", "-y"], { cwd: home });
      await execa(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          packs.opgen!.tarball,
          packs["@opgen/envtest"]!.tarball,
          packs["@opgen/apimachinery"]!.tarball,
        ],
        { cwd: home, env: { npm_config_loglevel: "error" } },
      );
    }, 240_000);

    it("answers --version with the package version", async () => {
      const { stdout } = await npx(["--version"], home);
      expect(stdout.trim()).toBe(packs.opgen!.version);
    });

    it("scaffolds, builds, generates and tests a project on the runtime and envtest tarballs", async () => {
      await npx(
        [
          "init",
          "--domain",
          "example.com",
          "--runtime-spec",
          `file:${packs["@opgen/runtime"]!.tarball}`,
          "--envtest-spec",
          `file:${packs["@opgen/envtest"]!.tarball}`,
          "--opgen-spec",
          `file:${packs.opgen!.tarball}`,
          "--apimachinery-spec",
          `file:${packs["@opgen/apimachinery"]!.tarball}`,
        ],
        project,
      );
      await npx(
        ["create", "api", "--group", "web", "--version", "v1alpha1", "--kind", "Site"],
        project,
      );
      const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
      expect(pkg.dependencies["@opgen/runtime"]).toBe(`file:${packs["@opgen/runtime"]!.tarball}`);
      const run = (script: string) =>
        execa("npm", ["run", script], { cwd: project, all: true, env: { CI: "true" } });
      await run("build");
      // The declarations also type-check for bundler-style consumers.
      await execa(
        "npx",
        [
          "tsc",
          "-p",
          "tsconfig.json",
          "--noEmit",
          "--module",
          "esnext",
          "--moduleResolution",
          "bundler",
        ],
        {
          cwd: project,
        },
      );
      await run("manifests");
      const test = await run("test");
      expect(test.all).toMatch(/1 passed/);
      expect(
        readFileSync(join(project, "config/crd/bases/web.example.com_sites.yaml"), "utf8"),
      ).toContain("name: sites.web.example.com");
    }, 300_000);
  });
});
