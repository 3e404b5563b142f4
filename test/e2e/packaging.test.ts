/**
 * The user's path from the artifacts a user would download: `npm run pack` in a fresh copy of the
 * checkout (no dist/, so every prepack must build what its package ships), the tarballs' file
 * lists, `npm run opgen` and `npm link` from that checkout, then `npx opgen init` + `create api`
 * from the installed tarballs, and the new project's install, build, manifests and tests on the
 * runtime and envtest tarballs.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";

interface Pack {
  name: string;
  version: string;
  tarball: string;
  files: string[];
}

const out = tempDir("opgen-pack-");
const checkout = join(out, "checkout");
const packDir = join(out, "tarballs");
const packs: Record<string, Pack> = {};
const quiet = { npm_config_loglevel: "error", npm_config_update_notifier: "false" };
let unbuilt: { exitCode?: number; stdout: string; stderr: string };
let unbuiltPack: { exitCode?: number; stdout: string; stderr: string };

/** What a fresh clone holds: tracked and new files of the working tree, nothing ignored (dist/). */
async function copyCheckout(): Promise<void> {
  const { stdout } = await execa(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: REPO_ROOT,
    },
  );
  for (const file of stdout.split("\0")) {
    // A tracked file deleted in the working tree is gone from a clone made after the commit, too.
    if (!file || !existsSync(join(REPO_ROOT, file))) continue;
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(checkout, file));
  }
}

async function readTarball(tarball: string): Promise<Pack> {
  const list = await execa("tar", ["-tzf", tarball]);
  const manifest = await execa("tar", ["-xzOf", tarball, "package/package.json"]);
  const { name, version } = JSON.parse(manifest.stdout) as { name: string; version: string };
  const files = list.stdout.split("\n").map((f) => f.replace(/^package\//, ""));
  return { name, version, tarball, files };
}

const paths = (name: string) => packs[name]!.files;

// A checkout with its node_modules, a user folder and a scaffolded project: ~270 MB per run.
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("published packages", () => {
  beforeAll(async () => {
    await copyCheckout();
    expect(existsSync(join(checkout, "dist")), "the copy has no build").toBe(false);
    // The repository's own install has filled npm's cache with the same lockfile's packages.
    await execa(
      "npm",
      ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"],
      {
        cwd: checkout,
        env: quiet,
      },
    );
    unbuilt = await execa("npm", ["run", "-s", "opgen", "--", "--version"], {
      cwd: checkout,
      reject: false,
    });
    unbuiltPack = await execa("node", ["scripts/pack.mjs", "--no-build", packDir], {
      cwd: checkout,
      reject: false,
    });
    // What a removed source compiled to in a long-lived checkout: the pack must not ship it.
    for (const dir of ["dist", "packages/runtime/dist"]) {
      mkdirSync(join(checkout, dir), { recursive: true });
      writeFileSync(join(checkout, dir, "removed-source.js"), "export {};\n");
    }
    const { stdout } = await execa("npm", ["run", "-s", "pack", "--", packDir], {
      cwd: checkout,
      env: quiet,
    });
    for (const line of stdout.trim().split("\n")) {
      const pack = await readTarball(join(checkout, line));
      packs[pack.name] = pack;
    }
  }, 300_000);

  it("writes the four tarballs to the one folder given to npm run pack", () => {
    expect(Object.keys(packs).sort()).toEqual([
      "@opgen/apimachinery",
      "@opgen/envtest",
      "@opgen/runtime",
      "opgen",
    ]);
    for (const pack of Object.values(packs)) expect(dirname(pack.tarball)).toBe(packDir);
  });

  it("ships each package's dist/ and nothing from tests", () => {
    for (const pack of Object.values(packs)) {
      // npm run pack builds into emptied dist/ folders: nothing compiled earlier survives.
      expect(pack.files, pack.name).not.toContain("dist/removed-source.js");
      // The entry points: bin/opgen.js imports dist/cli.js; the libraries export dist/index.js.
      expect(pack.files, pack.name).toContain(
        pack.name === "opgen" ? "dist/cli.js" : "dist/index.js",
      );
      expect(
        // templates/ holds the files a scaffolded project gets, its test/ folder among them.
        pack.files.filter(
          (f) =>
            !f.startsWith("templates/") &&
            /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]s$/.test(f),
        ),
        pack.name,
      ).toEqual([]);
    }
    // ...while the scaffold's own test files ship with the CLI.
    expect(packs.opgen?.files).toContain("templates/init/test/typecheck.ts.hbs");
  });

  it("tells the user to build first when npm run opgen runs in an unbuilt checkout", () => {
    expect(unbuilt.exitCode).toBe(1);
    expect(unbuilt.stderr.trim()).toBe(
      `opgen: the checkout is not built; run \`npm run build\` in ${checkout} first`,
    );
  });

  it("refuses to pack --no-build what is not built, naming the missing dist/ files", () => {
    expect(unbuiltPack.exitCode).toBe(1);
    expect(unbuiltPack.stdout).toBe("");
    expect(unbuiltPack.stderr.trim()).toBe(
      "pack --no-build: dist/cli.js, packages/apimachinery/dist/index.js, packages/runtime/dist/index.js, packages/envtest/dist/index.js missing; run `npm run build` first, or pack without --no-build",
    );
  });

  it("runs from the checkout with npm run opgen, in the folder it is called from", async () => {
    const version = await execa("npm", ["run", "-s", "opgen", "--", "--version"], {
      cwd: checkout,
    });
    expect(version.stdout.trim()).toBe(packs.opgen!.version);
    const elsewhere = join(out, "from-checkout");
    mkdirSync(elsewhere);
    await execa(
      "npm",
      [
        "run",
        "-s",
        "opgen",
        "--prefix",
        checkout,
        "--",
        "init",
        "--domain",
        "example.com",
        "--skip-install",
      ],
      { cwd: elsewhere, env: quiet },
    );
    // The project lands where the user stands and links the checkout's packages.
    const pkg = JSON.parse(readFileSync(join(elsewhere, "package.json"), "utf8"));
    expect(pkg.dependencies["@opgen/runtime"]).toBe(`file:${join(checkout, "packages/runtime")}`);
    expect(existsSync(join(checkout, "PROJECT"))).toBe(false);
  }, 60_000);

  it("puts the checkout's opgen on the PATH with npm link", async () => {
    // A private global prefix: the test must not touch the machine's global packages.
    const global = join(out, "global");
    await execa("npm", ["link", "--no-audit", "--no-fund"], {
      cwd: checkout,
      env: { ...quiet, npm_config_prefix: global },
    });
    const { stdout } = await execa("opgen", ["--version"], {
      cwd: out,
      env: { PATH: `${join(global, "bin")}${delimiter}${process.env.PATH}` },
    });
    expect(stdout.trim()).toBe(packs.opgen!.version);
    expect(realpathSync(join(global, "lib", "node_modules", "opgen"))).toBe(realpathSync(checkout));
  }, 60_000);

  // npm run pack builds once and packs without scripts; `npm publish` of one package relies on its
  // prepack alone, so take every build away and pack each dependent package by itself.
  it.each(["runtime", "envtest"])(
    "builds @opgen/%s and what it imports in its own prepack, from a clone with nothing built",
    async (dir) => {
      for (const built of ["apimachinery", "runtime", "envtest"]) {
        rmSync(join(checkout, "packages", built, "dist"), { recursive: true, force: true });
      }
      const { stdout } = await execa(
        "npm",
        ["pack", "--dry-run", "--json", "-w", `@opgen/${dir}`],
        { cwd: checkout, env: quiet },
      );
      // The prepack's own output comes first; npm's JSON is the last thing printed.
      const [result] = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as {
        files: { path: string }[];
      }[];
      const files = result!.files.map((f) => f.path);
      expect(files).toContain("dist/index.js");
      expect(files).toContain("dist/index.d.ts");
    },
    120_000,
  );

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
    "packs %s as built code, source maps and declarations only",
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
            !/^dist\/.*\.(js|js\.map|d\.ts)$/.test(f) &&
            !["package.json", "README.md", "LICENSE"].includes(f),
        ),
      ).toEqual([]);
    },
  );

  it.each(["@opgen/runtime", "@opgen/envtest", "@opgen/apimachinery"])(
    "ships %s's source maps, its TypeScript inlined, beside every module",
    async (name) => {
      const files = paths(name);
      const modules = files.filter((f) => /^dist\/.*\.c?js$/.test(f));
      expect(modules.filter((f) => !files.includes(`${f}.map`))).toEqual([]);
      const { stdout } = await execa("tar", [
        "-xzOf",
        packs[name]!.tarball,
        "package/dist/index.js.map",
      ]);
      const map = JSON.parse(stdout) as { sources: string[]; sourcesContent?: string[] };
      expect(map.sources).toEqual(["../src/index.ts"]);
      expect(map.sourcesContent?.[0]).toMatch(/^export /m);
    },
  );

  it("packs @opgen/apimachinery with its code, source maps and the generated catalog data only", () => {
    const files = paths("@opgen/apimachinery");
    for (const must of [
      "dist/index.js",
      "dist/catalog/index.js",
      "dist/catalog/index.d.ts",
      "dist/version/index.js",
      "data/versions.json",
      "data/1.32/resources.json",
      "data/1.32/release.json",
      "data/1.32/defs/io.k8s.api.core.v1.json",
      "data/1.32/descriptions/io.k8s.api.core.v1.json",
      "package.json",
      "README.md",
      "LICENSE",
    ]) {
      expect(files, must).toContain(must);
    }
    expect(
      files.filter(
        (f) =>
          // ES modules, and the CommonJS one that loads the ASN.1 library (certs/asn1-lib.cts).
          !/^dist\/.*\.(c?js|c?js\.map|d\.c?ts)$/.test(f) &&
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
          // As a user would: third-party dependencies from the registry, opgen's from the files.
          ...Object.values(packs).map((p) => p.tarball),
        ],
        { cwd: home, env: quiet },
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
