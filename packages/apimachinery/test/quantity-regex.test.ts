import { describe, expect, it } from "vitest";
import { parseQuantity, quantityValue } from "../src/quantity/index.js";
import { goRegexpError, goRegexpFindAll, goRegexpMatch } from "../src/regex/index.js";

describe("quantities", () => {
  it.each([
    ["1", 1],
    ["500m", 0.5],
    ["1.5Gi", 1.5 * 2 ** 30],
    ["2e3", 2000],
    ["-1k", -1000],
    [".5", 0.5],
    ["1E-3", 0.001],
  ])("%s = %d", (q, n) => {
    expect(quantityValue(q)).toBeCloseTo(n);
  });

  it.each(["", "1gi", "1 Gi", "Gi", "1.2.3", "1e", "--1", "1e99999"])("refuses %j", (q) => {
    expect(parseQuantity(q)).toBeUndefined();
  });

  it("compares exactly where floats would not", () => {
    const a = parseQuantity("9007199254740993")!;
    const b = parseQuantity("9007199254740992")!;
    expect(a.cmp(b)).toBe(1);
    expect(parseQuantity("0.1")!.add(parseQuantity("0.2")!).cmp(parseQuantity("300m")!)).toBe(0);
  });
});

describe("Go regular expressions", () => {
  it("refuses what Go refuses, with Go's message", () => {
    expect(goRegexpError("+")).toBe(
      "error parsing regexp: missing argument to repetition operator: `+`",
    );
    expect(goRegexpError("(?=a)")).toMatch(/^error parsing regexp: /);
    expect(goRegexpError("^[a-z]+$")).toBeUndefined();
  });

  it("matches unanchored, in linear time", () => {
    expect(goRegexpMatch("b+", "abbc")).toBe(true);
    expect(goRegexpMatch("^(a+)+$", `${"a".repeat(50_000)}b`)).toBe(false);
  });

  it("ignores an empty match abutting the previous one, as Go", () => {
    expect(goRegexpFindAll("a*", "baaab")).toEqual(["", "aaa", ""]);
    expect(goRegexpFindAll("x*", "")).toEqual([""]);
  });
});
