// Unit tests of the pure parts: selectors, patches, JSONPath, durations, version order,
// field sets and the protobuf decoder.

import { catalogFor } from "@opgen/apimachinery/catalog";
import { evaluateJsonPath } from "@opgen/apimachinery/jsonpath";
import { applyStrategicMergePatch, catalogNode, ssa } from "@opgen/apimachinery/merge";
import { parseFieldSelector, parseLabelSelector } from "@opgen/apimachinery/selectors";
import { ApiError } from "@opgen/apimachinery/status";
import pb from "protobufjs/light.js";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../src/api/registry.js";
import type { ResourceInfo } from "../src/api/types.js";

const catalog = catalogFor("1.32");

import { decodeProtobuf } from "../src/http/protobuf.js";
import { applyJsonPatch } from "../src/patch/jsonpatch.js";
import { applyMergePatch } from "../src/patch/mergepatch.js";
import { humanDuration } from "../src/registry/printing.js";
import { base64ErrorOffset } from "../src/rest/builtin-types.js";
import { fieldMatcher } from "../src/rest/field-selectors.js";

describe("label selectors", () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ["a", { a: "" }, true],
    ["!a", { a: "x" }, false],
    ["a=1,b==2", { a: "1", b: "2" }, true],
    ["a!=1", {}, true],
    ["a in (1, 2),b notin (3)", { a: "2" }, true],
    ["a in (1,2)", { b: "1" }, false],
    ["n>5,n<10", { n: "7" }, true],
    ["n>5", { n: "x" }, false],
    ["example.com/tier=web", { "example.com/tier": "web" }, true],
  ];
  for (const [sel, labels, want] of cases) {
    it(`${sel} on ${JSON.stringify(labels)} is ${want}`, () => {
      expect(parseLabelSelector(sel).matches(labels)).toBe(want);
    });
  }
  it("rejects bad syntax with 400", () => {
    for (const bad of ["a in ()", "a in (b", "=x", "a b", "Bad Key=1", "n>x"]) {
      const e = (() => {
        try {
          parseLabelSelector(bad);
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(e, bad).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe(400);
    }
  });
});

describe("field selectors", () => {
  const info = {
    namespaced: true,
    custom: false,
    fieldLabels: { "status.phase": (o: { status?: { phase?: string } }) => o.status?.phase },
  } as unknown as ResourceInfo;
  it("matches metadata and per-kind fields with =, ==, !=", () => {
    const pod = { metadata: { name: "p", namespace: "n" }, status: { phase: "Running" } };
    expect(
      fieldMatcher(parseFieldSelector("metadata.name=p,metadata.namespace==n"), info)(pod),
    ).toBe(true);
    expect(fieldMatcher(parseFieldSelector("status.phase!=Running"), info)(pod)).toBe(false);
  });
});

describe("patches", () => {
  it("JSON patch: add, remove, move, copy, test", () => {
    const doc = { a: [1, 2], b: { c: 1 } };
    const out = applyJsonPatch(
      doc,
      JSON.stringify([
        { op: "add", path: "/a/-", value: 3 },
        { op: "remove", path: "/a/0" },
        { op: "copy", from: "/b/c", path: "/d" },
        { op: "move", from: "/b", path: "/e" },
        { op: "test", path: "/d", value: 1 },
        { op: "add", path: "/f~1g", value: true },
      ]),
    );
    expect(out).toEqual({ a: [2, 3], d: 1, e: { c: 1 }, "f/g": true });
    expect(doc).toEqual({ a: [1, 2], b: { c: 1 } });
  });

  it("merge patch: null deletes, lists replace", () => {
    expect(
      applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] }),
    ).toEqual({ a: { c: 2, d: 3 }, l: [3] });
  });

  it("strategic merge patch: keyed lists, primitive merge lists and directives", () => {
    // A Pod's patch strategies come from the 1.32 catalog: containers by name, finalizers a set.
    const keys = catalogNode(catalog, "io.k8s.api.core.v1.Pod");
    const orig = {
      metadata: { finalizers: ["a"] },
      spec: {
        containers: [
          { name: "x", image: "1" },
          { name: "y", image: "1" },
        ],
      },
    };
    expect(
      applyStrategicMergePatch(
        orig,
        {
          metadata: { finalizers: ["b"] },
          spec: {
            containers: [
              { name: "y", $patch: "delete" },
              { name: "z", image: "2" },
            ],
          },
        },
        keys,
      ),
    ).toEqual({
      metadata: { finalizers: ["a", "b"] },
      spec: {
        containers: [
          { name: "x", image: "1" },
          { name: "z", image: "2" },
        ],
      },
    });
    expect(
      applyStrategicMergePatch(
        orig,
        {
          spec: {
            $setElementOrder: undefined,
            "$setElementOrder/containers": [{ name: "y" }, { name: "x" }],
          },
        },
        keys,
      ),
    ).toMatchObject({ spec: { containers: [{ name: "y" }, { name: "x" }] } });
    expect(
      applyStrategicMergePatch(
        orig,
        { metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] } },
        keys,
      ),
    ).toMatchObject({
      metadata: { finalizers: [] },
    });
    expect(
      applyStrategicMergePatch(
        { spec: { a: 1, b: 2 } },
        { spec: { $retainKeys: ["b"], b: 3 } },
        keys,
      ),
    ).toEqual({ spec: { b: 3 } });
    expect(
      applyStrategicMergePatch({ spec: { a: 1 } }, { spec: { $patch: "replace", c: 1 } }, keys),
    ).toEqual({ spec: { c: 1 } });
  });
});

describe("JSONPath and durations", () => {
  it("evaluates printer-column paths", () => {
    const o = {
      status: {
        conditions: [
          { type: "A", status: "False" },
          { type: "Ready", status: "True" },
        ],
      },
      m: { "a.b": 1 },
    };
    expect(evaluateJsonPath(o, '.status.conditions[?(@.type=="Ready")].status')).toEqual(["True"]);
    expect(evaluateJsonPath(o, ".status.conditions[0].type")).toEqual(["A"]);
    expect(evaluateJsonPath(o, ".status.conditions[*].type")).toEqual(["A", "Ready"]);
    expect(evaluateJsonPath(o, ".m['a.b']")).toEqual([1]);
    expect(evaluateJsonPath(o, ".missing.x")).toEqual([]);
  });

  it("renders human durations like apimachinery", () => {
    const s = 1000;
    expect(humanDuration(-2 * s)).toBe("<invalid>");
    expect(humanDuration(59 * s)).toBe("59s");
    expect(humanDuration(150 * s)).toBe("2m30s");
    expect(humanDuration(15 * 60 * s)).toBe("15m");
    expect(humanDuration((3 * 3600 + 20 * 60) * s)).toBe("3h20m");
    expect(humanDuration(30 * 3600 * s)).toBe("30h");
    expect(humanDuration((3 * 24 + 5) * 3600 * s)).toBe("3d5h");
    expect(humanDuration(400 * 24 * 3600 * s)).toBe("400d");
    expect(humanDuration(3 * 365 * 24 * 3600 * s)).toBe("3y");
  });
});

describe("version order", () => {
  it("sorts GA, then beta, then alpha, then others", () => {
    expect(
      ["v1alpha1", "foo", "v1beta1", "v2", "v1", "v1beta2", "v10"].sort(compareVersions),
    ).toEqual(["v10", "v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo"]);
  });
});

describe("field sets", () => {
  // What structured-merge-diff records (the differential test against SMD covers the rest): a
  // create owns the parents it creates (`.` on spec and the list), a later writer owns what it
  // added or changed, the keyed item it added, and not the list itself.
  it("records Update operations with keyed lists and renders FieldsV1", () => {
    const old = { spec: { a: 1, list: [{ type: "X", v: 1 }] } };
    const next = {
      metadata: { labels: { app: "x" } },
      spec: {
        a: 2,
        list: [
          { type: "X", v: 1 },
          { type: "Y", v: 2 },
        ],
      },
    };
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            a: { type: "integer" },
            list: {
              type: "array",
              "x-kubernetes-list-type": "map" as const,
              "x-kubernetes-list-map-keys": ["type"],
              items: { type: "object" },
            },
          },
        },
      },
    };
    const atom = ssa.withField(
      ssa.crdAtom(schema),
      "metadata",
      ssa.definitionAtom(catalog, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
    );
    const scope = (manager: string) => ({ manager, apiVersion: "v1", atom, now: () => "T" });
    const created = ssa.updateManagedFields(undefined, old, scope("a"));
    const entries = ssa.updateManagedFields(
      { ...old, metadata: { managedFields: created } },
      next,
      scope("b"),
    );
    expect(entries.map((e) => [e.manager, e.fieldsV1])).toEqual([
      [
        "a",
        {
          "f:spec": {
            ".": {},
            "f:list": { ".": {}, 'k:{"type":"X"}': { ".": {}, "f:type": {}, "f:v": {} } },
          },
        },
      ],
      [
        "b",
        {
          "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
          "f:spec": {
            "f:a": {},
            "f:list": { 'k:{"type":"Y"}': { ".": {}, "f:type": {}, "f:v": {} } },
          },
        },
      ],
    ]);
  });
});

describe("protobuf", () => {
  function field(num: number, payload: Buffer): Buffer {
    return Buffer.concat([Buffer.from([(num << 3) | 2, payload.length]), payload]);
  }
  const str = (num: number, s: string) => field(num, Buffer.from(s));

  it("decodes a ConfigMap in the k8s envelope", () => {
    const meta = Buffer.concat([
      str(1, "cm"),
      str(3, "ns"),
      field(11, Buffer.concat([str(1, "app"), str(2, "x")])),
    ]);
    const raw = Buffer.concat([
      field(1, meta),
      field(2, Buffer.concat([str(1, "k"), str(2, "v")])),
    ]);
    const typeMeta = Buffer.concat([str(1, "v1"), str(2, "ConfigMap")]);
    const body = Buffer.concat([Buffer.from("k8s\0"), field(1, typeMeta), field(2, raw)]);
    expect(decodeProtobuf(catalog, body)).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cm", namespace: "ns", labels: { app: "x" } },
      data: { k: "v" },
    });
  });

  it("refuses kinds it does not know and non-envelope bodies", () => {
    const typeMeta = Buffer.concat([str(1, "example.com/v1"), str(2, "Widget")]);
    expect(
      decodeProtobuf(
        catalog,
        Buffer.concat([Buffer.from("k8s\0"), field(1, typeMeta), field(2, Buffer.alloc(0))]),
      ),
    ).toBeUndefined();
    expect(decodeProtobuf(catalog, Buffer.from("{}"))).toBeUndefined();
  });

  /** Encodes as Go does: every value field written, zeros included; pointers only when set. */
  function goEncode(apiVersion: string, kind: string, type: string, message: object): Buffer {
    const schemas = pb.Root.fromJSON(catalog.protobufSchemas() as pb.INamespace);
    const t = schemas.lookupType(type);
    const raw = t.encode(t.fromObject(message)).finish();
    const unknown = schemas.lookupType(".k8s.io.apimachinery.pkg.runtime.Unknown");
    const envelope = unknown
      .encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw }))
      .finish();
    return Buffer.concat([Buffer.from("k8s\0"), envelope]);
  }

  it("decodes a Deployment as kube-apiserver reads it: Go's zeros, int-or-string, quantities, inline types", () => {
    const container = {
      name: "app",
      image: "nginx",
      ports: [{ containerPort: 80, hostPort: 0, protocol: "" }],
      env: [
        {
          name: "PW",
          value: "",
          valueFrom: { secretKeyRef: { localObjectReference: { name: "s" }, key: "pw" } },
        },
      ],
      resources: { limits: { cpu: { string: "500m" } } },
      stdin: false,
      tty: false,
      livenessProbe: { handler: { httpGet: { path: "/", port: { type: 1, strVal: "http" } } } },
    };
    const body = goEncode("apps/v1", "Deployment", ".k8s.io.api.apps.v1.Deployment", {
      metadata: { name: "web", creationTimestamp: { seconds: -62135596800, nanos: 0 } },
      spec: {
        replicas: 0,
        minReadySeconds: 0,
        paused: false,
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: { containers: [container] } },
        strategy: { rollingUpdate: { maxSurge: { type: 0, intVal: 2 } } },
      },
    });
    expect(decodeProtobuf(catalog, body)).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web" },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            containers: [
              {
                name: "app",
                image: "nginx",
                ports: [{ containerPort: 80 }],
                env: [{ name: "PW", valueFrom: { secretKeyRef: { name: "s", key: "pw" } } }],
                resources: { limits: { cpu: "500m" } },
                livenessProbe: { httpGet: { path: "/", port: "http" } },
              },
            ],
          },
        },
        strategy: { rollingUpdate: { maxSurge: 2 } },
      },
    });
  });

  it("decodes times, bytes and fields spelled differently in the schemas", () => {
    const secret = goEncode("v1", "Secret", ".k8s.io.api.core.v1.Secret", {
      metadata: { name: "s", creationTimestamp: { seconds: 1700000000 } },
      data: { pw: Buffer.from("hunter2") },
    });
    expect(decodeProtobuf(catalog, secret)).toEqual({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", creationTimestamp: "2023-11-14T22:13:20Z" },
      data: { pw: Buffer.from("hunter2").toString("base64") },
    });
    const hook = goEncode(
      "admissionregistration.k8s.io/v1",
      "ValidatingWebhookConfiguration",
      ".k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
      { metadata: { name: "v" }, Webhooks: [{ name: "w.example.com", timeoutSeconds: 0 }] },
    );
    expect(decodeProtobuf(catalog, hook)).toMatchObject({ webhooks: [{ name: "w.example.com" }] });
  });
});

describe("duplicate JSON fields", () => {
  it("finds repeated keys with their paths, escapes and nesting included", async () => {
    const { duplicateFields } = await import("../src/http/json-duplicates.js");
    expect(duplicateFields('{"a":1,"b":{"c":[{"d":1,"d":2},{"d":"x,}]"}]},"a":3}')).toEqual([
      "b.c[0].d",
      "a",
    ]);
    expect(duplicateFields('{"k\\u0061":1,"ka":2,"s":"\\"a\\":1"}')).toEqual(["ka"]);
    expect(duplicateFields('{"a":{"x":1},"b":{"x":1}}')).toEqual([]);
  });
});

describe("duplicate JSON fields in bodies", () => {
  it("finds them whether or not a space precedes the colon", async () => {
    const { inspectBody } = await import("../src/http/json-duplicates.js");
    const check = (text: string) => inspectBody(text, JSON.parse(text));
    expect(check('{"a" : 1, "a" : 2}')).toEqual({ duplicates: ["a"], empties: false });
    expect(check('{"a":1,"b":{"a":2},"c":"\\":"}')).toEqual({ duplicates: [], empties: false });
    expect(check('{"m":{"x":1,"x":2}}').duplicates).toEqual(["m.x"]);
    expect(check('{"m":{"labels":{}}}').empties).toBe(true);
    expect(check('{"m":[1,null]}').empties).toBe(true);
  });
});

describe("protobuf encoding", () => {
  it("round-trips built-in objects through the wire format", async () => {
    const { encodeProtobuf } = await import("../src/http/protobuf.js");
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {
        name: "web",
        namespace: "default",
        uid: "0b9e2c1e-5d0a-4c4b-9e0e-1f2a3b4c5d6e",
        creationTimestamp: "2026-11-25T10:00:00Z",
        labels: { app: "web" },
        managedFields: [
          {
            manager: "kubectl",
            operation: "Update",
            apiVersion: "apps/v1",
            time: "2026-11-25T10:00:00Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:spec": { "f:replicas": {} } },
          },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: "web" } },
        strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            containers: [
              {
                name: "app",
                image: "nginx",
                resources: { limits: { cpu: "500m" } },
                env: [{ name: "PW", valueFrom: { secretKeyRef: { name: "s", key: "pw" } } }],
              },
            ],
          },
        },
      },
    };
    expect(decodeProtobuf(catalog, encodeProtobuf(catalog, deployment)!)).toEqual(deployment);
    const secret = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
      data: { pw: "aHVudGVyMg==" },
      type: "Opaque",
    };
    expect(decodeProtobuf(catalog, encodeProtobuf(catalog, secret)!)).toEqual(secret);
    expect(
      encodeProtobuf(catalog, { apiVersion: "example.com/v1", kind: "Widget" }),
    ).toBeUndefined();
  });
});

describe("base64 of []byte fields", () => {
  it("finds the offset Go's base64.StdEncoding.Decode reports", () => {
    // Each offset as Go 1.19's encoding/base64 reports it for the same text.
    const cases: [string, number | undefined][] = [
      ["not base64!", 3],
      ["QQ", 0],
      ["QQ=", 3],
      ["QQ=x", 2],
      ["QQ==x", 4],
      ["QQ==", undefined],
      ["Q===", 1],
      ["QUJD\nRA==", undefined],
      ["QUJDRA", 4],
      ["QUJD\r\nRA=\n=", undefined],
      ["QUJDR", 4],
      ["ab$c", 2],
      ["QQ==\n", undefined],
    ];
    for (const [text, offset] of cases)
      expect([text, base64ErrorOffset(text)]).toEqual([text, offset]);
  });
});
