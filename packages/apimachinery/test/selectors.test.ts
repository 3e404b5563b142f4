import { describe, expect, it } from "vitest";
import {
  fieldValue,
  formatLabelSelector,
  labelSelectorAsSelector,
  parseFieldSelector,
  parseLabelSelector,
  parseSelector,
  selectorFromSet,
  toSelectorString,
} from "../src/selectors/index.js";
import { ApiError } from "../src/status/index.js";

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("did not throw");
}

describe("label selectors", () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ["", undefined, true],
    ["a", { a: "" }, true],
    ["!a", { a: "x" }, false],
    ["!a", {}, true],
    ["a=1,b==2", { a: "1", b: "2" }, true],
    ["a!=1", {}, true],
    ["a!=1", { a: "1" }, false],
    ["a in (1, 2),b notin (3)", { a: "2" }, true],
    ["a in (1,2)", { b: "1" }, false],
    ["a notin (1)", {}, true],
    ["n>5,n<10", { n: "7" }, true],
    ["n>5", { n: "5" }, false],
    ["n>5", { n: "x" }, false],
    ["n<5", {}, false],
    ["x>1", { x: "2" }, true],
    ["example.com/tier=web", { "example.com/tier": "web" }, true],
    [
      "app=web,tier!=db,env in (prod, staging),zone notin (a),release,!canary",
      { app: "web", env: "prod", release: "1" },
      true,
    ],
  ];
  for (const [sel, labels, want] of cases) {
    it(`${sel || "(empty)"} on ${JSON.stringify(labels)} is ${want}`, () => {
      expect(parseLabelSelector(sel).matches(labels)).toBe(want);
    });
  }

  it("answers bad syntax with a 400 and kube's message", () => {
    const cases: [string, string][] = [
      [
        "a=b,,c",
        "unable to parse requirement: found ',', expected: !, identifier, or 'end of string'",
      ],
      ["a in b", "unable to parse requirement: found 'b', expected: '('"],
      [
        "a in ()",
        "unable to parse requirement: for 'in', 'notin' operators, values set can't be empty",
      ],
      [
        "n>x",
        "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: strconv.ParseInt: parsing \"x\": invalid syntax",
      ],
      ["a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ];
    for (const [bad, message] of cases) {
      const e = thrown(() => parseLabelSelector(bad));
      expect(e, bad).toBeInstanceOf(ApiError);
      expect(e.code).toBe(400);
      expect(e.reason).toBe("BadRequest");
      expect(e.message).toBe(message);
    }
    expect(thrown(() => parseLabelSelector("Bad Key=1")).message).toMatch(/expected: in, notin/);
    expect(thrown(() => parseLabelSelector("-bad=1")).message).toMatch(
      /Invalid value: "-bad": name part must consist/,
    );
  });

  it("prints the canonical form, requirements sorted by key as kube sorts them", () => {
    expect(parseLabelSelector("b in (y,x), a=1, !c, n>3").toString()).toBe("a=1,b in (x,y),!c,n>3");
    expect(toSelectorString({ tier: "web", app: "x" })).toBe("app=x,tier=web");
  });

  it("converts metav1.LabelSelector objects as LabelSelectorAsSelector does", () => {
    const sel = labelSelectorAsSelector({
      matchLabels: { app: "web" },
      matchExpressions: [
        { key: "env", operator: "In", values: ["prod", "dev"] },
        { key: "canary", operator: "DoesNotExist" },
      ],
    });
    expect(sel.matches({ app: "web", env: "dev" })).toBe(true);
    expect(sel.matches({ app: "web", env: "dev", canary: "1" })).toBe(false);
    expect(sel.toString()).toBe("app=web,!canary,env in (dev,prod)");
    expect(labelSelectorAsSelector({}).matches({ any: "x" })).toBe(true);
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false);
    expect(
      thrown(() => labelSelectorAsSelector({ matchExpressions: [{ key: "a", operator: "Foo" }] }))
        .message,
    ).toBe('"Foo" is not a valid label selector operator');
    expect(
      thrown(() =>
        labelSelectorAsSelector({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }),
      ).message,
    ).toBe("for 'in', 'notin' operators, values set can't be empty");
    expect(formatLabelSelector({ matchLabels: { b: "2", a: "1" } })).toBe("a=1,b=2");
    expect(formatLabelSelector(undefined)).toBe("");
  });

  it("takes a string or a label set, as the runtime's options do", () => {
    expect(parseSelector(undefined).empty()).toBe(true);
    expect(parseSelector({ app: "web" }).matches({ app: "web", x: "y" })).toBe(true);
    expect(parseSelector(" app=web ").matches({ app: "other" })).toBe(false);
    expect(thrown(() => selectorFromSet({ "bad key": "x" })).code).toBe(400);
  });
});

describe("field selectors", () => {
  const pod = { metadata: { name: "p", namespace: "n" }, status: { phase: "Running" } };
  const get = (f: string) => fieldValue(pod, f);
  it("matches =, == and !=, an absent field reading as empty", () => {
    expect(parseFieldSelector("metadata.name=p,metadata.namespace==n").matches(get)).toBe(true);
    expect(parseFieldSelector("status.phase!=Running").matches(get)).toBe(false);
    expect(parseFieldSelector("spec.nodeName=").matches(get)).toBe(true);
    expect(parseFieldSelector("").empty()).toBe(true);
  });
  it("honours escapes and reports what it cannot understand", () => {
    const sel = parseFieldSelector("metadata.name=a\\,b");
    expect(sel.requirements).toEqual([{ field: "metadata.name", operator: "=", value: "a,b" }]);
    expect(sel.toString()).toBe("metadata.name=a\\,b");
    const e = thrown(() => parseFieldSelector("metadata.name"));
    expect(e.code).toBe(400);
    expect(e.message).toBe("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  });
});
