/**
 * The evaluation of one ValidatingAdmissionPolicy (src/admission/policy/evaluate.ts) as kube's
 * validator decides: variables, messages, match conditions, audit annotations, failure policy
 * and the runtime cost budget.
 */
import { celValue } from "@opgen/apimachinery/cel";
import { describe, expect, it } from "vitest";
import { type Bindings, evaluatePolicy } from "../src/admission/policy/evaluate.js";
import type { PolicySpec } from "../src/admission/policy/source.js";

const spec = (s: Partial<PolicySpec>): PolicySpec => ({
  validations: [],
  auditAnnotations: [],
  matchConditions: [],
  variables: [],
  failurePolicy: "Fail",
  ...s,
});

const bindings = (object: unknown): Bindings => ({
  object: celValue(object, undefined),
  oldObject: null,
  request: celValue({ operation: "CREATE" }, undefined),
  params: null,
  namespaceObject: null,
  authorizer: null,
});

const deployment = { metadata: { name: "web" }, spec: { replicas: 3 } };

describe("validations", () => {
  it("admits true, denies false with messageExpression, message or the expression", () => {
    const d = evaluatePolicy(
      spec({
        validations: [
          { expression: "object.spec.replicas == 3" },
          { expression: "false", messageExpression: "'  from ' + object.metadata.name + ' '" },
          { expression: "false", message: " fixed ", reason: "Forbidden" },
          { expression: " 1 > 2 " },
          // A multi-line result falls back to the message.
          { expression: "false", messageExpression: "'a\\nb'", message: "plain" },
          // So does a failing messageExpression.
          { expression: "false", messageExpression: "object.missing", message: "fallback" },
        ],
      }),
      bindings(deployment),
    );
    expect(d).toEqual([
      { action: "Admit" },
      { action: "Deny", reason: "Invalid", message: "from web" },
      { action: "Deny", reason: "Forbidden", message: "fixed" },
      { action: "Deny", reason: "Invalid", message: "failed expression: 1 > 2" },
      { action: "Deny", reason: "Invalid", message: "plain" },
      { action: "Deny", reason: "Invalid", message: "fallback" },
    ]);
  });

  it("reports evaluation errors under Fail and admits them under Ignore", () => {
    const validations = [{ expression: "object.spec.missing > 1" }];
    expect(evaluatePolicy(spec({ validations }), bindings(deployment))).toEqual([
      {
        action: "Deny",
        message: "expression 'object.spec.missing > 1' resulted in error: no such key: missing",
      },
    ]);
    expect(
      evaluatePolicy(spec({ validations, failurePolicy: "Ignore" }), bindings(deployment)),
    ).toEqual([{ action: "Admit", message: expect.any(String) }]);
  });

  it("evaluates variables lazily, reporting their errors by name", () => {
    const d = evaluatePolicy(
      spec({
        variables: [
          { name: "replicas", expression: "object.spec.replicas" },
          { name: "broken", expression: "object.spec.nothing" },
        ],
        validations: [
          { expression: "variables.replicas == 3" },
          { expression: "variables.broken == 1" },
        ],
      }),
      bindings(deployment),
    );
    expect(d).toEqual([
      { action: "Admit" },
      {
        action: "Deny",
        message:
          "expression 'variables.broken == 1' resulted in error: composited variable \"broken\" fails to evaluate: no such key: nothing",
      },
    ]);
    // A variable no expression reads is never evaluated: its error cannot surface.
    expect(
      evaluatePolicy(
        spec({
          variables: [{ name: "unused", expression: "object.spec.nothing" }],
          validations: [{ expression: "true" }],
        }),
        bindings(deployment),
      ),
    ).toEqual([{ action: "Admit" }]);
  });
});

describe("match conditions", () => {
  it("skips on false, even after an error, and reports errors otherwise", () => {
    const validations = [{ expression: "false" }];
    const matchConditions = [
      { name: "broken", expression: "object.nope == 1" },
      { name: "no", expression: "object.spec.replicas > 5" },
    ];
    expect(evaluatePolicy(spec({ validations, matchConditions }), bindings(deployment))).toEqual(
      [],
    );
    expect(
      evaluatePolicy(
        spec({ validations, matchConditions: [matchConditions[0]!] }),
        bindings(deployment),
      ),
    ).toEqual([
      {
        action: "Deny",
        message: "expression 'object.nope == 1' resulted in error: no such key: nope",
      },
    ]);
  });
});

describe("audit annotations", () => {
  it("deny under Fail only when their value is not a string or null", () => {
    const auditAnnotations = [
      { key: "ok", valueExpression: "'replicas: ' + string(object.spec.replicas)" },
      { key: "none", valueExpression: "null" },
      { key: "bad", valueExpression: "object.spec.replicas" },
    ];
    expect(evaluatePolicy(spec({ auditAnnotations }), bindings(deployment))).toEqual([
      {
        action: "Deny",
        audit: true,
        message:
          "valueExpression 'object.spec.replicas' resulted in unsupported return type: int. Return type must be either string or null.",
      },
    ]);
  });
});

describe("cost", () => {
  const items = (n: number) => ({ spec: { items: Array.from({ length: n }, (_, i) => i) } });
  const heavy = "object.spec.items.all(a, object.spec.items.all(b, a + b >= 0))";

  it("fails an expression past the per-call limit", () => {
    expect(
      evaluatePolicy(spec({ validations: [{ expression: heavy }] }), bindings(items(2000))),
    ).toEqual([
      {
        action: "Deny",
        message: `expression '${heavy}' resulted in error: operation cancelled: actual cost limit exceeded`,
      },
    ]);
  });

  it("stops every validation once the policy's runtime budget is spent", () => {
    // Each call stays under the per-call limit; twenty of them exceed the budget.
    const validations = Array.from({ length: 20 }, () => ({ expression: heavy }));
    expect(evaluatePolicy(spec({ validations }), bindings(items(300)))).toEqual([
      {
        action: "Deny",
        message:
          "validation failed due to running out of cost budget, no further validation rules will be run",
      },
    ]);
    expect(
      evaluatePolicy(spec({ validations: validations.slice(0, 2) }), bindings(items(300))),
    ).toEqual([{ action: "Admit" }, { action: "Admit" }]);
  });
});
