/**
 * The example filler (`create api`'s sample, envtest's `env.example`): each value it derives is
 * checked with the same validator the API server analogue uses (structural schema, then CEL), so
 * a value outside its bounds, off its pattern or format, or a duplicate list item fails here.
 */
import { describe, expect, it } from "vitest";
import {
  completeExample,
  type ExampleProblem,
  exampleBody,
  exampleValue,
  type JSONSchemaProps,
  patternExamples,
} from "../src/schema/index.js";
import { validateCustomResource } from "../src/validation/index.js";

/** A root schema as the CRD generator writes one, with `spec` as given. */
function root(spec: JSONSchemaProps): JSONSchemaProps {
  return {
    type: "object",
    required: ["spec"],
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec,
    },
  };
}

/** Fills the spec and proves the API server would take it. */
function fill(spec: JSONSchemaProps): { spec: unknown; problems: ExampleProblem[] } {
  const schema = root(spec);
  const { body, problems } = exampleBody(schema);
  const object = { apiVersion: "x.io/v1", kind: "X", metadata: { name: "x" }, ...body };
  const result = validateCustomResource(object, schema);
  expect(result.unknownFields).toEqual([]);
  expect(result.errors).toEqual([]);
  return { spec: body.spec, problems };
}

const obj = (properties: Record<string, JSONSchemaProps>, required = Object.keys(properties)) => ({
  type: "object" as const,
  properties,
  required,
});

describe("example filler", () => {
  it("fills only required fields, with defaults and first enum values", () => {
    const { spec, problems } = fill(
      obj(
        {
          mode: { type: "string", enum: ["Fast", "Safe"] },
          tier: { type: "string", default: "gold", enum: ["silver", "gold"] },
          paused: { type: "boolean" },
          optional: { type: "string" },
        },
        ["mode", "tier", "paused"],
      ),
    );
    expect(spec).toEqual({ mode: "Fast", tier: "gold", paused: false });
    expect(problems).toEqual([]);
  });

  it("keeps numbers inside minimum/maximum, exclusive bounds and multipleOf", () => {
    const { spec } = fill(
      obj({
        replicas: { type: "integer", minimum: 3, maximum: 5 },
        low: { type: "integer", maximum: -2 },
        above: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 1 },
        below: { type: "number", maximum: 1, exclusiveMaximum: true },
        step: { type: "integer", minimum: 7, multipleOf: 5 },
        ratio: { type: "number", minimum: 0.25, maximum: 0.75 },
        port: { "x-kubernetes-int-or-string": true, minimum: 1024 },
      }),
    );
    expect(spec).toEqual({
      replicas: 3,
      low: -2,
      above: 1,
      below: 0.5,
      step: 10,
      ratio: 0.75,
      port: 1024,
    });
  });

  it("fits strings to minLength/maxLength and patterns", () => {
    const { spec } = fill(
      obj({
        name: { type: "string" },
        long: { type: "string", minLength: 12 },
        short: { type: "string", maxLength: 2 },
        dns: { type: "string", pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", maxLength: 63 },
        semver: { type: "string", pattern: "^v\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.]+)?$" },
        code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2,4}$" },
        grown: { type: "string", pattern: "^x+$", minLength: 5 },
        either: { type: "string", pattern: "^(?:on|off)$" },
      }),
    );
    expect(spec).toEqual({
      name: "example",
      long: "examplexxxxx",
      short: "a",
      dns: "a",
      semver: "v0.0.0",
      code: "AAA-00",
      grown: "xxxxx",
      either: "on",
    });
  });

  it("gives each format a value of that format", () => {
    const formats = [
      "date-time",
      "date",
      "duration",
      "email",
      "hostname",
      "ipv4",
      "ipv6",
      "cidr",
      "mac",
      "uuid",
      "uuid3",
      "uuid4",
      "uuid5",
      "byte",
      "uri",
    ];
    const { spec } = fill(
      obj(Object.fromEntries(formats.map((f) => [f, { type: "string", format: f }]))),
    );
    expect((spec as Record<string, string>)["date-time"]).toBe("2025-01-01T00:00:00Z");
    expect((spec as Record<string, string>).ipv4).toBe("192.0.2.1");
  });

  it("fills nested required objects and lists of minItems distinct items", () => {
    const { spec } = fill(
      obj({
        backend: obj({
          service: obj({ name: { type: "string" }, port: { type: "integer", minimum: 1 } }),
          labels: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 },
        }),
        zones: {
          type: "array",
          minItems: 2,
          "x-kubernetes-list-type": "set",
          items: { type: "string", enum: ["a", "b", "c"] },
        },
        ports: {
          type: "array",
          minItems: 2,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: obj({ name: { type: "string" }, port: { type: "integer", maximum: 65535 } }),
        },
        tags: { type: "array", items: { type: "string" } },
        hosts: { type: "array", minItems: 2, uniqueItems: true, items: { type: "integer" } },
      }),
    );
    expect(spec).toEqual({
      backend: { service: { name: "example", port: 1 }, labels: { key1: "example" } },
      zones: ["a", "b"],
      ports: [
        { name: "example", port: 1 },
        { name: "example-2", port: 2 },
      ],
      tags: [],
      hosts: [1, 2],
    });
  });

  it("names what it cannot derive instead of guessing silently", () => {
    const problems: ExampleProblem[] = [];
    exampleValue({ type: "string", pattern: "^a{5}$", maxLength: 3 }, "spec.code", problems);
    exampleValue({ type: "integer", minimum: 3, maximum: 4, multipleOf: 5 }, "spec.n", problems);
    expect(problems).toEqual([
      {
        field: "spec.code",
        message: "no value derived for pattern '^a{5}$', length 0..3",
      },
      {
        field: "spec.n",
        message: "no integer within the bounds and a multiple of 5",
      },
    ]);
  });

  it("reads patterns as Go does: classes, escapes, groups, alternatives, counted repeats", () => {
    expect(patternExamples("^[^0-9]\\d{2}(ab|cd)+\\.x?$", 2)).toEqual([
      "a00ab.",
      "a00abab.",
      "a00ababab.",
    ]);
    expect(patternExamples("^(?i)[[:upper:]]\\w*$", 0)).toEqual(["A"]);
    expect(patternExamples("(unclosed", 0)).toBeUndefined();
  });
});

describe("completing a given object", () => {
  const spec = obj(
    {
      size: { type: "integer", minimum: 1 },
      mode: { type: "string", enum: ["Fast", "Safe"] },
      backend: obj({ host: { type: "string" }, port: { type: "integer", minimum: 1024 } }),
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: obj({ name: { type: "string" }, port: { type: "integer", maximum: 65535 } }),
      },
      labels: {
        type: "object",
        additionalProperties: obj({ value: { type: "string", minLength: 3 } }),
      },
      note: { type: "string" },
    },
    ["size", "mode"],
  );
  const schema = root(spec);

  it("keeps what the test sets and fills what the schema requires around it, at any depth", () => {
    const values = {
      apiVersion: "x.io/v1",
      kind: "X",
      metadata: { name: "x", namespace: "default" },
      spec: {
        mode: "Safe",
        backend: { host: "db" },
        ports: [{ port: 80 }, { port: 81 }],
        labels: { a: {} },
        note: "kept",
      },
    };
    const before = structuredClone(values);
    const { object, problems } = completeExample(schema, values);
    expect(problems).toEqual([]);
    expect(object).toEqual({
      apiVersion: "x.io/v1",
      kind: "X",
      metadata: { name: "x", namespace: "default" },
      spec: {
        size: 1,
        mode: "Safe",
        backend: { host: "db", port: 1024 },
        // Each item of a map list gets its own key.
        ports: [
          { name: "example", port: 80 },
          { name: "example-2", port: 81 },
        ],
        labels: { a: { value: "example" } },
        note: "kept",
      },
    });
    expect(values).toEqual(before);
    const result = validateCustomResource(object, schema);
    expect(result.errors).toEqual([]);
    expect(result.unknownFields).toEqual([]);
  });

  it("adds spec and its required fields when the test gives only metadata", () => {
    const { object, problems } = completeExample(schema, { metadata: { name: "x" } });
    expect(problems).toEqual([]);
    expect(object).toEqual({ metadata: { name: "x" }, spec: { size: 1, mode: "Fast" } });
  });

  it("fills nothing the test set, even a value the schema refuses (the validator names it)", () => {
    const values = { apiVersion: "x.io/v1", kind: "X", metadata: { name: "x" }, spec: { size: 0 } };
    const { object } = completeExample(schema, values);
    expect(object.spec).toEqual({ size: 0, mode: "Fast" });
    expect(validateCustomResource(object, schema).errors.map((e) => e.field)).toEqual([
      "spec.size",
    ]);
  });

  it("reports a required field it cannot derive, naming the field", () => {
    const strict = root(obj({ code: { type: "string", pattern: "^a{5}$", maxLength: 3 } }));
    expect(completeExample(strict, { spec: {} }).problems).toEqual([
      { field: "spec.code", message: "no value derived for pattern '^a{5}$', length 0..3" },
    ]);
    expect(completeExample(strict, { spec: { code: "given" } }).problems).toEqual([]);
  });

  it("is exampleBody when nothing is given", () => {
    expect(completeExample(schema, {}).object).toEqual(exampleBody(schema).body);
  });
});
