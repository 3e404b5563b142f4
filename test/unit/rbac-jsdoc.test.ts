/** Finding JSDoc blocks wherever they stand, and never inside strings or templates. */
import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { findJsDocBlocks } from "../../src/generators/rbac/jsdoc-comments.js";

function blocks(source: string): string[] {
  const file = ts.createSourceFile("a.ts", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return findJsDocBlocks(file).map((b) => b.text);
}

describe("findJsDocBlocks", () => {
  it("finds attached, detached and trailing JSDoc blocks in source order", () => {
    const source = [
      "/** module */",
      'import x from "y";',
      "/** on class */",
      "export class A { /** in empty body */ }",
      "function f() { return 1; /** after a statement */ }",
      "/** first */ /** second */ const z = 1;",
      "/** at end of file */",
      "",
    ].join("\n");
    expect(blocks(source)).toEqual([
      "/** module */",
      "/** on class */",
      "/** in empty body */",
      "/** after a statement */",
      "/** first */",
      "/** second */",
      "/** at end of file */",
    ]);
  });

  it("ignores look-alikes in strings, templates, regular expressions and plain comments", () => {
    const source = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test is a template.
      "const s = `/** not ${1} a comment */`;",
      'const t = "/** nor this */";',
      "const r = /\\/\\*\\* nor a regex *\\//;",
      "/* plain */ // line /** comment",
      "/**/ const e = 1;",
    ].join("\n");
    expect(blocks(source)).toEqual([]);
  });
});
