/**
 * The scaffold's scripts/bundle.mjs on a small project of its own: dependencies that read files
 * beside their code (`new URL(..., import.meta.url)`), call `require` for Node built-ins from
 * CommonJS, try an optional native addon, and one that is imported but tree-shaken away. The
 * bundle runs from a folder holding only dist/bundle/.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { renderTemplate } from "../../src/generators/scaffold/render.js";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";

const project = join(tempDir("opgen-bundle-script-"), "project");

function write(path: string, content: string) {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

describe("scripts/bundle.mjs", () => {
  let output: string;
  beforeAll(async () => {
    write("scripts/bundle.mjs", renderTemplate("init/scripts/bundle.mjs.hbs", { header: "" }));
    write("package.json", JSON.stringify({ name: "project", type: "module", license: "MIT" }));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(join(REPO_ROOT, "node_modules/esbuild"), join(project, "node_modules/esbuild"));

    // An ESM package that reads a folder and a file beside its code.
    write(
      "node_modules/catalog/package.json",
      JSON.stringify({
        name: "catalog",
        version: "1.2.3",
        license: "MIT",
        type: "module",
        exports: "./lib/index.js",
      }),
    );
    write("node_modules/catalog/LICENSE", "MIT License\n\nCopyright (c) Catalog Authors\n");
    write("node_modules/catalog/data/kinds.json", '{"kinds":["Pod","Service"]}');
    write("node_modules/catalog/version.txt", "v9\n");
    write(
      "node_modules/catalog/lib/index.js",
      [
        'import { readFileSync } from "node:fs";',
        'const DATA = new URL("../data/", import.meta.url);',
        "export const kinds = () => JSON.parse(readFileSync(new URL('kinds.json', DATA), 'utf8')).kinds;",
        "export const version = () => readFileSync(new URL('../version.txt', import.meta.url), 'utf8').trim();",
      ].join("\n"),
    );
    // A CommonJS package: require() of a built-in, an optional native addon in a try.
    write(
      "node_modules/legacy/package.json",
      JSON.stringify({ name: "legacy", version: "0.1.0", license: "Apache-2.0", main: "index.js" }),
    );
    write("node_modules/legacy/NOTICE", "Legacy\nCopyright The Legacy Authors\n");
    write(
      "node_modules/legacy/index.js",
      [
        'const os = require("node:os");',
        "let native = false;",
        'try { require("bufferutil"); native = true; } catch {}',
        "exports.describe = () => os.platform() + ' native=' + native;",
      ].join("\n"),
    );
    // Installed, as an optional addon may be: still left out of the bundle.
    write(
      "node_modules/bufferutil/package.json",
      JSON.stringify({ name: "bufferutil", version: "4.0.0", license: "MIT", main: "index.js" }),
    );
    write("node_modules/bufferutil/index.js", 'module.exports = { marker: "NATIVE_ADDON_CODE" };');
    // Imported, never used: tree-shaken, so not in the notices.
    write(
      "node_modules/unused/package.json",
      JSON.stringify({
        name: "unused",
        version: "1.0.0",
        license: "MIT",
        type: "module",
        sideEffects: false,
      }),
    );
    write("node_modules/unused/index.js", "export const unused = () => 'unused';");
    // src/extra.ts uses "unused" only in a function nothing calls.
    write(
      "src/extra.ts",
      [
        'import { unused } from "unused";',
        "export const greeting = 'hello';",
        "export function neverCalled(): string { return unused(); }",
      ].join("\n"),
    );
    write(
      "src/main.ts",
      [
        'import { kinds, version } from "catalog";',
        'import legacy from "legacy";',
        'import { greeting } from "./extra.js";',
        "class SampleReconciler { describe(): string { return [greeting, kinds().join(','), version(), legacy.describe()].join(' '); } }",
        "const r = new SampleReconciler();",
        "console.log(r.constructor.name + ': ' + r.describe());",
      ].join("\n"),
    );
    const result = await execa("node", ["scripts/bundle.mjs"], { cwd: project, all: true });
    output = result.all ?? "";
  }, 60_000);

  it("reports what it wrote", () => {
    expect(output).toMatch(
      /^bundled src\/main\.ts into dist\/bundle\/ \(\d+\.\d MB, 2 packages\) in \d+ ms$/m,
    );
  });

  it("runs from the bundle folder alone, with assets, require and no optional addon", async () => {
    const app = join(tempDir("opgen-bundle-app-"), "app");
    cpSync(join(project, "dist/bundle"), app, { recursive: true });
    expect(readdirSync(app).sort()).toEqual([
      "THIRD-PARTY-NOTICES.txt",
      "assets",
      "main.mjs",
      "main.mjs.map",
    ]);
    expect(readFileSync(join(app, "assets/catalog/data/kinds.json"), "utf8")).toContain("Service");
    expect(readFileSync(join(app, "assets/catalog/version.txt"), "utf8")).toBe("v9\n");
    const run = await execa(process.execPath, ["--enable-source-maps", "main.mjs"], {
      cwd: app,
      extendEnv: false,
    });
    expect(run.stdout).toBe(
      `SampleReconciler: hello Pod,Service v9 ${process.platform} native=false`,
    );
  });

  it("keeps bufferutil external, so an installed native addon is never inlined", () => {
    const bundle = readFileSync(join(project, "dist/bundle/main.mjs"), "utf8");
    expect(bundle).toMatch(/require\("bufferutil"\)/);
    expect(bundle).not.toContain("NATIVE_ADDON_CODE");
    expect(
      bundle.startsWith('import { createRequire as __bundleCreateRequire } from "node:module";'),
    ).toBe(true);
  });

  it("lists every bundled package with its license files, and only those", () => {
    const notices = readFileSync(join(project, "dist/bundle/THIRD-PARTY-NOTICES.txt"), "utf8");
    expect(notices).toContain(
      "catalog@1.2.3 (MIT)\n\nMIT License\n\nCopyright (c) Catalog Authors",
    );
    expect(notices).toContain("legacy@0.1.0 (Apache-2.0)\n\nLegacy\nCopyright The Legacy Authors");
    expect(notices).not.toContain("unused@");
    expect(notices).not.toContain("project@");
  });

  it("maps the bundle back to the TypeScript sources", () => {
    const map = JSON.parse(readFileSync(join(project, "dist/bundle/main.mjs.map"), "utf8"));
    expect(map.sources).toContain("../../src/main.ts");
    expect(map.sourcesContent).toBeUndefined();
  });
});
