/**
 * The version seam (issue 26, part 7): which Kubernetes a program speaks is its version profile's
 * (`@opgen/apimachinery/version`, read from the catalog data of each minor), so no source outside
 * the profile's home writes a release in code. The scan reads each source's string, template and
 * regular-expression literals (comments are free to name the release a behaviour comes from) and
 * the values of the properties that name a release (`minor`, `gitVersion`, `kubeletVersion`).
 *
 * Allowed, and why:
 * - `packages/apimachinery/src/version/` and `packages/apimachinery/src/catalog/`: the profile's
 *   home and the catalog it reads (today neither needs a literal: the minors are data);
 * - data files (`packages/apimachinery/data/`, `scripts/catalog/minors.json`): not scanned;
 * - ALLOWED below: kube's own messages that quote a fixed release, the same in every minor.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

const ROOTS = ["src", "packages/apimachinery/src", "packages/runtime/src", "packages/envtest/src"];
const HOME = ["packages/apimachinery/src/version/", "packages/apimachinery/src/catalog/"];
/** `1.25`...`1.99`, with or without `v` and a patch, not inside a longer number or an OID. */
const RELEASE = /(?<![\w.])v?1\.(?:2[5-9]|[3-9]\d)(?:\.\d+)?(?![\w.]*\d)/;
const RELEASE_PROPERTIES = new Set(["minor", "gitVersion", "kubeletVersion"]);
/** file → literals kube writes verbatim whatever its release (a deprecation since a release). */
const ALLOWED: Record<string, readonly string[]> = {
  // PodSecurity's AppArmor annotation warning names the release that deprecated the annotation.
  "packages/envtest/src/registry/core/pod-apparmor.ts": [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template literal's source text
    '`metadata.annotations[${annotationKey}]: deprecated since v1.30; use the "appArmorProfile" field instead`',
  ],
};

interface Finding {
  path: string;
  line: number;
  text: string;
}

/** The release literals of one source, outside comments. */
function releaseLiterals(path: string, text: string): Finding[] {
  // Most sources hold nothing that could be a release: they are not parsed.
  if (!/1\\?\.[2-9]\d|minor|gitVersion|kubeletVersion/.test(text)) return [];
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  const report = (node: ts.Node) => {
    const at = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    out.push({ path, line: at, text: node.getText(file) });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node) ||
        ts.isRegularExpressionLiteral(node)) &&
      RELEASE.test(node.text.replace(/\\/g, ""))
    ) {
      const outer = ts.isTemplateLiteralToken(node) ? node.parent.parent : node;
      report(ts.isTemplateExpression(outer) ? outer : node);
    } else if (
      ts.isPropertyAssignment(node) &&
      RELEASE_PROPERTIES.has(node.name.getText(file)) &&
      (ts.isStringLiteral(node.initializer) || ts.isNoSubstitutionTemplateLiteral(node.initializer))
    ) {
      report(node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out.filter((f) => !ALLOWED[f.path]?.includes(f.text));
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

describe("the version seam", () => {
  it("has no Kubernetes release in code outside the version profile's home", () => {
    const files = ROOTS.flatMap((r) => sources(join(REPO_ROOT, r)))
      .map((p) => relative(REPO_ROOT, p))
      .filter((p) => !HOME.some((h) => p.startsWith(h)));
    expect(files.length).toBeGreaterThan(400);
    const found = files.flatMap((p) =>
      releaseLiterals(p, readFileSync(join(REPO_ROOT, p), "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("finds a planted release in code, not in comments or unrelated numbers", () => {
    const planted = [
      "// Kubernetes 1.32 did this; 1.33 does that.",
      "/** kube-apiserver v1.32.0's answer. */",
      'const oid = "1.3.6.1.4.1.57683.2";',
      'const ip = "10.1.32.4";',
      "const ratio = 1.5;",
      'const a = "v1.33.0";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a planted template literal's source
      "const b = `Kubernetes ${x} is not a 1.34 resource`;",
      "const c = /^v1\\.35\\./;",
      'const d = { major: "1", minor: "32" };',
      'const e = { kubeletVersion: "v9.99.0" };',
    ].join("\n");
    expect(releaseLiterals("planted.ts", planted).map((f) => f.line)).toEqual([6, 7, 8, 9, 10]);
  });

  it("lets a listed kube message keep its release, and only that one", () => {
    const path = "packages/envtest/src/registry/core/pod-apparmor.ts";
    const text = `const w = ${ALLOWED[path]![0]};\nconst other = "deprecated since v1.30";`;
    expect(releaseLiterals(path, text).map((f) => f.line)).toEqual([2]);
  });
});
