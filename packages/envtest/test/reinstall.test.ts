// env.reinstall(): manifests regenerated while envtest runs (opgen dev after a rebuild) are
// created or replaced through the API and Established before it resolves.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

function crdYaml(plural: string, props: string): string {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.re.example.com
spec:
  group: re.example.com
  scope: Namespaced
  names: { plural: ${plural}, kind: ${kind} }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
${props}
`;
}

const dir = mkdtempSync(join(tmpdir(), "envtest-reinstall-"));
let env: TestEnv;
beforeAll(async () => {
  writeFileSync(
    join(dir, "things.yaml"),
    crdYaml("things", "                size: { type: integer }"),
  );
  env = await startTestEnv({ crdDirectoryPaths: [dir] });
});
afterAll(async () => {
  await env?.stop();
});

const things = "/apis/re.example.com/v1/namespaces/default/things";
const thing = (name: string, spec: object) => ({
  apiVersion: "re.example.com/v1",
  kind: "Thing",
  metadata: { name },
  spec,
});

describe("reinstall", () => {
  it("replaces a changed CRD and creates a new one, serving both at once", async () => {
    const before = await api(
      env,
      "POST",
      `${things}?fieldValidation=Strict`,
      thing("a", { tier: "x" }),
    );
    expect(before.status).toBe(400);
    writeFileSync(
      join(dir, "things.yaml"),
      crdYaml(
        "things",
        "                size: { type: integer }\n                tier: { type: string }",
      ),
    );
    writeFileSync(
      join(dir, "gadgets.yaml"),
      crdYaml("gadgets", "                on: { type: boolean }"),
    );
    await env.reinstall();
    const after = await api(
      env,
      "POST",
      `${things}?fieldValidation=Strict`,
      thing("a", { tier: "x" }),
    );
    expect(after.status, after.text).toBe(201);
    expect(
      (await api(env, "GET", "/apis/re.example.com/v1/namespaces/default/gadgets")).status,
    ).toBe(200);
  });

  it("leaves an unchanged CRD as it was", async () => {
    const crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.re.example.com";
    const rv = (await api(env, "GET", crd)).body.metadata.resourceVersion;
    await env.reinstall();
    expect((await api(env, "GET", crd)).body.metadata.resourceVersion).toBe(rv);
  });

  it("rejects with the API server's refusal of a changed CRD", async () => {
    writeFileSync(
      join(dir, "gadgets.yaml"),
      crdYaml("gadgets", "                on: { type: bogus }"),
    );
    await expect(env.reinstall()).rejects.toThrow(
      /properties\[on\]\.type: Unsupported value: "bogus": supported values: "array", "boolean", "integer", "number", "object", "string"/,
    );
  });
});
