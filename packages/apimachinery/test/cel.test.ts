// CEL as kube-apiserver 1.32 compiles and runs CRD rules: the Kubernetes libraries, cel-go's
// compile-error form, RE2 `matches`, and the metered evaluation.
import { describe, expect, it } from "vitest";
import {
  CelCompileError,
  CelCostLimitError,
  celEvalMessage,
  compileCel,
  compileRule,
  evaluateCel,
  PER_CALL_COST_LIMIT,
} from "../src/cel/index.js";
import type { JSONSchemaProps } from "../src/schema/types.js";

function run(expr: string, self: unknown = {}, limit = PER_CALL_COST_LIMIT): unknown {
  const p = compileCel(expr);
  if (p instanceof Error) throw p;
  return evaluateCel(p, { self }, limit).value;
}

describe("Kubernetes CEL libraries", () => {
  it.each([
    // strings extension (version 2)
    ["'héllo'.charAt(1) == 'é'", true],
    ["'abc'.charAt(3) == ''", true],
    ["'a-b-c'.replace('-', '+') == 'a+b+c'", true],
    ["'a-b-c'.replace('-', '+', 1) == 'a+b-c'", true],
    ["strings.quote('a\"b\\n') == '\"a\\\\\"b\\\\n\"'", true],
    ["'%s has %d items at %.2f'.format(['cart', 3, 1.5]) == 'cart has 3 items at 1.50'", false],
    ["'%s/%s'.format(['a', 'b']) == 'a/b'", true],
    ["'%d'.format([42]) == '42'", true],
    ["'%x'.format([255]) == 'ff'", true],
    ["'a,b'.split(',') == ['a', 'b'] && ['a', 'b'].join('-') == 'a-b'", true],
    ["'  x '.trim() == 'x' && 'Ab'.lowerAscii() == 'ab' && 'abcabc'.lastIndexOf('b') == 4", true],
    // lists
    ["[1, 2, 2, 3].isSorted() && !['b', 'a'].isSorted()", true],
    [
      "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [3, 1, 2].min() == 1 && [3, 1, 2].max() == 3",
      true,
    ],
    ["[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1", true],
    // regex
    ["'abc123'.find('[0-9]+') == '123' && 'abc'.find('[0-9]') == ''", true],
    ["'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']", true],
    ["'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']", true],
    ["'baaab'.findAll('a*') == ['', 'aaa', '']", true],
    ["'x-1'.matches('^[a-z]-[0-9]$') && !'X'.matches('^[a-z]$')", true],
    // URLs
    ["url('https://example.com:8443/a/b?x=1&x=2&y=').getScheme() == 'https'", true],
    ["url('https://example.com:8443/a/b').getHost() == 'example.com:8443'", true],
    [
      "url('https://[::1]:80/').getHostname() == '::1' && url('https://[::1]:80/').getPort() == '80'",
      true,
    ],
    ["url('https://example.com/a%20b').getEscapedPath() == '/a%20b'", true],
    ["url('https://e.com/?x=1&x=2&y=').getQuery() == {'x': ['1', '2'], 'y': ['']}", true],
    [
      "isURL('https://example.com') && isURL('/path') && !isURL('example.com') && !isURL('mailto:a')",
      true,
    ],
    // quantity
    ["quantity('1Gi').isGreaterThan(quantity('1G'))", true],
    ["quantity('1') == quantity('1000m') && quantity('0.5') == quantity('500m')", true],
    ["quantity('1.5Ki').asInteger() == 1536 && quantity('2k').add(1).asInteger() == 2001", true],
    ["quantity('500m').isInteger() == false && quantity('-1').sign() == -1", true],
    ["quantity('1M').sub(quantity('1k')).compareTo(quantity('999k')) == 0", true],
    ["quantity('100m').asApproximateFloat() == 0.1", true],
    ["isQuantity('1Gi') && !isQuantity('1gi') && !isQuantity('') && !isQuantity('1 Gi')", true],
    // IP and CIDR
    ["ip('10.1.2.3').family() == 4 && ip('2001:db8::1').family() == 6", true],
    [
      "isIP('10.0.0.1') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0') && !isIP('::ffff:1.2.3.4')",
      true,
    ],
    [
      "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1') && !ip.isCanonical('2001:db8:0:0:0:0:0:1')",
      true,
    ],
    [
      "ip('127.0.0.1').isLoopback() && ip('::').isUnspecified() && ip('169.254.1.1').isLinkLocalUnicast()",
      true,
    ],
    [
      "ip('8.8.8.8').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('ff02::1').isLinkLocalMulticast()",
      true,
    ],
    [
      "cidr('10.0.0.0/8').containsIP('10.255.0.1') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
      true,
    ],
    [
      "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')",
      true,
    ],
    [
      "string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8' && cidr('10.1.2.3/8').prefixLength() == 8",
      true,
    ],
    [
      "string(cidr('2001:db8::1/64').ip()) == '2001:db8::1' && isCIDR('::/0') && !isCIDR('10.0.0.0/33')",
      true,
    ],
    // sets
    ["sets.contains([1, 2, 3], [1, 2]) && !sets.contains([1], [2])", true],
    [
      "sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1, 2], [2, 5]) && !sets.intersects([1], [])",
      true,
    ],
    // format
    ["!format.dns1123Label().validate('my-name').hasValue()", true],
    ["format.dns1123Label().validate('My_Name').value().size() == 1", true],
    ["!format.dns1123LabelPrefix().validate('my-').hasValue()", true],
    ["format.named('uuid').hasValue() && !format.named('nope').hasValue()", true],
    ["!format.named('datetime').value().validate('2024-02-29T10:00:00Z').hasValue()", true],
    ["format.named('date').value().validate('2023-02-29').hasValue()", true],
  ])("%s", (expr, expected) => {
    if (expected === false && expr.includes("%.2f")) {
      // A list literal of mixed types is a compile error (homogeneous aggregate literals).
      expect(compileCel(expr)).toBeInstanceOf(CelCompileError);
      return;
    }
    expect(run(expr)).toBe(expected);
  });

  it("reports library errors as evaluation errors", () => {
    expect(() => run("quantity('nope') == quantity('1')")).toThrow(
      "quantities must match the regular expression",
    );
    expect(() => run("ip('10.0.0.256').family() == 4")).toThrow("parse error");
    expect(() => run("[].min() == 1")).toThrow("min called on empty list");
    expect(() => run("'abc'.charAt(9) == ''")).toThrow("index out of range: 9");
  });
});

describe("compiling", () => {
  it("reports undeclared functions and variables in cel-go's form", () => {
    const fn = compileCel("self.replicas.frobnicate(1)");
    expect(fn).toBeInstanceOf(CelCompileError);
    expect((fn as CelCompileError).detail).toBe(
      "ERROR: <input>:1:25: undeclared reference to 'frobnicate' (in container '')\n | self.replicas.frobnicate(1)\n | ........................^",
    );
    const v = compileCel("replicas > 1");
    expect((v as CelCompileError).detail).toMatch(
      /^ERROR: <input>:1:1: undeclared reference to 'replicas' \(in container ''\)\n \| replicas > 1\n \| \^$/,
    );
  });

  it("reports syntax errors at their position", () => {
    const e = compileCel("self.a ==");
    expect((e as CelCompileError).detail).toMatch(/^ERROR: <input>:1:10: Syntax error: /);
  });

  it("gives the checked type of an expression", () => {
    const p = compileCel("'a' + 'b'");
    expect(p).not.toBeInstanceOf(Error);
    expect((p as { type: string }).type).toBe("string");
    expect((compileCel("self.x") as { type: string }).type).toBe("dyn");
  });
});

describe("compiling against a schema", () => {
  const detail = (expr: string, schema: JSONSchemaProps, root = false) => {
    const p = compileRule(expr, { schema, root });
    return p instanceof CelCompileError ? p.summary : "ok";
  };
  const embedded: JSONSchemaProps = {
    type: "object",
    properties: {
      embedded: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-embedded-resource": true,
      },
    },
  };

  // apiextensions-apiserver schema/cel validation_test.go TestValidationExpressions,
  // "embedded object with preserve unknown": the resource fields are always there, nothing else.
  it.each([
    "self.embedded.kind == 'Pod'",
    "self.embedded.apiVersion == 'v1'",
    "self.embedded.metadata.name == 'foo'",
    "self.embedded.metadata.generateName == 'pickItForMe'",
    "has(self.embedded)",
  ])("an embedded resource has %s", (rule) => {
    expect(detail(rule, embedded)).toBe("ok");
  });

  it.each([
    ["has(self.embedded.spec)", "undefined field 'spec'"],
    ["has(self.embedded.metadata.namespace)", "undefined field 'namespace'"],
  ])("an embedded resource has no undeclared field: %s", (rule, error) => {
    expect(detail(rule, embedded)).toBe(error);
  });

  it("exposes only the declared properties of an object that preserves unknown fields", () => {
    // validation_test.go "known and unknown fields".
    const spec: JSONSchemaProps = {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { minReplicas: { type: "integer" }, maxReplicas: { type: "integer" } },
    };
    expect(detail("self.minReplicas < self.maxReplicas", spec)).toBe("ok");
    expect(detail("has(self.field1)", spec)).toBe("undefined field 'field1'");
    // An untyped node is not exposed at all.
    const s: JSONSchemaProps = {
      type: "object",
      properties: { unknown: { "x-kubernetes-preserve-unknown-fields": true } },
    };
    expect(detail("has(self.unknown)", s)).toBe("undefined field 'unknown'");
  });

  it("keeps int-or-string dynamic", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: { port: { "x-kubernetes-int-or-string": true } },
    };
    expect(
      detail("type(self.port) == string ? self.port.matches('^[0-9]+%$') : self.port > 0", s),
    ).toBe("ok");
  });
});

describe("regular expressions", () => {
  it("run in linear time: a catastrophic pattern over a long input returns", () => {
    const hostile = `${"a".repeat(20_000)}!`;
    expect(run("self.matches('^(a+)+$')", hostile)).toBe(false);
    expect(run("self.all(s, s.matches('^(a|aa)+$'))", [hostile, hostile])).toBe(false);
  });

  it("reject patterns Go rejects, at evaluation", () => {
    expect(() => run("self.matches('(?=a)')", "a")).toThrow(/error parsing regexp/);
  });
});

describe("cost", () => {
  const big = Array.from({ length: 2000 }, (_, i) => BigInt(i));

  it("fails a call past the per-call limit", () => {
    const p = compileCel("self.all(x, self.all(y, x != y || x == y))");
    expect(() => evaluateCel(p as never, { self: big }, PER_CALL_COST_LIMIT)).toThrow(
      CelCostLimitError,
    );
    expect(celEvalMessage(new CelCostLimitError())).toBe(
      "operation cancelled: actual cost limit exceeded",
    );
  });

  it("counts what || absorbed", () => {
    const p = compileCel("self.all(x, self.all(y, x != y || x == y)) || true");
    expect(() => evaluateCel(p as never, { self: big }, 10_000)).toThrow(CelCostLimitError);
  });

  it("reports the cost of what ran", () => {
    const p = compileCel("self.all(x, x >= 0)");
    const r = evaluateCel(p as never, { self: big.slice(0, 10) }, PER_CALL_COST_LIMIT);
    expect(r.value).toBe(true);
    expect(r.cost).toBeGreaterThan(10);
    expect(r.cost).toBeLessThan(200);
  });
});

describe("evaluation errors", () => {
  it.each([
    ["self.missing > 1", {}, "no such key: missing"],
    ["1 / self.z > 0", { z: 0n }, "division by zero"],
  ])("%s → %s", (expr, self, message) => {
    try {
      run(expr, self);
      expect.unreachable();
    } catch (e) {
      expect(celEvalMessage(e)).toBe(message);
    }
  });
});
