// CustomResourceDefinitions: apiserver-spec.md §8 and §12 (5), the seed CRDs, discovery.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures, watchStream } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({
    crdDirectoryPaths: [join(fixtures, "seeds"), join(fixtures, "crds", "widgets.yaml")],
  });
});
afterAll(async () => {
  await env?.stop();
});

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(group: string, plural: string, kind: string, schema: object, extra: object = {}) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { plural, kind },
      scope: "Namespaced",
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      ...extra,
    },
  };
}

async function established(name: string) {
  await eventually(async () => {
    const c = (await api(env, "GET", `${crds}/${name}`)).body;
    expect(
      c.status.conditions.find((x: { type: string }) => x.type === "Established")?.status,
    ).toBe("True");
  });
}

describe("seed CRDs", () => {
  it("installs MyApp (seed 001) and applies its defaults and validation", async () => {
    const path = "/apis/example.com/v1/namespaces/default/myapps";
    const ok = await api(env, "POST", path, {
      apiVersion: "example.com/v1",
      kind: "MyApp",
      metadata: { name: "app" },
      spec: { image: "nginx:1.25" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.spec).toEqual({
      image: "nginx:1.25",
      port: 8080,
      replicas: 1,
      serviceType: "ClusterIP",
    });
    const bad = await api(env, "POST", path, {
      apiVersion: "example.com/v1",
      kind: "MyApp",
      metadata: { name: "bad" },
      spec: {
        image: "nginx latest",
        replicas: 101,
        serviceType: "Ingress",
        autoScaling: { enabled: true },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'MyApp.example.com "bad" is invalid: [spec.autoScaling.maxReplicas: Required value, spec.image: Invalid value: "nginx latest": spec.image in body should match \'^[a-zA-Z0-9\\-\\./:]+$\', spec.replicas: Invalid value: 101: spec.replicas in body should be less than or equal to 100, spec.serviceType: Unsupported value: "Ingress": supported values: "ClusterIP", "NodePort", "LoadBalancer"]',
    );
    expect(bad.body.details.causes).toContainEqual({
      reason: "FieldValueRequired",
      message: "Required value",
      field: "spec.autoScaling.maxReplicas",
    });
    const scaled = await api(env, "GET", `${path}/app/scale`);
    expect(scaled.body.spec.replicas).toBe(1);
  });

  it("installs AppCluster (seed 003): size defaults to 1 and must be >= 0", async () => {
    const path = "/apis/demo.my.domain/v1/namespaces/default/appclusters";
    const ok = await api(env, "POST", path, {
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "a" },
      spec: {},
    });
    expect(ok.body.spec).toEqual({ size: 1 });
    const bad = await api(env, "POST", path, {
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "b" },
      spec: { size: -1 },
    });
    expect(bad.body.message).toBe(
      'AppCluster.demo.my.domain "b" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0',
    );
    const status = await api(env, "PUT", `${path}/a/status`, {
      ...ok.body,
      status: {
        conditions: [
          {
            type: "Available",
            status: "Maybe",
            reason: "x",
            message: "",
            lastTransitionTime: "2026-01-01T00:00:00Z",
          },
        ],
      },
    });
    expect(status.status).toBe(422);
    expect(status.body.message).toBe(
      'AppCluster.demo.my.domain "a" is invalid: status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    );
  });
});

describe("schema validation messages", () => {
  const schema = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        required: ["req"],
        properties: {
          req: { type: "string" },
          int: { type: "integer", minimum: 1, maximum: 10 },
          exMin: { type: "integer", minimum: 1, exclusiveMinimum: true },
          exMax: { type: "integer", maximum: 10, exclusiveMaximum: true },
          short: { type: "string", maxLength: 3 },
          long: { type: "string", minLength: 3 },
          pat: { type: "string", pattern: "^[a-z]+$" },
          few: { type: "array", maxItems: 1, items: { type: "string" } },
          many: { type: "array", minItems: 2, items: { type: "string" } },
          mult: { type: "integer", multipleOf: 5 },
          uniq: { type: "array", uniqueItems: true, items: { type: "string" } },
          props: { type: "object", minProperties: 1, additionalProperties: { type: "string" } },
          set: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
          port: { "x-kubernetes-int-or-string": true },
          nested: { type: "object", properties: { inner: { type: "string", default: "d" } } },
          free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
      },
    },
  };
  const path = "/apis/checks.example.com/v1/namespaces/default/checks";
  const body = (spec: object) => ({
    apiVersion: "checks.example.com/v1",
    kind: "Check",
    metadata: { name: "c" },
    spec,
  });

  beforeAll(async () => {
    expect(
      (await api(env, "POST", crds, crd("checks.example.com", "checks", "Check", schema))).status,
    ).toBe(201);
    await established("checks.checks.example.com");
  });

  const cases: [string, object, string, string][] = [
    ["required", {}, "spec.req: Required value", "FieldValueRequired"],
    [
      "type",
      { req: 1 },
      'spec.req: Invalid value: "integer": spec.req in body must be of type string: "integer"',
      "FieldValueTypeInvalid",
    ],
    [
      "minimum",
      { req: "", int: 0 },
      "spec.int: Invalid value: 0: spec.int in body should be greater than or equal to 1",
      "FieldValueInvalid",
    ],
    [
      "maximum",
      { req: "", int: 11 },
      "spec.int: Invalid value: 11: spec.int in body should be less than or equal to 10",
      "FieldValueInvalid",
    ],
    [
      "exclusiveMinimum",
      { req: "", exMin: 1 },
      "spec.exMin: Invalid value: 1: spec.exMin in body should be greater than 1",
      "FieldValueInvalid",
    ],
    [
      "exclusiveMaximum",
      { req: "", exMax: 10 },
      "spec.exMax: Invalid value: 10: spec.exMax in body should be less than 10",
      "FieldValueInvalid",
    ],
    [
      "maxLength",
      { req: "", short: "abcd" },
      "spec.short: Too long: may not be more than 3 bytes",
      "FieldValueTooLong",
    ],
    [
      "minLength",
      { req: "", long: "ab" },
      'spec.long: Invalid value: "ab": spec.long in body should be at least 3 chars long',
      "FieldValueInvalid",
    ],
    [
      "pattern",
      { req: "", pat: "X" },
      "spec.pat: Invalid value: \"X\": spec.pat in body should match '^[a-z]+$'",
      "FieldValueInvalid",
    ],
    [
      "maxItems",
      { req: "", few: ["a", "b"] },
      "spec.few: Too many: 2: must have at most 1 items",
      "FieldValueTooMany",
    ],
    [
      "minItems",
      { req: "", many: ["a"] },
      "spec.many: Invalid value: 1: spec.many in body should have at least 2 items",
      "FieldValueInvalid",
    ],
    [
      "multipleOf",
      { req: "", mult: 7 },
      "spec.mult: Invalid value: 7: spec.mult in body should be a multiple of 5",
      "FieldValueInvalid",
    ],
    [
      "minProperties",
      { req: "", props: {} },
      "spec.props: Invalid value: 0: spec.props in body should have at least 1 properties",
      "FieldValueInvalid",
    ],
    [
      "list-type set",
      { req: "", set: ["a", "a"] },
      'spec.set[1]: Duplicate value: "a"',
      "FieldValueDuplicate",
    ],
    [
      "int-or-string",
      { req: "", port: true },
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      "FieldValueTypeInvalid",
    ],
  ];
  for (const [name, spec, message, reason] of cases) {
    it(`reports ${name}`, async () => {
      const r = await api(env, "POST", path, body(spec));
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(`Check.checks.example.com "c" is invalid: ${message}`);
      expect(r.body.details.causes[0].reason).toBe(reason);
    });
  }

  it("prunes unknown fields with a warning by default, 400 under Strict, silently under Ignore", async () => {
    const warn = await api(
      env,
      "POST",
      `${path}?dryRun=All`,
      body({ req: "", unknown: 1, free: { anything: 1 } }),
    );
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toBe('299 - "unknown field \\"spec.unknown\\""');
    expect(warn.body.spec).toEqual({ req: "", free: { anything: 1 } });
    const strict = await api(
      env,
      "POST",
      `${path}?fieldValidation=Strict`,
      body({ req: "", unknown: 1 }),
    );
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'Check in version "v1" cannot be handled as a Check: strict decoding error: unknown field "spec.unknown"',
    );
    const ignore = await api(
      env,
      "POST",
      `${path}?fieldValidation=Ignore&dryRun=All`,
      body({ req: "", unknown: 1 }),
    );
    expect(ignore.status).toBe(201);
    expect(ignore.headers.warning).toBeUndefined();
  });

  it("defaults only where the parent exists", async () => {
    const without = await api(env, "POST", `${path}?dryRun=All`, body({ req: "" }));
    expect(without.body.spec.nested).toBeUndefined();
    const withParent = await api(env, "POST", `${path}?dryRun=All`, body({ req: "", nested: {} }));
    expect(withParent.body.spec.nested).toEqual({ inner: "d" });
  });
});

describe("CRD lifecycle", () => {
  it("validates CRDs with the real messages", async () => {
    const wrongName = crd("x.example.com", "things", "Thing", { type: "object" });
    wrongName.metadata.name = "stuff.x.example.com";
    const r = await api(env, "POST", crds, wrongName);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "stuff.x.example.com" is invalid: metadata.name: Invalid value: "stuff.x.example.com": must be spec.names.plural+"."+spec.group',
    );
    const noStorage = crd("y.example.com", "things", "Thing", { type: "object" });
    noStorage.spec.versions[0]!.storage = false;
    const r2 = await api(env, "POST", crds, noStorage);
    expect(r2.body.details.causes).toContainEqual(
      expect.objectContaining({
        field: "spec.versions",
        message: expect.stringContaining("must have exactly one version marked as storage version"),
      }),
    );
  });

  it("rejects invalid defaults and list-map keys that are neither required nor defaulted", async () => {
    const badDefault = crd("d.example.com", "things", "Thing", {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { replicas: { type: "integer", minimum: 1, default: 0 } },
        },
      },
    });
    const r = await api(env, "POST", crds, badDefault);
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toContainEqual({
      reason: "FieldValueInvalid",
      message: "Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
      field:
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[replicas].default",
    });
    const badKeys = crd("k.example.com", "things", "Thing", {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            ports: {
              type: "array",
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              items: { type: "object", properties: { name: { type: "string" } } },
            },
          },
        },
      },
    });
    const r2 = await api(env, "POST", crds, badKeys);
    expect(r2.status).toBe(422);
    expect(r2.body.details.causes[0]).toMatchObject({
      field:
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].items.properties[name]",
      reason: "FieldValueRequired",
    });
  });

  it("warns about unqualified finalizers, but not about the CRD's own", async () => {
    const c = await api(
      env,
      "POST",
      crds,
      crd("w.example.com", "things", "Thing", { type: "object" }),
    );
    expect(c.status).toBe(201);
    expect(c.body.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
    expect(c.headers.warning).toBeUndefined();
    const cm = await api(env, "POST", "/api/v1/namespaces/default/configmaps", {
      metadata: { name: "fin", finalizers: ["cleanup"] },
    });
    expect(cm.headers.warning).toBe(
      '299 - "metadata.finalizers: \\"cleanup\\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"',
    );
  });

  it("reports name conflicts in NamesAccepted", async () => {
    const dup = crd("example.com", "gizmos", "Widget", { type: "object" });
    await api(env, "POST", crds, dup);
    await eventually(async () => {
      const c = (await api(env, "GET", `${crds}/gizmos.example.com`)).body;
      expect(
        c.status.conditions.find((x: { type: string }) => x.type === "NamesAccepted"),
      ).toMatchObject({
        status: "False",
        // The defaulted singular ("widget") is checked before the kind, as upstream.
        reason: "SingularConflict",
        message: '"widget" is already in use',
      });
    });
    expect((await api(env, "GET", "/apis/example.com/v1/namespaces/default/gizmos")).status).toBe(
      404,
    );
  });

  it("serves several versions with conversion None and warns on deprecated ones", async () => {
    const multi = {
      ...crd("multi.example.com", "things", "Thing", {}),
      spec: {
        group: "multi.example.com",
        names: { plural: "things", kind: "Thing" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1beta1",
            served: true,
            storage: false,
            deprecated: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: {
                    type: "object",
                    properties: { old: { type: "string", default: "beta" } },
                  },
                },
              },
            },
          },
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: { type: "object", properties: { size: { type: "integer", default: 1 } } },
                },
              },
            },
          },
        ],
      },
    };
    expect((await api(env, "POST", crds, multi)).status).toBe(201);
    await established("things.multi.example.com");
    const created = await api(
      env,
      "POST",
      "/apis/multi.example.com/v1beta1/namespaces/default/things",
      {
        apiVersion: "multi.example.com/v1beta1",
        kind: "Thing",
        metadata: { name: "t" },
        spec: {},
      },
    );
    expect(created.status).toBe(201);
    expect(created.headers.warning).toBe(
      '299 - "multi.example.com/v1beta1 Thing is deprecated; use multi.example.com/v1 Thing"',
    );
    expect(created.body).toMatchObject({
      apiVersion: "multi.example.com/v1beta1",
      spec: { old: "beta" },
    });
    const v1 = await api(env, "GET", "/apis/multi.example.com/v1/namespaces/default/things/t");
    // Stored in v1 (pruned to v1's schema), defaulted with v1's defaults on read.
    expect(v1.body).toMatchObject({ apiVersion: "multi.example.com/v1", spec: { size: 1 } });
    expect(v1.body.spec.old).toBeUndefined();
    const group = await api(env, "GET", "/apis/multi.example.com");
    expect(group.body.preferredVersion).toEqual({
      groupVersion: "multi.example.com/v1",
      version: "v1",
    });
    expect(group.body.versions.map((v: { version: string }) => v.version)).toEqual([
      "v1",
      "v1beta1",
    ]);
  });

  it("applies CRD updates to later requests and serves selectableFields", async () => {
    const schema = (withSize: boolean) => ({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            color: { type: "string" },
            ...(withSize ? { size: { type: "integer", default: 3 } } : {}),
          },
        },
      },
    });
    const c = crd("paint.example.com", "cans", "Can", schema(false)) as ReturnType<typeof crd> & {
      spec: { versions: Record<string, unknown>[] };
    };
    c.spec.versions[0]!.selectableFields = [{ jsonPath: ".spec.color" }];
    expect((await api(env, "POST", crds, c)).status).toBe(201);
    await established("cans.paint.example.com");
    const path = "/apis/paint.example.com/v1/namespaces/default/cans";
    for (const [name, color] of [
      ["red", "red"],
      ["blue", "blue"],
    ]) {
      await api(env, "POST", path, {
        apiVersion: "paint.example.com/v1",
        kind: "Can",
        metadata: { name },
        spec: { color, size: 1 },
      });
    }
    const red = await api(env, "GET", `${path}?fieldSelector=spec.color%3Dred`);
    expect(red.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      "red",
    ]);
    // size was pruned: the first schema does not know it.
    expect(red.body.items[0].spec).toEqual({ color: "red" });
    const live = (await api(env, "GET", `${crds}/cans.paint.example.com`)).body;
    live.spec.versions[0].schema.openAPIV3Schema = schema(true);
    live.spec.versions[0].additionalPrinterColumns = [
      { name: "Color", type: "string", jsonPath: ".spec.color" },
    ];
    expect((await api(env, "PUT", `${crds}/cans.paint.example.com`, live)).status).toBe(200);
    await eventually(async () => {
      const got = await api(env, "GET", `${path}/red`);
      // Defaults of the new schema apply on read.
      expect(got.body.spec).toEqual({ color: "red", size: 3 });
    });
    const table = await api(env, "GET", path, undefined, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    expect(table.body.columnDefinitions.map((d: { name: string }) => d.name)).toEqual([
      "Name",
      "Color",
    ]);
  });

  it("ratchets validation: unchanged invalid values do not block updates", async () => {
    const schema = (max: number) => ({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { n: { type: "integer", maximum: max }, note: { type: "string" } },
        },
      },
    });
    expect(
      (await api(env, "POST", crds, crd("ratchet.example.com", "rats", "Rat", schema(10)))).status,
    ).toBe(201);
    await established("rats.ratchet.example.com");
    const path = "/apis/ratchet.example.com/v1/namespaces/default/rats";
    const created = (
      await api(env, "POST", path, {
        apiVersion: "ratchet.example.com/v1",
        kind: "Rat",
        metadata: { name: "r" },
        spec: { n: 8 },
      })
    ).body;
    const live = (await api(env, "GET", `${crds}/rats.ratchet.example.com`)).body;
    live.spec.versions[0].schema.openAPIV3Schema = schema(5);
    expect((await api(env, "PUT", `${crds}/rats.ratchet.example.com`, live)).status).toBe(200);
    await eventually(async () => {
      const bad = await api(env, "POST", path, {
        apiVersion: "ratchet.example.com/v1",
        kind: "Rat",
        metadata: { name: "r2" },
        spec: { n: 8 },
      });
      expect(bad.status).toBe(422);
    });
    const other = await api(env, "PUT", `${path}/r`, {
      ...created,
      spec: { n: 8, note: "still 8" },
    });
    expect(other.status).toBe(200);
    const changed = await api(env, "PUT", `${path}/r`, {
      ...other.body,
      spec: { n: 9, note: "still 8" },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.message).toBe(
      'Rat.ratchet.example.com "r" is invalid: spec.n: Invalid value: 9: spec.n in body should be less than or equal to 5',
    );
  });

  it("deletes all custom resources before the CRD goes, and stops serving it", async () => {
    const path = "/apis/example.com/v1/namespaces/default/widgets";
    await api(env, "POST", path, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "doomed" },
      spec: { mode: "fast" },
    });
    const w = await watchStream(env, `${path}?watch=true`);
    const del = await api(env, "DELETE", `${crds}/widgets.example.com`);
    expect(del.status).toBe(200);
    await eventually(() => expect(w.events.map((e) => e.type)).toEqual(["ADDED", "DELETED"]));
    await eventually(async () =>
      expect((await api(env, "GET", `${crds}/widgets.example.com`)).status).toBe(404),
    );
    expect((await api(env, "GET", path)).status).toBe(404);
    const group = await api(env, "GET", "/apis/example.com/v1");
    expect(group.body.resources.map((r: { name: string }) => r.name)).not.toContain("widgets");
    w.close();
  });
});

describe("discovery", () => {
  it("serves legacy discovery with resources before their subresources", async () => {
    const list = await api(env, "GET", "/apis/example.com/v1");
    expect(list.body).toMatchObject({
      kind: "APIResourceList",
      apiVersion: "v1",
      groupVersion: "example.com/v1",
    });
    const names = list.body.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(["myapps", "myapps/scale", "myapps/status"]);
    expect(list.body.resources[0]).toEqual({
      name: "myapps",
      singularName: "myapp",
      namespaced: true,
      kind: "MyApp",
      verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
    });
    expect(list.body.resources[1]).toEqual({
      name: "myapps/scale",
      singularName: "",
      namespaced: true,
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
      verbs: ["get", "patch", "update"],
    });
    const core = await api(env, "GET", "/api/v1");
    expect(core.body.apiVersion).toBeUndefined();
    expect(core.body.groupVersion).toBe("v1");
  });

  it("serves aggregated discovery when asked for it", async () => {
    const r = await api(env, "GET", "/apis", undefined, {
      accept:
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
    });
    expect(r.headers["content-type"]).toBe(
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    );
    const example = r.body.items.find(
      (i: { metadata: { name: string } }) => i.metadata.name === "example.com",
    );
    const myapps = example.versions[0].resources.find(
      (x: { resource: string }) => x.resource === "myapps",
    );
    expect(myapps).toMatchObject({
      responseKind: { group: "example.com", version: "v1", kind: "MyApp" },
      scope: "Namespaced",
      singularResource: "myapp",
      subresources: [
        {
          subresource: "scale",
          responseKind: { group: "autoscaling", version: "v1", kind: "Scale" },
          verbs: ["get", "patch", "update"],
        },
        {
          subresource: "status",
          responseKind: { group: "example.com", version: "v1", kind: "MyApp" },
          verbs: ["get", "patch", "update"],
        },
      ],
    });
  });
});
