/**
 * The sample `create api` writes: Kubebuilder's header and labels, the body `exampleBody` fills
 * from the CRD schema (its own tests: packages/apimachinery/test/example.test.ts), and what the
 * schema still refuses named in the file and to the caller.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
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

const obj = (properties: Record<string, JSONSchemaProps>, required = Object.keys(properties)) => ({
  type: "object" as const,
  properties,
  required,
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
