/**
 * The protobuf wire as client-go's protobuf clients see it: content negotiation by the client's
 * Accept order (kube's `negotiation` package), watches as length-prefixed WatchEvent frames, and
 * error Statuses in the negotiated encoding. The frames are read by a small client of its own,
 * built on protobufjs and the 1.32 schemas, not by envtest's decoder; kubectl's typed commands
 * (`create deployment`, Accept `application/vnd.kubernetes.protobuf,application/json`) are the
 * real client reading protobuf objects and Statuses.
 */
import https from "node:https";
import { catalogFor } from "@opgen/apimachinery/catalog";
import pb from "protobufjs/light.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const PB = "application/vnd.kubernetes.protobuf";
const ns = "/api/v1/namespaces/default";
const magic = Buffer.from("k8s\0", "binary");

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
        },
      ],
    },
  };
  expect(
    (await api(env, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status,
  ).toBe(201);
  await eventually(async () => {
    expect((await api(env, "GET", "/apis/example.com/v1/namespaces/default/widgets")).status).toBe(
      200,
    );
  });
});
afterAll(async () => {
  await env?.stop();
});

// ---- a protobuf client of the test's own -------------------------------------------------------

const root = pb.Root.fromJSON(catalogFor("1.32").protobufSchemas() as pb.INamespace);
const type = (name: string) => root.lookupType(name);

/** A `k8s\0`-enveloped body: its TypeMeta and the typed message decoded with `message`. */
function unwrap(body: Uint8Array, message: string) {
  const buf = Buffer.from(body);
  expect(buf.subarray(0, 4).equals(magic)).toBe(true);
  const unknown = type("k8s.io.apimachinery.pkg.runtime.Unknown").toObject(
    type("k8s.io.apimachinery.pkg.runtime.Unknown").decode(buf.subarray(4)),
  ) as { typeMeta: { apiVersion: string; kind: string }; raw: Uint8Array };
  // biome-ignore lint/suspicious/noExplicitAny: decoded messages are checked field by field
  const obj = type(message).toObject(type(message).decode(unknown.raw), { longs: Number }) as any;
  return { typeMeta: unknown.typeMeta, obj };
}

/** Splits a protobuf watch stream into its frames: 4-byte big-endian length, then the bytes. */
function frames(buf: Buffer): { frames: Buffer[]; rest: Buffer } {
  const out: Buffer[] = [];
  let rest = buf;
  while (rest.length >= 4 && rest.length >= 4 + rest.readUInt32BE(0)) {
    const n = rest.readUInt32BE(0);
    out.push(rest.subarray(4, 4 + n));
    rest = rest.subarray(4 + n);
  }
  return { frames: out, rest };
}

/** A raw watch: the answer's status and headers, and its body bytes as they arrive. */
async function rawWatch(path: string, accept: string) {
  const cluster = env.kubeconfig.getCurrentCluster()!;
  let body = Buffer.alloc(0);
  const req = https.request(`${env.url}${path}`, {
    ca: Buffer.from(cluster.caData!, "base64"),
    headers: { Authorization: `Bearer ${env.adminToken}`, Accept: accept },
  });
  const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
    req.on("response", resolve);
    req.on("error", reject);
    req.end();
  });
  res.on("data", (c: Buffer) => {
    body = Buffer.concat([body, c]);
  });
  return { res, body: () => body, close: () => req.destroy() };
}

// ---- negotiation ---------------------------------------------------------------------------------

describe("output negotiation", () => {
  beforeAll(async () => {
    await api(env, "POST", `${ns}/configmaps`, { metadata: { name: "neg" }, data: { a: "1" } });
  });

  it("follows the client's order, quality and specificity as kube's negotiation does", async () => {
    const cases: [string, string][] = [
      [`${PB}, application/json`, PB],
      [`application/json, ${PB}`, "application/json"],
      [`${PB};q=0.5, application/json`, "application/json"],
      ["*/*", "application/json"],
      [`*/*, ${PB}`, PB],
      ["application/*", "application/json"],
      ["application/yaml, application/json", "application/yaml"],
      [`text/html, ${PB}`, PB],
    ];
    for (const [accept, want] of cases) {
      const r = await api(env, "GET", `${ns}/configmaps/neg`, undefined, { accept });
      expect([accept, r.status, r.headers["content-type"]]).toEqual([accept, 200, want]);
    }
    const r = await api(env, "GET", `${ns}/configmaps/neg`, undefined, {
      accept: `${PB}, application/json`,
    });
    const { typeMeta, obj } = unwrap(r.bytes, "k8s.io.api.core.v1.ConfigMap");
    expect(typeMeta).toEqual({ apiVersion: "v1", kind: "ConfigMap" });
    expect(obj.metadata.name).toBe("neg");
    expect(obj.data).toEqual({ a: "1" });
  });

  it("refuses a protobuf Table as kube's protobuf encoder does (1.32 has no Table message)", async () => {
    const r = await api(env, "GET", `${ns}/configmaps/neg`, undefined, {
      accept: `${PB};as=Table;v=v1;g=meta.k8s.io, application/json`,
    });
    expect([r.status, r.headers["content-type"]]).toEqual([406, PB]);
    const { obj } = unwrap(r.bytes, "k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    expect(obj).toMatchObject({
      code: 406,
      reason: "NotAcceptable",
      message:
        "object *v1.Table does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message",
    });
    // kubectl's own Accept (JSON Tables first) is unaffected.
    const table = await api(env, "GET", `${ns}/configmaps/neg`, undefined, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    });
    expect([table.status, table.body.kind]).toEqual([200, "Table"]);
  });

  it("answers nothing acceptable with a JSON 406 naming every type", async () => {
    const r = await api(env, "GET", `${ns}/configmaps/neg`, undefined, { accept: "text/html" });
    expect(r.status).toBe(406);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.body.message).toBe(
      `only the following media types are accepted: application/json, application/yaml, ${PB}`,
    );
  });

  it("passes protobuf over for custom resources: JSON when the client takes it, else 406", async () => {
    const path = "/apis/example.com/v1/namespaces/default/widgets";
    expect(
      (
        await api(env, "POST", path, {
          apiVersion: "example.com/v1",
          kind: "Widget",
          metadata: { name: "w" },
        })
      ).status,
    ).toBe(201);
    const both = await api(env, "GET", `${path}/w`, undefined, {
      accept: `${PB}, application/json`,
    });
    expect(both.status).toBe(200);
    expect(both.headers["content-type"]).toBe("application/json");
    expect(both.body.metadata.name).toBe("w");
    // The 406 is an error Status, negotiated without the resource's limits: protobuf.
    const only = await api(env, "GET", `${path}/w`, undefined, { accept: PB });
    expect(only.status).toBe(406);
    expect(only.headers["content-type"]).toBe(PB);
    const { obj } = unwrap(only.bytes, "k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    expect(obj).toMatchObject({ code: 406, reason: "NotAcceptable" });
  });
});

describe("the metadata client (garbage collector, namespace controller)", () => {
  const accept = (as: string) =>
    `${PB};as=${as};g=meta.k8s.io;v=v1,application/json;as=${as};g=meta.k8s.io;v=v1,application/json`;

  it("gets PartialObjectMetadataLists in protobuf, for custom resources too", async () => {
    for (const [path, name] of [
      [`${ns}/configmaps`, "neg"],
      ["/apis/example.com/v1/namespaces/default/widgets", "w"],
    ] as const) {
      const r = await api(env, "GET", path, undefined, {
        accept: accept("PartialObjectMetadataList"),
      });
      expect([r.status, r.headers["content-type"]]).toEqual([200, PB]);
      const { typeMeta, obj } = unwrap(
        r.bytes,
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
      );
      expect(typeMeta).toEqual({ apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadataList" });
      expect(obj.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain(name);
    }
  });

  it("watches PartialObjectMetadata in protobuf frames", async () => {
    const w = await rawWatch(
      `${ns}/configmaps?watch=1&fieldSelector=metadata.name%3Dmeta1`,
      accept("PartialObjectMetadata"),
    );
    try {
      expect(w.res.headers["content-type"]).toBe(`${PB};stream=watch`);
      await api(env, "POST", `${ns}/configmaps`, { metadata: { name: "meta1" } });
      await eventually(() => expect(frames(w.body()).frames).toHaveLength(1));
      const t = type("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
      const ev = t.toObject(t.decode(frames(w.body()).frames[0]!)) as {
        type: string;
        object: { raw: Uint8Array };
      };
      const { typeMeta, obj } = unwrap(
        ev.object.raw,
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
      );
      expect([ev.type, typeMeta.kind, obj.metadata.name]).toEqual([
        "ADDED",
        "PartialObjectMetadata",
        "meta1",
      ]);
    } finally {
      w.close();
    }
  });
});

// ---- error Statuses ------------------------------------------------------------------------------

describe("error Statuses", () => {
  it("are protobuf, JSON or YAML as the client's Accept negotiates", async () => {
    const path = `${ns}/configmaps/missing`;
    const p = await api(env, "GET", path, undefined, { accept: `${PB}, application/json` });
    expect(p.status).toBe(404);
    expect(p.headers["content-type"]).toBe(PB);
    const { typeMeta, obj } = unwrap(p.bytes, "k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    expect(typeMeta).toEqual({ apiVersion: "v1", kind: "Status" });
    expect(obj).toMatchObject({
      status: "Failure",
      message: 'configmaps "missing" not found',
      reason: "NotFound",
      details: { name: "missing", kind: "configmaps" },
      code: 404,
    });
    const j = await api(env, "GET", path, undefined, { accept: `application/json, ${PB}` });
    expect([j.status, j.headers["content-type"], j.body.reason]).toEqual([
      404,
      "application/json",
      "NotFound",
    ]);
    const y = await api(env, "GET", path, undefined, { accept: "application/yaml" });
    expect([y.status, y.headers["content-type"]]).toEqual([404, "application/yaml"]);
    expect(y.text).toContain("reason: NotFound");
  });

  it("reach kubectl's protobuf client (typed create) with their causes intact", async () => {
    const first = await kubectl(env, ["create", "deployment", "pbweb", "--image=nginx"]);
    expect(first.stdout).toBe("deployment.apps/pbweb created");
    const again = await kubectl(env, ["create", "deployment", "pbweb", "--image=nginx"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toBe(
      'error: failed to create deployment: deployments.apps "pbweb" already exists',
    );
    const invalid = await kubectl(env, [
      "create",
      "deployment",
      "pbweb2",
      "--image=nginx",
      "--replicas=-1",
    ]);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain(
      'Deployment.apps "pbweb2" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    // And the protobuf object kubectl got back is the stored one.
    const yaml = await kubectl(env, [
      "create",
      "deployment",
      "pbweb3",
      "--image=nginx:1.27",
      "--dry-run=server",
      "-o",
      "jsonpath={.spec.template.spec.containers[0].image} {.spec.strategy.type} {.metadata.managedFields[0].manager}",
    ]);
    expect(yaml.stdout).toBe("nginx:1.27 RollingUpdate kubectl-create");
  });
});

// ---- watches -------------------------------------------------------------------------------------

describe("protobuf watches", () => {
  it("streams length-prefixed WatchEvent frames holding enveloped objects", async () => {
    await api(env, "POST", `${ns}/configmaps`, { metadata: { name: "w1" }, data: { k: "1" } });
    const w = await rawWatch(
      `${ns}/configmaps?watch=1&fieldSelector=metadata.name%3Dw1`,
      `${PB};stream=watch`,
    );
    try {
      expect(w.res.statusCode).toBe(200);
      expect(w.res.headers["content-type"]).toBe(`${PB};stream=watch`);
      await api(
        env,
        "PATCH",
        `${ns}/configmaps/w1`,
        { data: { k: "2" } },
        {
          contentType: "application/merge-patch+json",
        },
      );
      await api(env, "DELETE", `${ns}/configmaps/w1`);
      await eventually(() => expect(frames(w.body()).frames).toHaveLength(3));
      const { frames: fs, rest } = frames(w.body());
      expect(rest.length).toBe(0);
      const events = fs.map((f) => {
        // The frame is the bare WatchEvent message (no envelope of its own).
        expect(f.subarray(0, 4).equals(magic)).toBe(false);
        const t = type("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
        const ev = t.toObject(t.decode(f)) as { type: string; object: { raw: Uint8Array } };
        const { typeMeta, obj } = unwrap(ev.object.raw, "k8s.io.api.core.v1.ConfigMap");
        return [ev.type, typeMeta.kind, obj.metadata.name, obj.data.k];
      });
      expect(events).toEqual([
        ["ADDED", "ConfigMap", "w1", "1"],
        ["MODIFIED", "ConfigMap", "w1", "2"],
        ["DELETED", "ConfigMap", "w1", "2"],
      ]);
    } finally {
      w.close();
    }
  });

  it("frames an expired resourceVersion as an ERROR event with a protobuf Status", async () => {
    env.faults.expireHistory();
    const w = await rawWatch(
      `${ns}/configmaps?watch=1&resourceVersion=1`,
      `${PB}, application/json`,
    );
    try {
      expect(w.res.headers["content-type"]).toBe(`${PB};stream=watch`);
      await eventually(() => expect(frames(w.body()).frames).toHaveLength(1));
      const t = type("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
      const ev = t.toObject(t.decode(frames(w.body()).frames[0]!)) as {
        type: string;
        object: { raw: Uint8Array };
      };
      expect(ev.type).toBe("ERROR");
      const { typeMeta, obj } = unwrap(
        ev.object.raw,
        "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
      );
      expect(typeMeta.kind).toBe("Status");
      expect(obj).toMatchObject({ code: 410, reason: "Expired" });
    } finally {
      w.close();
    }
  });

  it("negotiates the stream's type as kube does (JSON streams, no YAML, no protobuf custom resources)", async () => {
    const json = await rawWatch(`${ns}/configmaps?watch=1`, "application/json;stream=watch");
    expect([json.res.statusCode, json.res.headers["content-type"]]).toEqual([
      200,
      "application/json",
    ]);
    json.close();
    const yaml = await api(env, "GET", `${ns}/configmaps?watch=1`, undefined, {
      accept: "application/yaml",
    });
    expect(yaml.status).toBe(406);
    // The refusal is itself negotiated: YAML is fine for a Status.
    expect(yaml.headers["content-type"]).toBe("application/yaml");
    expect(parseYaml(yaml.text).message).toBe(
      `only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch`,
    );
    const cr = "/apis/example.com/v1/namespaces/default/widgets?watch=1";
    const crJson = await rawWatch(cr, `${PB};stream=watch, application/json;stream=watch`);
    expect([crJson.res.statusCode, crJson.res.headers["content-type"]]).toEqual([
      200,
      "application/json",
    ]);
    crJson.close();
    expect((await api(env, "GET", cr, undefined, { accept: `${PB};stream=watch` })).status).toBe(
      406,
    );
  });
});
