// CRD writes validated by @opgen/apimachinery/apiextensions, the validator `opgen manifests` runs
// too: printer columns, scale paths and typed CEL rules refused with kube-apiserver's 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
let n = 0;

/** A CRD `widgets<n>.demo.example.com` whose version has `extra` (columns, subresources). */
function crd(extra: object, rules: string[] = []) {
  const plural = `widgets${n++}`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.demo.example.com` },
    spec: {
      group: "demo.example.com",
      names: { plural, kind: `Widget${n}` },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: { replicas: { type: "integer" } },
                  ...(rules.length
                    ? { "x-kubernetes-validations": rules.map((rule) => ({ rule })) }
                    : {}),
                },
                status: { type: "object", properties: { replicas: { type: "integer" } } },
              },
            },
          },
          ...extra,
        },
      ],
    },
  };
}

const column = (c: object) => ({
  additionalPrinterColumns: [
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas", ...c },
  ],
});

describe("CRD validation", () => {
  it.each([
    [
      "a printer column of an unknown type",
      column({ type: "bogus" }),
      [
        "spec.versions[0].additionalPrinterColumns[0].type",
        'Invalid value: "bogus": must be one of boolean,date,integer,number,string',
      ],
    ],
    [
      "a printer column whose JSONPath lacks the leading dot",
      column({ jsonPath: "spec.replicas" }),
      [
        "spec.versions[0].additionalPrinterColumns[0].JSONPath",
        'Invalid value: "spec.replicas": must be a simple json path starting with .',
      ],
    ],
    [
      "a printer column of an unknown format",
      column({ format: "bogus" }),
      [
        "spec.versions[0].additionalPrinterColumns[0].format",
        'Invalid value: "bogus": must be one of byte,date,date-time,double,float,int32,int64,password',
      ],
    ],
    [
      "a printer column without a name",
      column({ name: "" }),
      ["spec.versions[0].additionalPrinterColumns[0].name", "Required value"],
    ],
    [
      "a scale path outside .spec",
      {
        subresources: {
          scale: { specReplicasPath: ".status.replicas", statusReplicasPath: ".status.replicas" },
        },
      },
      [
        "spec.versions[0].subresources.scale.specReplicasPath",
        'Invalid value: ".status.replicas": should be a json path under .spec',
      ],
    ],
  ])("refuses %s with kube's 422", async (_what, extra, [field, message]) => {
    const body = crd(extra);
    const r = await api(env, "POST", crds, body);
    expect(r.status, r.text).toBe(422);
    expect(r.body.message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "${body.metadata.name}" is invalid: ${field}: ${message}`,
    );
    expect(r.body.details.causes).toEqual([
      expect.objectContaining({ field, message: expect.stringContaining(message.split(": ")[0]!) }),
    ]);
  });

  it("refuses a rule comparing an integer with a string: rules are compiled typed", async () => {
    const r = await api(env, "POST", crds, crd({}, ["self.replicas == 'x'"]));
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.causes).toEqual([
      expect.objectContaining({
        field:
          "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
        message: expect.stringContaining(
          "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'",
        ),
      }),
    ]);
  });

  it("stores a negative priority and a CRD whose columns and rules are valid, as kube does", async () => {
    const r = await api(
      env,
      "POST",
      crds,
      crd(
        {
          ...column({ priority: -1, format: "int32" }),
          subresources: {
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
        },
        ["!has(self.replicas) || self.replicas >= 0"],
      ),
    );
    expect(r.status, r.text).toBe(201);
  });

  it("validates an update too", async () => {
    const body = crd(column({}));
    expect((await api(env, "POST", crds, body)).status).toBe(201);
    const stored = (await api(env, "GET", `${crds}/${body.metadata.name}`)).body;
    stored.spec.versions[0].additionalPrinterColumns[0].type = "bogus";
    const r = await api(env, "PUT", `${crds}/${body.metadata.name}`, stored);
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.causes[0].field).toBe(
      "spec.versions[0].additionalPrinterColumns[0].type",
    );
  });
});
