// The static cost kube-apiserver 1.32 estimates for CRD rules, and the limits it refuses CRDs
// by. The golden numbers are upstream's: apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation (each case is checked with
// its schema unbounded, then with maxItems/maxProperties/maxLength set).
import { describe, expect, it } from "vitest";
import {
  costErrorMessage,
  crdRuleCostErrors,
  expressionCost,
  maxCardinality,
  sizeDecl,
} from "../src/cel/index.js";
import type { JSONSchemaProps } from "../src/schema/types.js";

type Gen = (max?: number) => JSONSchemaProps;

/** kube's parseRuleType: a test type name as a schema. */
function typed(t: string): JSONSchemaProps {
  if (t === "duration" || t === "date" || t === "date-time") return { type: "string", format: t };
  if (t === "int-or-string") return { "x-kubernetes-int-or-string": true };
  return { type: t };
}
const withRule = (s: JSONSchemaProps, rule: string): JSONSchemaProps => ({
  ...s,
  "x-kubernetes-validations": [{ rule }],
});
const opt = (k: string, v: number | undefined) => (v === undefined ? {} : { [k]: v });
const objectWithRequired = (): JSONSchemaProps => ({
  type: "object",
  properties: { required: { type: "string" }, optional: { type: "string" } },
  required: ["required"],
});

const arrayWith =
  (t: string, rule: string): Gen =>
  (max) =>
    withRule({ type: "array", items: typed(t), ...opt("maxItems", max) }, rule);
const arrayOfArrays =
  (t: string, rule: string): Gen =>
  (max) =>
    withRule(
      { type: "array", items: { type: "array", items: { type: t } }, ...opt("maxItems", max) },
      rule,
    );
const objectArray =
  (rule: string): Gen =>
  (max) =>
    withRule({ type: "array", items: objectWithRequired(), ...opt("maxItems", max) }, rule);
const mapArray =
  (t: string, rule: string): Gen =>
  (max) =>
    withRule(
      {
        type: "array",
        items: { type: "object", additionalProperties: { type: t } },
        ...opt("maxItems", max),
      },
      rule,
    );
const mapWith =
  (t: string, rule: string): Gen =>
  (max) =>
    withRule(
      { type: "object", additionalProperties: typed(t), ...opt("maxProperties", max) },
      rule,
    );
const mapOf =
  (item: JSONSchemaProps, rule: string): Gen =>
  (max) =>
    withRule({ type: "object", additionalProperties: item, ...opt("maxProperties", max) }, rule);
const stringWith =
  (rule: string): Gen =>
  (max) =>
    withRule({ type: "string", ...opt("maxLength", max) }, rule);
const bytesWith =
  (rule: string): Gen =>
  (max) =>
    withRule({ type: "string", format: "byte", ...opt("maxLength", max) }, rule);
const nestedSpec =
  (rule: string): Gen =>
  (max) =>
    withRule(
      {
        type: "object",
        additionalProperties: { type: "string", ...opt("maxLength", max) },
        ...opt("maxProperties", max),
      },
      rule,
    );
const nestedRoot =
  (rule: string, all: boolean): Gen =>
  (max) =>
    withRule(
      {
        type: "array",
        items: {
          type: "object",
          additionalProperties: {
            ...objectWithRequired(),
            ...(all ? opt("maxProperties", max) : {}),
          },
          ...opt("maxProperties", max),
        },
        ...(all ? opt("maxItems", max) : {}),
      },
      rule,
    );
const boundedString = (max?: number): JSONSchemaProps => ({
  type: "string",
  ...opt("maxLength", max),
});

/** The rule's MaxCost as kube's schemaChecker computes it (the node is not a resource root). */
function maxCost(s: JSONSchemaProps): number {
  const rule = s["x-kubernetes-validations"]?.[0]?.rule as string;
  const est = expressionCost(rule, s, false, false);
  if (!est) throw new Error(`${rule} does not compile`);
  expect(est.inexact).toBeUndefined();
  return est.max;
}

const COST_LIMIT = 1_000_000; // celconfig.PerCallLimit, what "exceeds limit" cases are held to

// [name, generator, unbounded cost (or ">limit"), max elements, bounded cost]
const cases: [string, Gen, number | ">limit", number, number][] = [
  ["number array with all", arrayWith("number", "self.all(x, true)"), 4718591, 10, 32],
  ["string array with all", arrayWith("string", "self.all(x, true)"), 3145727, 20, 62],
  ["boolean array with all", arrayWith("boolean", "self.all(x, true)"), 1887437, 5, 17],
  [
    "array of number arrays with all",
    arrayOfArrays("number", "self.all(x, true)"),
    3145727,
    100,
    302,
  ],
  ["array of objects with all", objectArray("self.all(x, true)"), 555128, 50, 152],
  ["map of numbers with all", mapWith("number", "self.all(x, true)"), 1348169, 10, 32],
  ["map of strings with all", mapWith("string", "self.all(x, true)"), 1179647, 3, 11],
  ["map of booleans with all", mapWith("boolean", "self.all(x, true)"), 943718, 100, 302],
  ["string with contains", stringWith("self.contains('test')"), 314574, 10, 5],
  ["string with startsWith", stringWith("self.startsWith('test')"), 2, 15, 2],
  ["string with endsWith", stringWith("self.endsWith('test')"), 2, 30, 2],
  ["concat string", stringWith(`size(self + "hello") > size("hello")`), 314578, 4, 7],
  ["index of array with numbers", arrayWith("number", "self[1] == 0.0"), 2, 5000, 2],
  ["index of array with strings", arrayWith("string", "self[1] == self[1]"), 314577, 8, 314577],
  [
    "O(n^2) loop with numbers",
    arrayWith("number", "self.all(x, self.all(y, true))"),
    ">limit",
    10,
    352,
  ],
  [
    "O(n^3) loop with numbers",
    arrayWith("number", "self.all(x, self.all(y, self.all(z, true)))"),
    ">limit",
    10,
    3552,
  ],
  ["regex matches simple", stringWith(`self.matches("x")`), 314574, 50, 22],
  ["regex matches empty string", stringWith(`"".matches("(((((((((())))))))))[0-9]")`), 7, 10, 7],
  ["regex matches empty regex", stringWith(`self.matches("")`), 1, 100, 1],
  [
    "map of strings with value length",
    nestedSpec("self.all(x, x.contains(self[x]))"),
    2752507,
    10,
    72,
  ],
  ["set array maxLength to zero", arrayWith("number", "self[3] == 0.0"), 2, 0, 2],
  ["set map maxLength to zero", mapWith("number", `self["x"] == 0.0`), 2, 0, 2],
  ["set string maxLength to zero", stringWith(`self == "x"`), 2, 0, 1],
  ["set bytes maxLength to zero", bytesWith(`self == b"x"`), 2, 0, 1],
  [
    "set maxLength greater than estimated maxLength",
    arrayWith("number", "self.all(x, x == 0.0)"),
    6291454,
    3 * 1024 * 2048,
    25165826,
  ],
  [
    "nested types with root rule with all supporting maxLength",
    nestedRoot(`self.all(x, x["y"].required == "z")`, true),
    7340027,
    10,
    72,
  ],
  [
    "nested types with root rule with one supporting maxLength",
    nestedRoot(`self.all(x, x["y"].required == "z")`, false),
    7340027,
    10,
    7340027,
  ],
  [
    "int-or-string array with all",
    arrayWith("int-or-string", "self.all(x, true)"),
    4718591,
    10,
    32,
  ],
  ["index of array with int-or-strings", arrayWith("int-or-string", "self[0] == 5"), 3, 10, 3],
  ["index of array with booleans", arrayWith("boolean", "self[0] == false"), 2, 25, 2],
  ["index of array of objects", objectArray("self[0] == null"), 2, 422, 2],
  ["index of array of array of numnbers", arrayOfArrays("number", "self[0][0] == -1.0"), 3, 51, 3],
  [
    "array of number maps with all",
    mapArray("number", `self.all(x, x.y == 25.2)`),
    6291452,
    12,
    74,
  ],
  ["index of array of number maps", mapArray("number", `self[0].x > 2.0`), 4, 3000, 4],
  ["duration array with all", arrayWith("duration", "self.all(x, true)"), 2359295, 5, 17],
  ["index of duration array", arrayWith("duration", "self[0].getHours() == 2"), 4, 525, 4],
  ["date array with all", arrayWith("date", "self.all(x, true)"), 725936, 15, 47],
  ["index of date array", arrayWith("date", "self[2].getDayOfMonth() == 13"), 4, 42, 4],
  ["date-time array with all", arrayWith("date-time", "self.all(x, true)"), 428963, 25, 77],
  ["index of date-time array", arrayWith("date-time", "self[2].getMinutes() == 45"), 4, 99, 4],
  [
    "map of int-or-strings with all",
    mapWith("int-or-string", "self.all(x, true)"),
    1348169,
    15,
    47,
  ],
  ["map of objects with all", mapOf(objectWithRequired(), "self.all(x, true)"), 428963, 20, 62],
  [
    "map of number maps with all",
    mapOf({ type: "object", additionalProperties: { type: "number" } }, "self.all(x, true)"),
    1179647,
    10,
    32,
  ],
  [
    "map of number arrays with all",
    mapOf({ type: "array", items: { type: "number" } }, "self.all(x, true)"),
    1179647,
    25,
    77,
  ],
  ["map of durations with all", mapWith("duration", "self.all(x, true)"), 1048577, 5, 17],
  ["map of dates with all", mapWith("date", "self.all(x, true)"), 524288, 10, 32],
  ["map of date-times with all", mapWith("date-time", "self.all(x, true)"), 349526, 25, 77],
  ["extended library regex find", stringWith("self.find('[0-9]+') == ''"), 629147, 10, 11],
  [
    "extended library join",
    (max) =>
      withRule(
        { type: "array", items: boundedString(max), ...opt("maxItems", max) },
        "self.join(' ') == 'aa bb'",
      ),
    329853068905,
    10,
    43,
  ],
  [
    "extended library isSorted",
    (max) =>
      withRule(
        { type: "array", items: boundedString(max), ...opt("maxItems", max) },
        "self.isSorted() == true",
      ),
    329854432052,
    10,
    52,
  ],
  [
    "extended library replace",
    (max) =>
      withRule(
        {
          type: "object",
          properties: {
            str: boundedString(max),
            before: { type: "string", maxLength: 2 },
            after: { type: "string", maxLength: 4 },
          },
        },
        "self.str.replace(self.before, self.after) == 'does not matter'",
      ),
    629154,
    4,
    12,
  ],
  [
    "extended library split",
    (max) =>
      withRule(
        { type: "object", properties: { str: boundedString(max), separator: boundedString(max) } },
        "self.str.split(self.separator) == []",
      ),
    629160,
    10,
    22,
  ],
  [
    "extended library lowerAscii",
    (max) => withRule(boundedString(max), "self.lowerAscii() == 'lower!'"),
    314575,
    10,
    6,
  ],
  ["check cost of size call", mapWith("integer", "oldSelf.size() == self.size()"), 5, 10, 5],
  ["check cost of timestamp comparison", mapWith("date-time", `self["a"] == self["b"]`), 8, 7, 8],
  ["check cost of duration comparison", mapWith("duration", `self["c"] == self["d"]`), 8, 42, 8],
];

describe("estimated rule cost (upstream TestCostEstimation)", () => {
  it.each(cases)("%s", (_name, gen, unbounded, max, bounded) => {
    const calc = maxCost(gen());
    if (unbounded === ">limit") expect(calc).toBeGreaterThanOrEqual(COST_LIMIT);
    else expect(calc).toBe(unbounded);
    expect(maxCost(gen(max))).toBe(bounded);
  });
});

/** An expression over literals only, as upstream's library cost tests write them. */
function literalCost(expr: string) {
  return expressionCost(expr, { type: "string" }, false, false);
}

// apiserver/pkg/cel/library cost_test.go: the estimated costs of Kubernetes' libraries and
// cel-go's extensions over literals (cases that compare library values with == are left out:
// their estimate changed across releases and is not decided here; heterogeneous list literals
// are left out: the CRD environment refuses them).
const libraryCases: [string, string, number, number][] = [
  // TestIPCost
  ["TestIPCost", "ip('192.168.0.1')", 2, 2],
  ["TestIPCost", "ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4, 4],
  ...[
    ".family()",
    ".isUnspecified()",
    ".isLoopback()",
    ".isLinkLocalMulticast()",
    ".isLinkLocalUnicast()",
    ".isGlobalUnicast()",
  ].flatMap((op): [string, string, number, number][] => [
    ["TestIPCost", `ip('192.168.0.1')${op}`, 3, 3],
    ["TestIPCost", `ip('2001:db8:3333:4444:5555:6666:7777:8888')${op}`, 5, 5],
  ]),
  // TestIPIsCanonicalCost
  ["TestIPIsCanonicalCost", "ip.isCanonical('192.168.0.1')", 3, 3],
  ["TestIPIsCanonicalCost", "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8, 8],
  ["TestIPIsCanonicalCost", "ip.isCanonical('2001:db8::abcd')", 3, 3],
  // TestCIDRCost
  ["TestCIDRCost", "cidr('192.168.0.0/16')", 2, 2],
  ["TestCIDRCost", "cidr('2001:db8::/32')", 2, 2],
  ...[".ip()", ".prefixLength()", ".masked()"].flatMap((op): [string, string, number, number][] => [
    ["TestCIDRCost", `cidr('192.168.0.0/16')${op}`, 3, 3],
    ["TestCIDRCost", `cidr('2001:db8::/32')${op}`, 3, 3],
  ]),
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsCIDR(cidr('192.0.0.0/30'))", 7, 11],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.0.0/16'))", 7, 11],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsCIDR('192.0.0.0/30')", 7, 11],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsCIDR('192.168.0.0/16')", 7, 11],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsIP(ip('192.0.0.1'))", 4, 7],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsIP(ip('192.169.0.1'))", 5, 8],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsIP(ip('192.169.169.250'))", 5, 8],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsIP('192.0.0.1')", 4, 7],
  ["TestCIDRCost", "cidr('192.168.0.0/16').containsIP('192.169.0.1')", 5, 8],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/126'))", 7, 11],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/32'))", 7, 11],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsCIDR('2001:db8::/126')", 7, 11],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsCIDR('2001:db8::/32')", 7, 11],
  [
    "TestCIDRCost",
    "cidr('2001:db8::/32').containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
    7,
    10,
  ],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsIP(ip('2001:db8::1'))", 5, 8],
  [
    "TestCIDRCost",
    "cidr('2001:db8::/32').containsIP('2001:db8:3333:4444:5555:6666:7777:8888')",
    7,
    10,
  ],
  ["TestCIDRCost", "cidr('2001:db8::/32').containsIP('2001:db8::1')", 5, 8],
  // TestQuantityCost
  ["TestQuantityCost", `quantity("12Mi")`, 1, 1],
  ["TestQuantityCost", `isQuantity("20")`, 1, 1],
  ["TestQuantityCost", `isQuantity("20M")`, 1, 1],
  ["TestQuantityCost", `quantity("50M").isLessThan(quantity("50Mi"))`, 3, 3],
  ["TestQuantityCost", `quantity("50Mi").isGreaterThan(quantity("50M"))`, 3, 3],
  ["TestQuantityCost", `quantity("200M").compareTo(quantity("0.2G")) > 0`, 4, 4],
  ["TestQuantityCost", `quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0`, 6, 6],
  [
    "TestQuantityCost",
    `quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0`,
    7,
    7,
  ],
  ["TestQuantityCost", `quantity("50k").asInteger() > 0`, 3, 3],
  ["TestQuantityCost", `quantity("50").isInteger()`, 2, 2],
  ["TestQuantityCost", `quantity("50.703k").asApproximateFloat() > 0.0`, 3, 3],
  // TestStringLibrary (cel-go's strings.quote)
  ["TestStringLibrary", "strings.quote('ABCDEFGHIJ abcdefghij')", 3, 3],
  [
    "TestStringLibrary",
    "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
    7,
    11,
  ],
  ["TestStringLibrary", "'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3],
  [
    "TestStringLibrary",
    "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
    7,
    9,
  ],
  ["TestStringLibrary", "'ABCDEFGHIJ abcdefghij'.upperAscii()", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.replace('123', '456')", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.replace('', 'x')", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.replace('123', '')", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.replace('123', '456', 1)", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.split(' ')", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.split(' ', 1)", 3, 3],
  ["TestStringLibrary", "'abc 123 def 123'.substring(5)", 2, 2],
  ["TestStringLibrary", "'abc 123 def 123'.substring(5, 8)", 2, 2],
  ["TestStringLibrary", "'  abc 123 def 123  '.trim()", 2, 2],
  ["TestStringLibrary", "'abc 123 def 123'.find('123')", 2, 2],
  ["TestStringLibrary", "'abc 123 def 123'.findAll('123')", 2, 2],
  ["TestStringLibrary", "'abc 123 def 123'.findAll('123', 1)", 2, 2],
  // TestURLsCost (accessors; equality of URLs is left out, see above)
  ...[
    ".getScheme()",
    ".getHostname()",
    ".getHost()",
    ".getPort()",
    ".getEscapedPath()",
    ".getQuery()",
  ].map((op): [string, string, number, number] => [
    "TestURLsCost",
    `url('https:://kubernetes.io/')${op}`,
    4,
    4,
  ]),
  // TestListsCost and TestIndexOfCost (lists of scalars; a string list's element size comes from
  // the test's own size estimator there)
  ...[".sum()", ".isSorted()", ".max()", ".min()", ".indexOf(3)", ".lastIndexOf(3)"].flatMap(
    (op): [string, string, number, number][] => [
      ["TestListsCost", `[1, 2, 3, 4, 5]${op}`, 15, 15],
      ["TestListsCost", `[1.0, 2.0, 3.0, 4.0, 5.0]${op.replace("3", "3.0")}`, 15, 15],
    ],
  ),
  ["TestListsCost", "[uint(1), uint(2), uint(3), uint(4), uint(5)].sum()", 20, 20],
  ["TestListsCost", "[false, true, false, true, false].isSorted()", 15, 15],
  [
    "TestListsCost",
    "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')].max()",
    20,
    20,
  ],
  ["TestIndexOfCost", "[uint(1), uint(2), uint(3), uint(4), uint(5)].indexOf(uint(3))", 21, 21],
  ["TestIndexOfCost", "'01234567890123456789012345678901234567890123456789'.indexOf('123')", 5, 5],
  // TestSetsCost (cel-go's sets extension)
  ["TestSetsCost", "sets.contains([], [])", 21, 21],
  ["TestSetsCost", "sets.contains([1], [])", 21, 21],
  ["TestSetsCost", "sets.contains([1], [1])", 22, 22],
  ["TestSetsCost", "sets.contains([1], [1, 1])", 23, 23],
  ["TestSetsCost", "sets.contains([1, 1], [1])", 23, 23],
  ["TestSetsCost", "sets.contains([2, 1], [1])", 23, 23],
  ["TestSetsCost", "sets.contains([1, 2, 3, 4], [2, 3])", 29, 29],
  ["TestSetsCost", "!sets.contains([1], [2])", 23, 23],
  ["TestSetsCost", "!sets.contains([1], [1, 2])", 24, 24],
  ["TestSetsCost", "sets.equivalent([], [])", 21, 21],
  ["TestSetsCost", "sets.equivalent([1], [1])", 23, 23],
  ["TestSetsCost", "sets.equivalent([1], [1, 1])", 25, 25],
  ["TestSetsCost", "sets.equivalent([1, 1], [1])", 25, 25],
  ["TestSetsCost", "!sets.equivalent([2, 1], [1])", 26, 26],
  ["TestSetsCost", "!sets.equivalent([1], [1, 2])", 26, 26],
  ["TestSetsCost", "sets.intersects([1], [1])", 22, 22],
  ["TestSetsCost", "sets.intersects([1], [1, 1])", 23, 23],
  ["TestSetsCost", "sets.intersects([1, 1], [1])", 23, 23],
  ["TestSetsCost", "sets.intersects([2, 1], [1])", 23, 23],
  ["TestSetsCost", "sets.intersects([1], [1, 2])", 23, 23],
  ["TestSetsCost", "!sets.intersects([], [])", 22, 22],
  ["TestSetsCost", "!sets.intersects([1], [])", 22, 22],
  ["TestSetsCost", "!sets.intersects([1], [2])", 23, 23],
];

describe("estimated library function cost (upstream apiserver/pkg/cel/library cost_test.go)", () => {
  it.each(libraryCases)("%s: %s", (_test, expr, min, max) => {
    expect(literalCost(expr)).toEqual({ min, max, exact: true });
  });

  it("sizes sets by the schema: a product of two unbounded lists is far over any limit", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: {
        a: { type: "array", items: { type: "string" } },
        b: { type: "array", maxItems: 3, items: { type: "string" } },
      },
    };
    // 1 + 1048575 x 3 (and self.a, self.b at 2 each).
    expect(expressionCost("sets.contains(self.a, self.b)", s, false, false)).toEqual({
      min: 5,
      max: 1 + 1_048_575 * 3 + 4,
      exact: true,
    });
  });

  it.each([
    ["quantity('1') == quantity('1')", "equality of kubernetes.Quantity values"],
    ["ip('::1') == ip('::1')", "equality of net.IP values"],
    ["url('https://a') != url('https://b')", "equality of kubernetes.URL values"],
  ])("is not exact for %s", (expr, why) => {
    expect(literalCost(expr)).toMatchObject({ exact: false, inexact: why });
  });

  it("costs the string format as cel-go 0.22: a traversal of the format, an unsized result", () => {
    // ceil(2 x 0.1) + the list 10; == 'x' at most one character: 1.
    expect(literalCost("'%s'.format(['x']) == 'x'")).toEqual({ min: 12, max: 12, exact: true });
  });
});

describe("estimates beyond upstream's table", () => {
  it("counts a presence test as its operand only, as kube's environment configures cel-go", () => {
    // apiserver/pkg/cel/environment/base.go: CostEstimatorOptions(PresenceTestHasCost(false)).
    const map: JSONSchemaProps = { type: "object", additionalProperties: { type: "number" } };
    expect(expressionCost("has(self.x)", map, false, false)).toEqual({
      min: 1,
      max: 1,
      exact: true,
    });
  });

  it("sizes a type name like any other identifier (its path is the rule's root)", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: { v: { "x-kubernetes-int-or-string": true } },
    };
    // type() 1 + self.v 2, `string` 1; the comparison is sized by the root object (0), so 0.
    expect(expressionCost("type(self.v) == string", s, false, false)?.max).toBe(4);
  });

  it("iterates over literal and computed lists as cel-go 0.22 does", () => {
    // cel-go checker/cost_test.go TestCost "all comprehension on literal": 10 for the list, 1
    // for the result, 3 x (2 for the condition + 1 for the step).
    expect(literalCost("[1, 2, 3].all(x, true)")).toEqual({ min: 20, max: 20, exact: true });
    // TestCost "list concat" ({4, 64} over two variables sized 10): here two fields of at most
    // 10 items, each selection costing 2 instead of 1.
    const lists: JSONSchemaProps = {
      type: "object",
      properties: {
        a: { type: "array", maxItems: 10, items: { type: "integer" } },
        b: { type: "array", maxItems: 10, items: { type: "integer" } },
      },
    };
    expect(expressionCost("(self.a + self.b).all(x, true)", lists, false, false)).toEqual({
      min: 6,
      max: 66,
      exact: true,
    });
    // A computed list's items have no path of their own: cel-go's path for them is just
    // "@items", which kube's size estimator resolves to the rule's root (an object: size 0), so
    // comparing them costs nothing: list 10 + result 1 + 2 x (3 + 1..(1 + 0 + 1 + 2)).
    const named: JSONSchemaProps = { type: "object", properties: { name: { type: "string" } } };
    expect(expressionCost("['a', 'b'].exists(v, v == self.name)", named, false, false)).toEqual({
      min: 19,
      max: 25,
      exact: true,
    });
    // A map() result is sized as its range: filtering it again iterates at most 10 times.
    expect(
      expressionCost("self.a.map(x, x * 2).filter(y, y > 2).size() > 0", lists, false, false),
    ).toEqual({ min: 26, max: 26 + 10 * 13 + 10 * 16, exact: true });
  });

  it("costs cel.bind as cel-go 0.22 does: a comprehension over an empty list", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
    };
    // The empty range 10, self.name 2, n.size() 2, < 1.
    expect(expressionCost("cel.bind(n, self.name, n.size() < 5)", s, false, false)).toEqual({
      min: 15,
      max: 15,
      exact: true,
    });
    // The bound name's path is [t], which kube's size estimator resolves from the rule's root:
    // an object has no elements, so iterating over t is estimated as no iteration at all,
    // whatever self.tags allows (10 + self.tags 2 + t 1 + the result 1).
    expect(
      expressionCost("cel.bind(t, self.tags, t.all(x, x.startsWith('a')))", s, false, false),
    ).toEqual({ min: 14, max: 14, exact: true });
  });

  it("costs optional access as cel-go 0.22 does: calls unknown to both estimators", () => {
    const s: JSONSchemaProps = { type: "object", properties: { name: { type: "string" } } };
    // self.?name 1 + self 1, orValue 1, == 'x' at most one character: 1.
    expect(expressionCost("self.?name.orValue('x') == 'x'", s, false, false)).toEqual({
      min: 4,
      max: 4,
      exact: true,
    });
    expect(expressionCost("optional.of(1).hasValue()", s, false, false)).toEqual({
      min: 2,
      max: 2,
      exact: true,
    });
  });

  it("is not exact where an int-or-string value's type decides the cost", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: { port: { "x-kubernetes-int-or-string": true } },
    };
    expect(expressionCost("self.port + 1 > 2", s, false, false)).toMatchObject({
      exact: false,
      inexact: "a dyn value",
    });
    // An optional oldSelf's value is typed dyn here; kube knows its type (a scalar is sized 1).
    const n: JSONSchemaProps = { type: "integer" };
    expect(expressionCost("oldSelf.value() == oldSelf.value()", n, false, true)).toMatchObject({
      exact: false,
      inexact: "the size of a dyn value",
    });
  });
});

describe("size estimates", () => {
  it("derives unbounded sizes from the 3 MiB request limit, as kube does", () => {
    // ["", "", ...]: 2 bytes per string and a comma.
    expect(sizeDecl({ type: "array", items: { type: "string" } }, false)?.maxElements).toBe(
      1048575,
    );
    // {"k":0,...}: 6 bytes per entry besides the value.
    expect(
      sizeDecl({ type: "object", additionalProperties: { type: "integer" } }, false)?.maxElements,
    ).toBe(449389);
    // A plain string's maxLength counts 4 bytes per character; a byte string's does not.
    expect(sizeDecl({ type: "string", maxLength: 10 }, false)?.maxElements).toBe(40);
    expect(sizeDecl({ type: "string", format: "byte", maxLength: 10 }, false)?.maxElements).toBe(
      10,
    );
    // Required properties without defaults count towards an object's smallest serialization.
    expect(sizeDecl(objectWithRequired(), false)?.minSerializedSize).toBe(2 + 8 + 2 + 4);
    expect(maxCardinality(16)).toBe(185042);
  });

  it("bounds an enum string by its longest value (kubernetes PR 121085, kube 1.29 on)", () => {
    // kube's issue 119511: a prefix check on an enum under nested lists hit the limit.
    const level: JSONSchemaProps = { type: "string", enum: ["low", "medium", "high"] };
    expect(sizeDecl(level, false)?.maxElements).toBe(6);
    // A declared maxLength still wins (4 bytes per character); values are counted in bytes.
    expect(sizeDecl({ ...level, maxLength: 2 }, false)?.maxElements).toBe(8);
    expect(sizeDecl({ type: "string", enum: ["é"] }, false)?.maxElements).toBe(2);
    // self 1 + ceil((0..6 + 1) x 0.1) x ceil(6 x 0.25).
    expect(expressionCost("self.matches('Prefix')", level, false, false)).toEqual({
      min: 3,
      max: 3,
      exact: true,
    });
    const nested: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: {
          type: "array",
          items: { type: "array", items: withRule(level, "self.matches('Prefix')") },
        },
      },
    };
    expect(crdRuleCostErrors(nested, "openAPIV3Schema")).toEqual([]);
  });
});

describe("cost error messages", () => {
  it("formats the factor as kube does", () => {
    const tail =
      "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    expect(costErrorMessage("estimated rule cost", 12_000_000, 10_000_000)).toBe(
      `estimated rule cost exceeds budget by factor of 1.200000x ${tail}`,
    );
    expect(costErrorMessage("estimated rule cost", 25_000_000, 10_000_000)).toBe(
      `estimated rule cost exceeds budget by factor of 2.5x ${tail}`,
    );
    // Go rounds the exact binary value half to even: 2.25 prints as 2.2.
    expect(costErrorMessage("estimated rule cost", 22_500_000, 10_000_000)).toContain(
      "factor of 2.2x",
    );
    expect(costErrorMessage("estimated rule cost", 1_000_000_001, 10_000_000)).toContain(
      "factor of more than 100x",
    );
  });
});

describe("CRD cost limits", () => {
  const tagsSchema = (tags: JSONSchemaProps): JSONSchemaProps => ({
    type: "object",
    properties: { spec: { type: "object", properties: { tags } } },
  });
  const rule = "self.all(x, x.matches('^[a-z]+$'))";
  const P = "spec.versions[0].schema.openAPIV3Schema";

  it("refuses a rule over an unbounded list of unbounded strings, with the total", () => {
    const errs = crdRuleCostErrors(
      tagsSchema(withRule({ type: "array", items: { type: "string" } }, rule)),
      P,
    );
    const at = `${P}.properties[spec].properties[tags].x-kubernetes-validations[0].rule`;
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      [
        at,
        "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
      ],
      [
        at,
        "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
      ],
      [
        P,
        "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
      ],
    ]);
  });

  it("accepts it once the list and its strings are bounded", () => {
    const bounded = withRule(
      { type: "array", maxItems: 10, items: { type: "string", maxLength: 64 } },
      rule,
    );
    expect(crdRuleCostErrors(tagsSchema(bounded), P)).toEqual([]);
  });

  it("multiplies a rule under an unbounded list by what fits in a request", () => {
    // Each item's rule costs 1 + 629146 (matches over an unbounded string), and the items
    // could repeat 1048576 times (3 MiB / 3 bytes): way over.
    const items = withRule({ type: "string" }, "self.matches('^[a-z]+$')");
    const errs = crdRuleCostErrors(tagsSchema({ type: "array", items }), P);
    expect(errs[0]?.field).toBe(
      `${P}.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule`,
    );
    // With maxItems the cardinality is the product of the bounds above the rule.
    const bounded = withRule({ type: "string", maxLength: 10 }, "self.matches('^[a-z]+$')");
    expect(
      crdRuleCostErrors(tagsSchema({ type: "array", maxItems: 5, items: bounded }), P),
    ).toEqual([]);
  });

  it("reports the factor of a rule just over the limit", () => {
    // A string of up to 2,500,000 characters (10,000,000 bytes as kube counts them) compared
    // with contains() to one of 40 bytes: ceil(1,000,000) x 1 ... exactly as estimated.
    const s: JSONSchemaProps = {
      type: "object",
      properties: {
        a: { type: "string", maxLength: 2_500_000 },
        b: { type: "string", maxLength: 30 },
      },
      "x-kubernetes-validations": [{ rule: "self.a.contains(self.b)" }],
    };
    const est = expressionCost("self.a.contains(self.b)", s, true, false);
    // (10,000,000 x 0.1) x ceil(120 x 0.1) + self.a 2 + self.b 2
    expect(est?.max).toBe(1_000_000 * 12 + 4);
    const errs = crdRuleCostErrors(s, P);
    expect(errs[0]).toMatchObject({
      field: `${P}.x-kubernetes-validations[0].rule`,
      detail: expect.stringContaining("estimated rule cost exceeds budget by factor of 1.200000x"),
    });
  });

  it("names the four biggest contributors to a total over the CRD limit, then the total", () => {
    // On a string of up to 2,000,000 characters a regex of 4k characters costs 1 + 800,001 x k.
    const re = (k: number) => `self.matches('^${"a".repeat(4 * k - 2)}$')`;
    const ks = [8, 12, 8, 11, 8, 10, 8, 9, 8, 8, 8, 8, 8, 8, 8];
    const s: JSONSchemaProps = {
      type: "string",
      maxLength: 2_000_000,
      "x-kubernetes-validations": ks.map((k) => ({ rule: re(k) })),
    };
    const errs = crdRuleCostErrors({ type: "object", properties: { name: s } }, P);
    const rule = (i: number) => `${P}.properties[name].x-kubernetes-validations[${i}].rule`;
    expect(errs.map((e) => e.field)).toEqual([rule(1), rule(3), rule(5), rule(7), P]);
    expect(errs[0]?.detail).toBe(
      "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
    );
    // 800,001 x 130 + 15 = 104,000,145
    expect(errs[4]?.detail).toContain("exceeds budget by factor of 1.040001x");
  });

  it("holds a messageExpression to the limit on its own, not times its cardinality", () => {
    const listOfStrings = (messageExpression: string): JSONSchemaProps => ({
      type: "array",
      items: { type: "string" },
      "x-kubernetes-validations": [{ rule: "true", messageExpression }],
    });
    // Over an unbounded list of unbounded strings: far over the limit by itself.
    const costly = "self.filter(x, x.matches('^a+$')).size() > 0 ? 'a' : 'b'";
    expect(crdRuleCostErrors(tagsSchema(listOfStrings(costly)), P)[0]).toMatchObject({
      field: `${P}.properties[spec].properties[tags].x-kubernetes-validations[0].messageExpression`,
      detail: expect.stringMatching(
        /^estimated messageExpression cost exceeds budget by factor of more than 100x/,
      ),
    });
    // On each item of an unbounded list: 629,148 once, though the item repeats a million times.
    const perItem: JSONSchemaProps = {
      type: "array",
      items: {
        type: "string",
        "x-kubernetes-validations": [{ rule: "true", messageExpression: "self + self" }],
      },
    };
    expect(crdRuleCostErrors(tagsSchema(perItem), P)).toEqual([]);
  });

  it("reports a node's children before the node, as kube's schema walk does", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { name: withRule({ type: "array", items: { type: "string" } }, rule) },
          "x-kubernetes-validations": [{ rule: "self.name.all(x, x.matches('^[a-z]+$'))" }],
        },
      },
    };
    const fields = crdRuleCostErrors(s, P)
      .filter((e) => e.detail.startsWith("estimated"))
      .map((e) => e.field);
    expect(fields).toEqual([
      `${P}.properties[spec].properties[name].x-kubernetes-validations[0].rule`,
      `${P}.properties[spec].x-kubernetes-validations[0].rule`,
    ]);
  });

  it("does not check the cost of each expression of an unchanged schema on update", () => {
    const items = withRule({ type: "string", maxLength: 1000 }, "self.matches('^[a-z]+$')");
    const schema = tagsSchema({ type: "array", items });
    expect(crdRuleCostErrors(schema, P).length).toBeGreaterThan(0);
    expect(
      crdRuleCostErrors(schema, P, { suppressPerExpression: true }).some((e) =>
        e.detail.startsWith("estimated rule cost"),
      ),
    ).toBe(false);
  });

  it("makes no decision on expressions it cannot estimate exactly", () => {
    // Equality of two URLs parsed from unbounded strings: far over the limit if sized as
    // cel-go's equality sizes unknown values, 1 where kube's estimator knows URL equality.
    const rule = "url(self.a) == url(self.b)";
    const s: JSONSchemaProps = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      "x-kubernetes-validations": [{ rule }],
    };
    const est = expressionCost(rule, s, true, false);
    expect(est).toMatchObject({ exact: false, inexact: "equality of kubernetes.URL values" });
    expect(crdRuleCostErrors(s, P)).toEqual([]);
  });
});
