// CEL x-kubernetes-validations (apiserver-spec.md §8.6) with controller-gen's one-of and
// immutability fixtures.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
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
