import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/util/unified-diff.js";

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("f", "a\n", "a\n")).toBe("");
  });

  it("shows a changed line with context", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n";
    expect(unifiedDiff("x.yaml", before, after)).toBe(
      "--- a/x.yaml\n+++ b/x.yaml\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
    );
  });

  it("shows a new file against /dev/null", () => {
    expect(unifiedDiff("n.yaml", undefined, "a\nb\n")).toBe(
      "--- /dev/null\n+++ b/n.yaml\n@@ -0,0 +1,2 @@\n+a\n+b\n",
    );
  });

  it("splits distant changes into hunks", () => {
    const before = `${Array.from({ length: 20 }, (_, i) => i).join("\n")}\n`;
    const after = before.replace("2\n", "two\n").replace("17\n", "seventeen\n");
    const diff = unifiedDiff("f", before, after);
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain("-17\n+seventeen\n");
  });
});
