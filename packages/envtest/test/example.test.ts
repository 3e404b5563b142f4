// env.example(kind, values): a test object completed from the CRD installed now, so a test keeps
// passing when a field becomes required (after `opgen manifests`; the CRD replaced here), while the
// values the test sets are kept and, when the schema refuses them, refused with the field named.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExampleKind, startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec: {
    size: number;
    mode: "Fast" | "Safe";
    tier?: string;
    ports?: { name: string; port: number }[];
  };
}

const group = "ex.example.com";
const Widget: ExampleKind<Widget> = { group, version: "v1", kind: "Widget", plural: "widgets" };
const WidgetV2: ExampleKind = { group, version: "v2", kind: "Widget", plural: "widgets" };

type Schema = Record<string, unknown>;
const obj = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: "object",
  required,
  properties,
});

/** v1's spec: size and mode required, plus what a test adds. */
const v1Spec = (extra: Record<string, Schema> = {}) =>
  obj(
    {
      size: { type: "integer", minimum: 1 },
      mode: { type: "string", enum: ["Fast", "Safe"] },
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: obj({ name: { type: "string" }, port: { type: "integer", minimum: 1024 } }, [
          "name",
          "port",
        ]),
      },
      ...extra,
    },
    ["size", "mode", ...Object.keys(extra)],
  );

function crd(spec: Schema, resourceVersion?: string) {
  const version = (name: string, storage: boolean, specSchema: Schema) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: "object", properties: { spec: specSchema } } },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `widgets.${group}`, ...(resourceVersion ? { resourceVersion } : {}) },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      versions: [
        version("v1", true, spec),
        version("v2", false, obj({ replicas: { type: "integer", minimum: 2 } }, ["replicas"])),
        {
          name: "v3",
          served: false,
          storage: false,
          schema: { openAPIV3Schema: { type: "object" } },
        },
      ],
    },
  };
}

/** Replaces the CRD's v1 spec schema, as `opgen manifests` and a new test run would. */
async function changeV1(spec: Schema) {
  const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`;
  const current = await api(env, "GET", path);
  const replaced = await api(env, "PUT", path, crd(spec, current.body.metadata.resourceVersion));
  expect(replaced.status, replaced.text).toBe(200);
}

const dir = mkdtempSync(join(tmpdir(), "envtest-example-"));
let env: TestEnv;
beforeAll(async () => {
  writeFileSync(join(dir, "widgets.json"), JSON.stringify(crd(v1Spec())));
  env = await startTestEnv({ crdDirectoryPaths: [dir] });
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const widgets = `/apis/${group}/v1/namespaces/default/widgets`;

describe("env.example", () => {
  it("fills what the CRD requires around the test's values, and the API server takes it", async () => {
    const w = await env.example(Widget, {
      metadata: { name: "a", namespace: "default", labels: { team: "x" } },
      spec: { mode: "Safe", ports: [{ port: 8080 }, { port: 8081 }] },
    });
    expect(w).toEqual({
      apiVersion: `${group}/v1`,
      kind: "Widget",
      metadata: { name: "a", namespace: "default", labels: { team: "x" } },
      spec: {
        mode: "Safe",
        ports: [
          { port: 8080, name: "example" },
          { port: 8081, name: "example-2" },
        ],
        size: 1,
      },
    });
    // Typed as the kind's objects.
    const size: number = w.spec.size;
    expect(size).toBe(1);
    const created = await api(env, "POST", `${widgets}?fieldValidation=Strict`, w);
    expect(created.status, created.text).toBe(201);
  });

  it("reads the CRD installed now: a field made required later is filled too", async () => {
    await changeV1(v1Spec({ tier: { type: "string", pattern: "^t[0-9]+$" } }));
    const w = await env.example(Widget, { metadata: { name: "b", namespace: "default" } });
    expect(w.spec).toEqual({ size: 1, mode: "Fast", tier: "t0" });
    const created = await api(env, "POST", widgets, w);
    expect(created.status, created.text).toBe(201);
  });

  it("keeps a value the test sets even when the schema refuses it: the 422 names the field", async () => {
    const w = await env.example(Widget, {
      metadata: { name: "c", namespace: "default" },
      spec: { size: 0 },
    });
    expect(w.spec.size).toBe(0);
    const refused = await api(env, "POST", widgets, w);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(
      "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
    );
  });

  it("uses the schema of the kind's version", async () => {
    const w = await env.example(WidgetV2, { metadata: { name: "d", namespace: "default" } });
    expect(w).toEqual({
      apiVersion: `${group}/v2`,
      kind: "Widget",
      metadata: { name: "d", namespace: "default" },
      spec: { replicas: 2 },
    });
  });

  it("says what is wrong when the kind has no CRD, the version is not served or a value cannot be derived", async () => {
    await expect(
      env.example({ group, version: "v1", kind: "Gadget", plural: "gadgets" }),
    ).rejects.toThrow(
      `example(Gadget ${group}/v1): no CustomResourceDefinition gadgets.${group} is installed: list its directory (config/crd/bases, which \`opgen manifests\` writes) in startTestEnv's crdDirectoryPaths`,
    );
    await expect(env.example({ ...WidgetV2, version: "v3" })).rejects.toThrow(
      `example(Widget ${group}/v3): the CRD widgets.${group} serves v1, v2, not v3`,
    );
    await changeV1(v1Spec({ code: { type: "string", pattern: "^a{5}$", maxLength: 3 } }));
    await expect(env.example(Widget, { metadata: { name: "e" } })).rejects.toThrow(
      `example(Widget ${group}/v1): no valid value could be derived for spec.code (no value derived for pattern '^a{5}$', length 0..3): set it in the values given to example()`,
    );
  });
});
