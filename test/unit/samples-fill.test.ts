/**
 * The sample filler of `create api`: each value it derives is checked with the same validator the
 * API server analogue uses (structural schema, then CEL), so a value outside its bounds, off its
 * pattern or format, or a duplicate list item fails here.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { validateCustomResource } from "@opgen/apimachinery/validation";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type SampleProblem, sampleBody, sampleValue } from "../../src/generators/samples/fill.js";
import { patternCandidates } from "../../src/generators/samples/pattern-value.js";
import { renderSample } from "../../src/generators/samples/sample.js";

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
function fill(spec: JSONSchemaProps): { spec: unknown; problems: SampleProblem[] } {
  const schema = root(spec);
  const { body, problems } = sampleBody(schema);
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

describe("sample filler", () => {
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
    const problems: SampleProblem[] = [];
    sampleValue({ type: "string", pattern: "^a{5}$", maxLength: 3 }, "spec.code", problems);
    sampleValue({ type: "integer", minimum: 3, maximum: 4, multipleOf: 5 }, "spec.n", problems);
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
    expect(patternCandidates("^[^0-9]\\d{2}(ab|cd)+\\.x?$", 2)).toEqual([
      "a00ab.",
      "a00abab.",
      "a00ababab.",
    ]);
    expect(patternCandidates("^(?i)[[:upper:]]\\w*$", 0)).toEqual(["A"]);
    expect(patternCandidates("(unclosed", 0)).toBeUndefined();
  });
});

describe("rendered sample", () => {
  const meta = {
    apiVersion: "demo.my.domain/v1",
    kind: "AppCluster",
    name: "appcluster-sample",
    projectName: "demo",
  };

  it("keeps Kubebuilder's header and puts the TODO hint in spec", () => {
    const { content, problems } = renderSample(
      root(obj({ size: { type: "integer", minimum: 1, maximum: 10 } })),
      meta,
    );
    expect(problems).toEqual([]);
    expect(content).toBe(
      [
        "apiVersion: demo.my.domain/v1",
        "kind: AppCluster",
        "metadata:",
        "  labels:",
        "    app.kubernetes.io/name: demo",
        "    app.kubernetes.io/managed-by: kustomize",
        "  name: appcluster-sample",
        "spec:",
        "  # TODO(user): Add fields here; `npm run manifests` checks this sample against the CRD.",
        "  size: 1",
        "",
      ].join("\n"),
    );
  });

  it("writes an empty spec as {} under the hint, not null", () => {
    const { content } = renderSample(root({ type: "object", properties: {} }), meta);
    expect(content.endsWith("against the CRD.\nspec: {}\n")).toBe(true);
    expect(parse(content).spec).toEqual({});
  });

  it("says when a CEL rule refuses the derived values, in the file and to the caller", () => {
    const spec: JSONSchemaProps = {
      ...obj({ min: { type: "integer" }, max: { type: "integer" } }),
      "x-kubernetes-validations": [{ rule: "self.max > self.min", message: "max must exceed min" }],
    };
    const { content, problems } = renderSample(root(spec), meta);
    expect(problems).toEqual(['spec: Invalid value: "object": max must exceed min']);
    expect(content).toContain(
      '# TODO(user): fix spec: Invalid value: "object": max must exceed min\n',
    );
  });
});
