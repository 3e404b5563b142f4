/**
 * The shape issue 12 asks the code to keep: each Kubernetes concept has one home in
 * @opgen/apimachinery (certificates included, issue 26), and no hand-written source file grows
 * past 600 lines (a file that long holds more than one job).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

const ROOTS = ["src", "packages/apimachinery/src", "packages/runtime/src", "packages/envtest/src"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const files = ROOTS.flatMap((r) => sources(join(REPO_ROOT, r))).map((p) => ({
  path: relative(REPO_ROOT, p),
  text: readFileSync(p, "utf8"),
}));

describe("one home per concept", () => {
  it("defines selector parsers and ApiError only in @opgen/apimachinery", () => {
    const outside = files.filter(
      (f) =>
        !f.path.startsWith("packages/apimachinery/") &&
        /export (function|class|const) (parse(Label|Field)?Selector|ApiError)\b/.test(f.text),
    );
    expect(outside.map((f) => f.path)).toEqual([]);
  });

  it("keeps no JSONSchemaProps interface outside @opgen/apimachinery", () => {
    const outside = files.filter(
      (f) =>
        !f.path.startsWith("packages/apimachinery/") &&
        /export (interface|type) JSONSchemaProps\b/.test(f.text),
    );
    expect(outside.map((f) => f.path)).toEqual([]);
  });

  it("builds and reads X.509 structures only in @opgen/apimachinery/certs", () => {
    // One certificate module: no second minting path (node-forge, hand-written DER) elsewhere.
    const outside = files.filter(
      (f) =>
        !f.path.startsWith("packages/apimachinery/src/certs/") &&
        /from "(node-forge|asn1js|@peculiar\/[\w-]+)"/.test(f.text),
    );
    expect(outside.map((f) => f.path)).toEqual([]);
  });

  it("has no hand-written source file over 600 lines", () => {
    const long = files
      .map((f) => ({ path: f.path, lines: f.text.split("\n").length - 1 }))
      .filter((f) => f.lines > 600);
    expect(long).toEqual([]);
  });

  it("keeps envtest's generic REST store, admission and HTTP layer free of resource names", () => {
    // Per-resource behaviour lives in packages/envtest/src/registry/ (one definition per
    // resource, declared by its group); admission plugins in src/admission/plugins/.
    const generic = files.filter((f) =>
      /^packages\/envtest\/src\/(rest\/(objects|object-reads|object-deletes|write-pipeline|write-steps)|admission\/chain|api\/(registry|subresources)|http\/(handler|table|discovery))\.ts$/.test(
        f.path,
      ),
    );
    expect(generic).toHaveLength(11);
    const named = generic.filter((f) =>
      /\bresource\s*[!=]==\s*"|"(namespaces|pods|services)"|case\s+"\w*\/\w+"/.test(f.text),
    );
    expect(named.map((f) => f.path)).toEqual([]);
  });

  it("has one source infrastructure in the CLI: one file lister and one parse cache", () => {
    const defs = files.filter(
      (f) =>
        f.path.startsWith("src/") &&
        /export (function listSourceFiles|class \w*Source\w*)\b/.test(f.text),
    );
    expect(defs.map((f) => f.path).sort()).toEqual([
      "src/source/project-files.ts",
      "src/source/project-sources.ts",
    ]);
  });
});
