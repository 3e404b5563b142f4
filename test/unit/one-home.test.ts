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

/**
 * What validating a CRD takes, so a second validator shows: the CRD rule compiler and its cost
 * estimate called outside @opgen/apimachinery, or kube's CRD-only messages written outside its
 * apiextensions module (the one CRD validator, which `opgen manifests` and envtest both call).
 */
const CRD_ENGINE = /\b(compileRule|compileCel|crdRuleCostErrors|schemaExpressionErrors)\(/;
const CRD_MESSAGES =
  /must be spec\.names\.plural|must have exactly one version marked as storage version|must be a simple json path starting with|properties are mutual exclusive|must not be empty for specified object fields|must be one of boolean,date,integer,number,string/;

function secondCrdValidators(list: readonly { path: string; text: string }[]): string[] {
  return list
    .filter(
      (f) =>
        (!f.path.startsWith("packages/apimachinery/src/") && CRD_ENGINE.test(f.text)) ||
        (!f.path.startsWith("packages/apimachinery/src/apiextensions/") &&
          CRD_MESSAGES.test(f.text)),
    )
    .map((f) => f.path);
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

  it("validates CRDs in one place, @opgen/apimachinery/apiextensions, for the CLI and envtest", () => {
    expect(secondCrdValidators(files)).toEqual([]);
    const text = (path: string) => files.find((f) => f.path === path)?.text ?? "";
    for (const user of [
      "src/generators/crd/kube-checks.ts",
      "packages/envtest/src/registry/apiextensions/custom-resource-definitions.ts",
    ]) {
      expect(text(user), user).toMatch(/@opgen\/apimachinery\/apiextensions/);
      expect(text(user), user).toMatch(/validateCustomResourceDefinition\(/);
    }
  });

  it("notices a second CRD validation path (a planted one)", () => {
    const planted = [
      // envtest compiling rules against the schema itself again ...
      {
        path: "packages/envtest/src/crd/expressions.ts",
        text: 'import { compileRule } from "@opgen/apimachinery/cel";\nconst p = compileRule(r.rule, { schema: s, root });',
      },
      // ... the CLI compiling them untyped, or checking printer columns in its own words ...
      { path: "src/generators/crd/expression-checks.ts", text: "const c = compileCel(expr);" },
      {
        path: "src/generators/crd/printcolumn-check.ts",
        text: 'detail: "must be a simple json path starting with ."',
      },
      // ... or another apimachinery module repeating the structural checks.
      {
        path: "packages/apimachinery/src/validation/crd.ts",
        text: 'detail: "must have exactly one version marked as storage version"',
      },
    ];
    expect(secondCrdValidators(planted)).toEqual(planted.map((f) => f.path));
    expect(
      secondCrdValidators([
        { path: "packages/apimachinery/src/apiextensions/columns.ts", text: planted[2]!.text },
        { path: "packages/apimachinery/src/validation/cel.ts", text: planted[0]!.text },
      ]),
    ).toEqual([]);
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
