// CEL x-kubernetes-validations (apiserver-spec.md §8.6) with controller-gen's one-of and
// immutability fixtures.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "cel")] });
});
afterAll(async () => {
  await env?.stop();
});

const oneofs = "/apis/testdata.kubebuilder.io/v1beta1/namespaces/default/oneofs";
const immutables = "/apis/testdata.kubebuilder.io/v1/namespaces/default/immutabletypes";

describe("one-of rules", () => {
  const oneof = (name: string, spec: object) => ({
    apiVersion: "testdata.kubebuilder.io/v1beta1",
    kind: "Oneof",
    metadata: { name },
    spec,
  });

  it("accepts objects satisfying every rule", async () => {
    const r = await api(
      env,
      "POST",
      oneofs,
      oneof("ok", { firstTypeWithOneof: { foo: "x" }, firstCustomTypeAlias: 150 }),
    );
    expect(r.status).toBe(201);
  });

  it("reports the rule message at the node's path", async () => {
    const r = await api(
      env,
      "POST",
      oneofs,
      oneof("both", { firstTypeWithOneof: { foo: "x", bar: "y" } }),
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Oneof.testdata.kubebuilder.io "both" is invalid: [spec.firstTypeWithOneof: Invalid value: "object": only one of foo|bar may be set, spec.firstTypeWithOneof: Invalid value: "object": at most one of the fields in [foo bar] may be set]',
    );
    expect(r.body.details.causes[0]).toEqual({
      reason: "FieldValueInvalid",
      message: 'Invalid value: "object": only one of foo|bar may be set',
      field: "spec.firstTypeWithOneof",
    });
  });

  it("checks exactly-one rules and integer ranges", async () => {
    const none = await api(env, "POST", oneofs, oneof("none", { firstTypeWithExactOneof: {} }));
    expect(none.body.message).toBe(
      'Oneof.testdata.kubebuilder.io "none" is invalid: spec.firstTypeWithExactOneof: Invalid value: "object": exactly one of the fields in [foo bar] must be set',
    );
    const range = await api(env, "POST", oneofs, oneof("range", { firstCustomTypeAlias: 5 }));
    expect(range.body.message).toBe(
      'Oneof.testdata.kubebuilder.io "range" is invalid: spec.firstCustomTypeAlias: Invalid value: "integer": invalid CustomTypeAlias value',
    );
  });

  it("does not run CEL when the schema already failed", async () => {
    const r = await api(
      env,
      "POST",
      oneofs,
      oneof("typed", { firstCustomTypeAlias: "x", firstTypeWithOneof: { foo: "a", bar: "b" } }),
    );
    expect(r.body.details.causes).toHaveLength(1);
    expect(r.body.details.causes[0].reason).toBe("FieldValueTypeInvalid");
  });
});

describe("transition rules", () => {
  const base = {
    mutableString: "m",
    requiredString: "a",
    requiredSlice: ["x"],
    requiredMap: { k: "v" },
    requiredStruct: { key: "k", value: "v" },
    optionalString: "o",
  };
  const body = (spec: object, rv?: string) => ({
    apiVersion: "testdata.kubebuilder.io/v1",
    kind: "ImmutableType",
    metadata: { name: "im", ...(rv ? { resourceVersion: rv } : {}) },
    spec,
  });

  it("enforces self == oldSelf only on update, and once-set fields", async () => {
    const created = await api(env, "POST", immutables, body(base));
    expect(created.status).toBe(201);
    const rv = created.body.metadata.resourceVersion;
    const mutable = await api(
      env,
      "PUT",
      `${immutables}/im`,
      body({ ...base, mutableString: "changed" }, rv),
    );
    expect(mutable.status).toBe(200);
    const changed = await api(
      env,
      "PUT",
      `${immutables}/im`,
      body({ ...base, requiredString: "b" }, mutable.body.metadata.resourceVersion),
    );
    expect(changed.status).toBe(422);
    expect(changed.body.message).toBe(
      'ImmutableType.testdata.kubebuilder.io "im" is invalid: spec.requiredString: Invalid value: "string": field is immutable',
    );
    const { optionalString: _, ...withoutOptional } = base;
    const unset = await api(
      env,
      "PUT",
      `${immutables}/im`,
      body(withoutOptional, mutable.body.metadata.resourceVersion),
    );
    expect(unset.status).toBe(422);
    expect(unset.body.details.causes[0].field).toBe("spec");
    expect(unset.body.details.causes[0].message).toContain("optionalString");
  });
});

describe("estimated rule cost at CRD creation", () => {
  const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const rule = "self.all(x, x.matches('^[a-z]+$'))";
  const crd = (tags: object, resourceVersion?: string) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "taggeds.cost.example.com", ...(resourceVersion ? { resourceVersion } : {}) },
    spec: {
      group: "cost.example.com",
      scope: "Namespaced",
      names: { plural: "taggeds", kind: "Tagged" },
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
                  properties: {
                    tags: { type: "array", ...tags, "x-kubernetes-validations": [{ rule }] },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
  const at =
    "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule";
  const hint =
    "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
  const refused = [
    {
      reason: "FieldValueForbidden",
      field: at,
      message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
    },
    {
      reason: "FieldValueForbidden",
      field: at,
      message:
        "Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
    },
    {
      reason: "FieldValueForbidden",
      field: "spec.versions[0].schema.openAPIV3Schema",
      message: `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    },
  ];

  it("refuses a rule over a list of strings without maxItems and maxLength, as kube does", async () => {
    const r = await api(env, "POST", crds, crd({ items: { type: "string" } }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual(refused);
  });

  it("accepts it once the list and its strings are bounded, and refuses dropping the bounds", async () => {
    const bounded = { maxItems: 10, items: { type: "string", maxLength: 64 } };
    const created = await api(env, "POST", crds, crd(bounded));
    expect(created.status, created.text).toBe(201);
    // The CRD controller updates the status once it is established: update the latest.
    let unbounded = await api(env, "GET", `${crds}/taggeds.cost.example.com`);
    for (let i = 0; i < 20; i++) {
      const rv = (await api(env, "GET", `${crds}/taggeds.cost.example.com`)).body.metadata
        .resourceVersion;
      unbounded = await api(
        env,
        "PUT",
        `${crds}/taggeds.cost.example.com`,
        crd({ items: { type: "string" } }, rv),
      );
      if (unbounded.status !== 409) break;
    }
    expect(unbounded.status).toBe(422);
    expect(unbounded.body.details.causes).toEqual(refused);
  });
});

describe("rules over embedded and preserve-unknown-fields objects", () => {
  const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const crd = (plural: string, rules: string[]) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.embedded.example.com` },
    spec: {
      group: "embedded.example.com",
      scope: "Namespaced",
      names: { plural, kind: plural[0]?.toUpperCase() + plural.slice(1, -1) },
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
                  properties: {
                    template: {
                      type: "object",
                      "x-kubernetes-embedded-resource": true,
                      "x-kubernetes-preserve-unknown-fields": true,
                    },
                  },
                  "x-kubernetes-validations": rules.map((rule) => ({ rule })),
                },
              },
            },
          },
        },
      ],
    },
  });

  it("sees an embedded resource's apiVersion, kind and metadata.name, and checks them", async () => {
    const created = await api(
      env,
      "POST",
      crds,
      crd("wrappers", ["!has(self.template) || self.template.kind == 'Pod'"]),
    );
    expect(created.status, created.text).toBe(201);
    const path = "/apis/embedded.example.com/v1/namespaces/default/wrappers";
    const obj = (name: string, kind: string) => ({
      apiVersion: "embedded.example.com/v1",
      kind: "Wrapper",
      metadata: { name },
      spec: { template: { apiVersion: "v1", kind, metadata: { name: "x" }, spec: { a: 1 } } },
    });
    // The CRD serves once it is established.
    const r = await eventually(async () => {
      const created = await api(env, "POST", path, obj("pod", "Pod"));
      expect(created.status, created.text).not.toBe(404);
      return created;
    });
    expect(r.status, r.text).toBe(201);
    const bad = await api(env, "POST", path, obj("svc", "Service"));
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0]).toMatchObject({
      field: "spec",
      message: expect.stringContaining(
        "failed rule: !has(self.template) || self.template.kind == 'Pod'",
      ),
    });
  });

  it("refuses a rule reading a field the schema does not declare, as kube does", async () => {
    const r = await api(env, "POST", crds, crd("peekers", ["has(self.template.spec)"]));
    expect(r.status).toBe(422);
    expect(r.body.details.causes[0].field).toBe(
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    );
    expect(r.body.details.causes[0].message).toContain(
      // cel-go places the presence test has() expands to at the call's parenthesis.
      "compilation failed: ERROR: <input>:1:4: undefined field 'spec'\n | has(self.template.spec)\n | ...^",
    );
  });
});
