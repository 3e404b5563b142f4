/**
 * The webhook server over real HTTPS with a CA the client trusts: AdmissionReview parsing and its
 * 4xx answers, the defaulter's patch, the validator's verdicts (403, an ApiError's own status,
 * warnings), dry-run in the context, ConversionReview handling and per-object failures, metrics,
 * certificate reload, readiness, and the one-line error for missing certificates.
 */
import { X509Certificate } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { errors, field } from "@opgen/apimachinery/status";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { defineKind } from "../../src/api/kind.js";
import { nullLogger } from "../../src/log/logger.js";
import { selfSignedCertificate } from "../../src/tls/self-signed.js";
import { defaultingHandler, validatingHandler } from "../../src/webhook/handlers.js";
import { WebhookServer } from "../../src/webhook/server.js";
import type { AdmissionContext, CustomValidator } from "../../src/webhook/types.js";

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: { size?: number; replicas?: number };
}
const WidgetKind = defineKind<Widget>({
  group: "demo.example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

function certDir(): { dir: string; ca: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "opgen-webhook-test-"));
  dirs.push(dir);
  const pair = selfSignedCertificate();
  writeFileSync(join(dir, "tls.crt"), pair.cert);
  writeFileSync(join(dir, "tls.key"), pair.key);
  return { dir, ca: pair.ca, cert: pair.cert };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field
  json: any;
}

function post(
  port: number,
  ca: string,
  path: string,
  body: string | Buffer | undefined,
  opts: { method?: string; contentType?: string | null } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (opts.contentType !== null) headers["Content-Type"] = opts.contentType ?? "application/json";
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: opts.method ?? "POST",
        ca,
        servername: "localhost",
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const widget = (spec: Widget["spec"], labels?: Record<string, string>): Widget => ({
  apiVersion: "demo.example.com/v1",
  kind: "Widget",
  metadata: { name: "w", namespace: "default", ...(labels ? { labels } : {}) },
  spec,
});

function review(request: Record<string, unknown>, apiVersion = "admission.k8s.io/v1"): string {
  return JSON.stringify({
    kind: "AdmissionReview",
    apiVersion,
    request: {
      uid: "3c1b-uid",
      kind: { group: "demo.example.com", version: "v1", kind: "Widget" },
      resource: { group: "demo.example.com", version: "v1", resource: "widgets" },
      name: "w",
      namespace: "default",
      userInfo: { username: "kubernetes-admin" },
      ...request,
    },
  });
}

const servers: WebhookServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(
  setup: (s: WebhookServer) => void,
  registry?: Registry,
  extra: {
    enableHttp2?: boolean;
    certPollIntervalMs?: number;
    maxConcurrentRequests?: number;
    maxQueuedRequests?: number;
  } = {},
): Promise<{ server: WebhookServer; port: number; ca: string; dir: string; cert: string }> {
  const { dir, ca, cert } = certDir();
  const server = new WebhookServer(
    { host: "127.0.0.1", port: 0, certDir: dir, ...extra },
    { log: nullLogger, registry },
  );
  setup(server);
  await server.start();
  servers.push(server);
  return { server, port: server.port as number, ca, dir, cert };
}

const seen: AdmissionContext[] = [];
const validator: CustomValidator<Widget> = {
  validateCreate(ctx, obj) {
    seen.push(ctx);
    if ((obj.spec?.size ?? 0) > 10) {
      throw errors.invalid("Widget", "demo.example.com", obj.metadata?.name ?? "", [
        field.invalid("spec.size", obj.spec?.size, "must be at most 10"),
      ]);
    }
    if (obj.spec?.size === 7) throw new Error("seven is unlucky");
    if (obj.spec?.size === 8)
      throw Object.assign(new Error("eight is taken"), { warnings: ["try nine"] });
    return obj.spec?.size === 0 ? ["size 0 runs nothing"] : undefined;
  },
  validateUpdate(ctx, oldObj, newObj) {
    seen.push(ctx);
    if ((newObj.spec?.size ?? 0) < (oldObj.spec?.size ?? 0))
      throw new Error(`cannot shrink from ${oldObj.spec?.size} to ${newObj.spec?.size}`);
  },
  validateDelete(ctx, obj) {
    seen.push(ctx);
    if (obj.metadata?.labels?.protected === "true") throw new Error("protected");
  },
};

function withWebhooks(s: WebhookServer): void {
  s.registerAdmission(
    "/mutate-demo-example-com-v1-widget",
    defaultingHandler(WidgetKind, {
      default(_ctx, obj) {
        obj.metadata ??= {};
        obj.metadata.labels ??= {};
        obj.metadata.labels.tier ??= "web";
      },
    }),
  );
  s.registerAdmission(
    "/validate-demo-example-com-v1-widget",
    validatingHandler(WidgetKind, validator),
  );
}

describe("admission requests the server refuses", () => {
  it("answers each with a 4xx review naming the problem, without a uid", async () => {
    const { port, ca } = await start(withWebhooks);
    const path = "/validate-demo-example-com-v1-widget";

    const empty = await post(port, ca, path, "");
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({
      response: {
        uid: "",
        allowed: false,
        status: { metadata: {}, message: "request body is empty", code: 400 },
      },
    });

    const type = await post(port, ca, path, review({ operation: "CREATE" }), {
      contentType: "text/plain",
    });
    expect(type.status).toBe(400);
    expect(type.json.response.status.message).toBe(
      "contentType=text/plain, expected application/json",
    );

    const bad = await post(port, ca, path, "{not json");
    expect(bad.status).toBe(400);
    expect(bad.json.response.status.message).toMatch(/^couldn't decode the AdmissionReview: /);

    const noRequest = await post(
      port,
      ca,
      path,
      JSON.stringify({ kind: "AdmissionReview", apiVersion: "admission.k8s.io/v1" }),
    );
    expect(noRequest.status).toBe(400);
    expect(noRequest.json.response.status.message).toBe("the AdmissionReview has no request");

    const wrongKind = await post(
      port,
      ca,
      path,
      JSON.stringify({
        kind: "ConversionReview",
        apiVersion: "apiextensions.k8s.io/v1",
        request: {},
      }),
    );
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.response.status.message).toMatch(
      /^unexpected AdmissionReview kind: apiextensions\.k8s\.io\/v1, Kind=ConversionReview/,
    );

    const badField = await post(port, ca, path, review({ operation: "CREATE", object: "x" }));
    expect(badField.status).toBe(400);
    expect(badField.json.response.status.message).toBe(
      "couldn't decode the AdmissionReview: request.object must be an object",
    );

    const tooLarge = await post(port, ca, path, Buffer.alloc(7 * 1024 * 1024 + 1, 0x20));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.response.status).toEqual({
      metadata: {},
      message: "request entity is too large; limit is 7340032 bytes",
      code: 413,
    });

    const get = await post(port, ca, path, undefined, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");

    const unknown = await post(port, ca, "/mutate-nothing", review({ operation: "CREATE" }));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe("404 page not found\n");
  });

  it("refuses an object of another version or kind with 400, as a typed decoder does", async () => {
    const { port, ca } = await start(withWebhooks);
    const r = await post(
      port,
      ca,
      "/validate-demo-example-com-v1-widget",
      review({
        operation: "CREATE",
        object: { ...widget({ size: 1 }), apiVersion: "demo.example.com/v2" },
      }),
    );
    expect(r.json.response).toMatchObject({
      uid: "3c1b-uid",
      allowed: false,
      status: {
        code: 400,
        message:
          "cannot decode demo.example.com/v2, Kind=Widget as demo.example.com/v1, Kind=Widget",
      },
    });
  });
});

describe("defaulting", () => {
  it("answers with a base64 JSON Patch of what the defaulter changed, uid and review version echoed", async () => {
    const { port, ca } = await start(withWebhooks);
    const r = await post(
      port,
      ca,
      "/mutate-demo-example-com-v1-widget",
      review({ operation: "CREATE", object: widget({ size: 2 }) }, "admission.k8s.io/v1beta1"),
    );
    expect(r.status).toBe(200);
    expect(r.text.endsWith("}\n")).toBe(true);
    expect(r.json.kind).toBe("AdmissionReview");
    expect(r.json.apiVersion).toBe("admission.k8s.io/v1beta1");
    const res = r.json.response;
    expect(res).toMatchObject({
      uid: "3c1b-uid",
      allowed: true,
      status: { metadata: {}, code: 200 },
      patchType: "JSONPatch",
    });
    expect(JSON.parse(Buffer.from(res.patch, "base64").toString())).toEqual([
      { op: "add", path: "/metadata/labels", value: { tier: "web" } },
    ]);
  });

  it("sends no patch when nothing changed, and leaves DELETE alone", async () => {
    const { port, ca } = await start(withWebhooks);
    const same = await post(
      port,
      ca,
      "/mutate-demo-example-com-v1-widget",
      review({
        operation: "UPDATE",
        object: widget({ size: 2 }, { tier: "db" }),
        oldObject: widget({ size: 1 }),
      }),
    );
    expect(same.json.response).toEqual({
      uid: "3c1b-uid",
      allowed: true,
      status: { metadata: {}, code: 200 },
    });
    const del = await post(
      port,
      ca,
      "/mutate-demo-example-com-v1-widget",
      review({ operation: "DELETE", object: null, oldObject: widget({}) }),
    );
    expect(del.json.response).toEqual({
      uid: "3c1b-uid",
      allowed: true,
      status: { metadata: {}, code: 200 },
    });
    const none = await post(
      port,
      ca,
      "/mutate-demo-example-com-v1-widget",
      review({ operation: "CREATE" }),
    );
    expect(none.json.response).toMatchObject({
      allowed: false,
      status: { code: 400, message: "there is no content to decode" },
    });
  });

  it("diffs against the object as sent even when the defaulter changes ctx.request.object", async () => {
    const { port, ca } = await start((s) =>
      s.registerAdmission(
        "/mutate-ctx",
        defaultingHandler(WidgetKind, {
          default(ctx) {
            (ctx.request.object as Widget).spec = { size: 3 };
          },
        }),
      ),
    );
    const r = await post(
      port,
      ca,
      "/mutate-ctx",
      review({ operation: "CREATE", object: widget({ size: 1 }) }),
    );
    expect(JSON.parse(Buffer.from(r.json.response.patch, "base64").toString())).toEqual([
      { op: "replace", path: "/spec/size", value: 3 },
    ]);
  });

  it("denies when the defaulter throws: 403 with the message, or an ApiError's own status", async () => {
    const { port, ca } = await start((s) => {
      s.registerAdmission(
        "/mutate-plain",
        defaultingHandler(WidgetKind, {
          default() {
            throw new Error("no defaults today");
          },
        }),
      );
      s.registerAdmission(
        "/mutate-api",
        defaultingHandler(WidgetKind, {
          default() {
            throw errors.badRequest("bad widget");
          },
        }),
      );
    });
    const plain = await post(
      port,
      ca,
      "/mutate-plain",
      review({ operation: "CREATE", object: widget({}) }),
    );
    expect(plain.json.response).toEqual({
      uid: "3c1b-uid",
      allowed: false,
      status: { metadata: {}, message: "no defaults today", reason: "Forbidden", code: 403 },
    });
    const api = await post(
      port,
      ca,
      "/mutate-api",
      review({ operation: "CREATE", object: widget({}) }),
    );
    expect(api.json.response.status).toEqual({
      metadata: {},
      status: "Failure",
      message: "bad widget",
      reason: "BadRequest",
      code: 400,
    });
  });
});

describe("validation", () => {
  it("allows with code 200 and the validator's warnings", async () => {
    const { port, ca } = await start(withWebhooks);
    const r = await post(
      port,
      ca,
      "/validate-demo-example-com-v1-widget",
      review({ operation: "CREATE", object: widget({ size: 0 }) }),
    );
    expect(r.json.response).toEqual({
      uid: "3c1b-uid",
      allowed: true,
      status: { metadata: {}, code: 200 },
      warnings: ["size 0 runs nothing"],
    });
  });

  it("denies with an Invalid status naming the field, a 403 for plain errors, warnings kept", async () => {
    const { port, ca } = await start(withWebhooks);
    const path = "/validate-demo-example-com-v1-widget";
    const invalid = await post(
      port,
      ca,
      path,
      review({ operation: "CREATE", object: widget({ size: 20 }) }),
    );
    expect(invalid.json.response).toEqual({
      uid: "3c1b-uid",
      allowed: false,
      status: {
        metadata: {},
        status: "Failure",
        message:
          'Widget.demo.example.com "w" is invalid: spec.size: Invalid value: 20: must be at most 10',
        reason: "Invalid",
        details: {
          name: "w",
          group: "demo.example.com",
          kind: "Widget",
          causes: [
            {
              reason: "FieldValueInvalid",
              message: "Invalid value: 20: must be at most 10",
              field: "spec.size",
            },
          ],
        },
        code: 422,
      },
    });
    const forbidden = await post(
      port,
      ca,
      path,
      review({ operation: "CREATE", object: widget({ size: 7 }) }),
    );
    expect(forbidden.json.response.status).toEqual({
      metadata: {},
      message: "seven is unlucky",
      reason: "Forbidden",
      code: 403,
    });
    const warned = await post(
      port,
      ca,
      path,
      review({ operation: "CREATE", object: widget({ size: 8 }) }),
    );
    expect(warned.json.response).toMatchObject({
      allowed: false,
      status: { code: 403, message: "eight is taken" },
      warnings: ["try nine"],
    });
  });

  it("gives UPDATE the old and new object, DELETE the old one, allows CONNECT, refuses other operations", async () => {
    const { port, ca } = await start(withWebhooks);
    const path = "/validate-demo-example-com-v1-widget";
    const shrink = await post(
      port,
      ca,
      path,
      review({ operation: "UPDATE", object: widget({ size: 1 }), oldObject: widget({ size: 3 }) }),
    );
    expect(shrink.json.response.status.message).toBe("cannot shrink from 3 to 1");
    const grow = await post(
      port,
      ca,
      path,
      review({ operation: "UPDATE", object: widget({ size: 4 }), oldObject: widget({ size: 3 }) }),
    );
    expect(grow.json.response.allowed).toBe(true);
    const noOld = await post(
      port,
      ca,
      path,
      review({ operation: "UPDATE", object: widget({ size: 4 }) }),
    );
    expect(noOld.json.response.status).toMatchObject({
      code: 400,
      message: "there is no content to decode",
    });
    const del = await post(
      port,
      ca,
      path,
      review({ operation: "DELETE", object: null, oldObject: widget({}, { protected: "true" }) }),
    );
    expect(del.json.response.status.message).toBe("protected");
    const connect = await post(port, ca, path, review({ operation: "CONNECT" }));
    expect(connect.json.response.allowed).toBe(true);
    const odd = await post(port, ca, path, review({ operation: "PATCH" }));
    expect(odd.json.response.status).toEqual({
      metadata: {},
      message: 'unknown operation "PATCH"',
      code: 400,
    });
  });

  it("aborts ctx.signal when the caller's timeout passes", async () => {
    const { port, ca } = await start((s) =>
      s.registerAdmission("/waits", async (ctx) => {
        const reason = await new Promise<string>((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve(String(ctx.signal.reason)), {
            once: true,
          }),
        );
        return { allowed: false, status: { metadata: {}, message: reason, code: 500 } };
      }),
    );
    const r = await post(port, ca, "/waits?timeout=1s", review({ operation: "CONNECT" }));
    expect(r.json.response).toMatchObject({
      uid: "3c1b-uid",
      status: { message: "Error: the caller's timeout of 1s passed" },
    });
  });

  it("passes dry-run and the request in the context", async () => {
    seen.length = 0;
    const { port, ca } = await start(withWebhooks);
    await post(
      port,
      ca,
      "/validate-demo-example-com-v1-widget",
      review({
        operation: "CREATE",
        object: widget({ size: 1 }),
        dryRun: true,
        options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"] },
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.dryRun).toBe(true);
    expect(seen[0]?.request).toMatchObject({
      uid: "3c1b-uid",
      operation: "CREATE",
      userInfo: { username: "kubernetes-admin" },
      options: { dryRun: ["All"] },
    });
  });
});

describe("conversion", () => {
  interface V1 {
    apiVersion?: string;
    kind?: string;
    metadata?: object;
    spec: { size: number };
  }
  interface V2 {
    apiVersion?: string;
    kind?: string;
    metadata?: object;
    spec: { replicas: number };
  }
  interface V3 {
    apiVersion?: string;
    kind?: string;
    metadata?: object;
    spec: { count: string };
  }

  function withConversion(s: WebhookServer): void {
    // The same kind in another group, so a cross-group request finds both types.
    s.registerConversion({
      group: "copy.example.com",
      kind: "Widget",
      hub: "v1",
      spokes: new Map([["v2", { toHub: (x: unknown) => x, fromHub: (x: unknown) => x }]]),
    });
    s.registerConversion({
      group: "demo.example.com",
      kind: "Widget",
      hub: "v1",
      spokes: new Map<string, { toHub(x: unknown): unknown; fromHub(x: unknown): unknown }>([
        [
          "v2",
          {
            toHub: (src: V2): V1 => ({ metadata: src.metadata, spec: { size: src.spec.replicas } }),
            fromHub: (hub: V1): V2 => {
              if (hub.spec.size < 0) throw new Error("negative size");
              return { metadata: hub.metadata, spec: { replicas: hub.spec.size } };
            },
          },
        ],
        [
          "v3",
          {
            // No metadata returned: the source's is kept.
            toHub: (src: V3): V1 => ({ spec: { size: Number(src.spec.count) } }),
            fromHub: (hub: V1): V3 => ({ spec: { count: String(hub.spec.size) } }),
          },
        ],
      ] as never),
    });
  }

  const obj = (version: string, spec: object) => ({
    apiVersion: `demo.example.com/${version}`,
    kind: "Widget",
    metadata: { name: "w", namespace: "default", uid: "u-1" },
    spec,
  });
  const conversionReview = (desired: string, objects: unknown[]) =>
    JSON.stringify({
      kind: "ConversionReview",
      apiVersion: "apiextensions.k8s.io/v1",
      request: { uid: "8f2e", desiredAPIVersion: desired, objects },
    });

  it("converts spoke to hub, hub to spoke and spoke to spoke, apiVersion and kind set", async () => {
    const { port, ca } = await start(withConversion);
    const r = await post(
      port,
      ca,
      "/convert",
      conversionReview("demo.example.com/v1", [
        obj("v2", { replicas: 3 }),
        obj("v3", { count: "4" }),
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      kind: "ConversionReview",
      apiVersion: "apiextensions.k8s.io/v1",
      response: {
        uid: "8f2e",
        convertedObjects: [obj("v1", { size: 3 }), obj("v1", { size: 4 })],
        result: { metadata: {}, status: "Success" },
      },
    });
    const down = await post(
      port,
      ca,
      "/convert",
      conversionReview("demo.example.com/v2", [obj("v1", { size: 5 })]),
    );
    expect(down.json.response.convertedObjects).toEqual([obj("v2", { replicas: 5 })]);
    const across = await post(
      port,
      ca,
      "/convert",
      conversionReview("demo.example.com/v3", [obj("v2", { replicas: 6 })]),
    );
    expect(across.json.response.convertedObjects).toEqual([obj("v3", { count: "6" })]);
  });

  it("reports a failing object as result Failure with its message and returns no objects", async () => {
    const { port, ca } = await start(withConversion);
    const cases: Array<[string, unknown[], string]> = [
      ["demo.example.com/v2", [obj("v1", { size: 1 }), obj("v1", { size: -1 })], "negative size"],
      [
        "demo.example.com/v2",
        [obj("v3", { count: "1" }), obj("v1", { size: -2 })],
        "negative size",
      ],
      [
        "demo.example.com/v1",
        [obj("v1", { size: 1 })],
        "conversion is not allowed between same type demo.example.com/v1, Kind=Widget",
      ],
      [
        "demo.example.com/v9",
        [obj("v1", { size: 1 })],
        'no kind "Widget" is registered for version "demo.example.com/v9"',
      ],
      [
        "demo.example.com/v1",
        [obj("v8", { size: 1 })],
        'no kind "Widget" is registered for version "demo.example.com/v8"',
      ],
      [
        "other.example.com/v2",
        [obj("v1", { size: 1 })],
        'no kind "Widget" is registered for version "other.example.com/v2"',
      ],
      [
        "copy.example.com/v2",
        [obj("v1", { size: 1 })],
        "src demo.example.com/v1, Kind=Widget and dst copy.example.com/v2, Kind=Widget does not belong to same API Group",
      ],
      ["demo.example.com/v2", [{ metadata: {} }], "Object 'apiVersion' is missing in the object"],
    ];
    for (const [desired, objects, message] of cases) {
      const r = await post(port, ca, "/convert", conversionReview(desired, objects));
      expect(r.status).toBe(200);
      expect(r.json.response).toEqual({
        uid: "8f2e",
        convertedObjects: null,
        result: { metadata: {}, status: "Failure", message },
      });
    }
    const viaHub = await post(
      port,
      ca,
      "/convert",
      conversionReview("demo.example.com/v2", [obj("v3", { count: "-3" })]),
    );
    expect(viaHub.json.response.result.message).toBe(
      "failed to convert hub demo.example.com/v1, Kind=Widget to spoke demo.example.com/v2, Kind=Widget : negative size",
    );
  });

  it("answers 400 to a review that does not decode or has no request", async () => {
    const { port, ca } = await start(withConversion);
    const bad = await post(port, ca, "/convert", "[");
    expect(bad.status).toBe(400);
    const none = await post(
      port,
      ca,
      "/convert",
      JSON.stringify({ kind: "ConversionReview", apiVersion: "apiextensions.k8s.io/v1" }),
    );
    expect(none.status).toBe(400);
    expect(none.text).toBe("conversion request is nil\n");
    const wrongKind = await post(
      port,
      ca,
      "/convert",
      JSON.stringify({ kind: "AdmissionReview", apiVersion: "admission.k8s.io/v1", request: {} }),
    );
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.text).toBe(
      "unexpected ConversionReview kind: admission.k8s.io/v1, Kind=AdmissionReview; expected apiextensions.k8s.io/v1 ConversionReview\n",
    );
  });
});

describe("server", () => {
  it("counts requests in controller-runtime's webhook metrics", async () => {
    const registry = new Registry();
    const { port, ca } = await start(withWebhooks, registry);
    await post(
      port,
      ca,
      "/validate-demo-example-com-v1-widget",
      review({ operation: "CREATE", object: widget({ size: 7 }) }),
    );
    await post(port, ca, "/validate-demo-example-com-v1-widget", "");
    const text = await registry.metrics();
    const path = 'webhook="/validate-demo-example-com-v1-widget"';
    expect(text).toContain(`controller_runtime_webhook_requests_total{${path},code="200"} 1`);
    expect(text).toContain(`controller_runtime_webhook_requests_total{${path},code="400"} 1`);
    expect(text).toContain(
      `controller_runtime_webhook_requests_total{webhook="/mutate-demo-example-com-v1-widget",code="500"} 0`,
    );
    expect(text).toContain(`controller_runtime_webhook_requests_in_flight{${path}} 0`);
    expect(text).toContain(`controller_runtime_webhook_latency_seconds_count{${path}} 2`);
    expect(text).toContain(
      `controller_runtime_webhook_admission_responses_total{${path},allowed="false",admission_code="403"} 1`,
    );
  });

  it("handles a bounded number of requests at once and refuses more with 429", async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const { port, ca } = await start(
      (s) =>
        s.registerAdmission("/slow", async () => {
          entered();
          await released;
          return { allowed: true };
        }),
      undefined,
      { maxConcurrentRequests: 1, maxQueuedRequests: 0 },
    );
    const first = post(port, ca, "/slow", review({ operation: "CONNECT" }));
    await inHandler;
    const second = await post(port, ca, "/slow", review({ operation: "CONNECT" }));
    expect(second.status).toBe(429);
    expect(second.headers["retry-after"]).toBe("1");
    release();
    expect((await first).json.response).toMatchObject({ uid: "3c1b-uid", allowed: true });
  });

  it("lets a request being answered finish when it closes", async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const { server, port, ca } = await start((s) =>
      s.registerAdmission("/slow", async () => {
        entered();
        await released;
        return { allowed: true };
      }),
    );
    const answer = post(port, ca, "/slow", review({ operation: "CONNECT" }));
    await inHandler;
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // Not listening any more, but the request in flight is still being answered.
    await expect(post(port, ca, "/slow", review({ operation: "CONNECT" }))).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(closed).toBe(false);
    release();
    const r = await answer;
    expect(r.json.response).toMatchObject({ uid: "3c1b-uid", allowed: true });
    expect(r.headers.connection).toBe("close");
    await closing;
    expect(closed).toBe(true);
  });

  it("speaks HTTP/1.1 only by default and HTTP/2 besides it when enabled", async () => {
    const alpn = (port: number) =>
      new Promise<string | false>((resolve, reject) => {
        const s = tls.connect(
          { host: "127.0.0.1", port, rejectUnauthorized: false, ALPNProtocols: ["h2", "http/1.1"] },
          () => {
            resolve(s.alpnProtocol ?? false);
            s.end();
          },
        );
        s.on("error", reject);
      });
    const plain = await start(withWebhooks);
    expect(await alpn(plain.port)).toBe("http/1.1");

    const h2 = await start(withWebhooks, undefined, { enableHttp2: true });
    expect(await alpn(h2.port)).toBe("h2");
    const session = http2.connect(`https://127.0.0.1:${h2.port}`, {
      ca: h2.ca,
      servername: "localhost",
    });
    try {
      const call = (path: string, body: string | Buffer) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const stream = session.request({
            ":method": "POST",
            ":path": path,
            "content-type": "application/json",
          });
          let status = 0;
          let text = "";
          stream.on("response", (h) => {
            status = Number(h[":status"]);
          });
          stream.on("data", (c) => {
            text += c;
          });
          stream.on("end", () => resolve({ status, text }));
          stream.on("error", reject);
          stream.end(body);
        });
      const ok = await call(
        "/validate-demo-example-com-v1-widget",
        review({ operation: "CREATE", object: widget({ size: 7 }) }),
      );
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.text).response.status.message).toBe("seven is unlucky");
      // The answers that end an HTTP/1.1 connection must not break an HTTP/2 stream.
      const big = await call(
        "/validate-demo-example-com-v1-widget",
        Buffer.alloc(7 * 1024 * 1024 + 1, 0x20),
      );
      expect(big.status).toBe(413);
    } finally {
      session.close();
    }
    // HTTP/1.1 clients are still served.
    const r = await post(
      h2.port,
      h2.ca,
      "/validate-demo-example-com-v1-widget",
      review({ operation: "CONNECT" }),
    );
    expect(r.json.response.allowed).toBe(true);
  });

  it("refuses a duplicate path and registration after start", async () => {
    const { server } = await start(withWebhooks);
    expect(() => server.registerAdmission("/late", async () => ({ allowed: true }))).toThrow(
      /already started/,
    );
    const fresh = new WebhookServer({}, { log: nullLogger });
    fresh.register("/x", async () => {});
    expect(() => fresh.register("/x", async () => {})).toThrow("can't register duplicate path: /x");
  });

  it("serves a replaced certificate without a restart, over TLS 1.2 or later only", async () => {
    const { port, dir, cert } = await start(withWebhooks, undefined, { certPollIntervalMs: 100 });
    const served = () =>
      new Promise<string>((resolve, reject) => {
        const s = tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
          resolve(s.getPeerX509Certificate()?.fingerprint256 ?? "");
          s.end();
        });
        s.on("error", reject);
      });
    const first = await served();
    expect(first).toBe(new X509Certificate(cert).fingerprint256);
    const next = selfSignedCertificate();
    writeFileSync(join(dir, "tls.key.new"), next.key);
    writeFileSync(join(dir, "tls.crt.new"), next.cert);
    renameSync(join(dir, "tls.key.new"), join(dir, "tls.key"));
    renameSync(join(dir, "tls.crt.new"), join(dir, "tls.crt"));
    const expected = new X509Certificate(next.cert).fingerprint256;
    let now = first;
    for (let i = 0; i < 200 && now !== expected; i++) {
      await new Promise((r) => setTimeout(r, 50));
      now = await served();
    }
    expect(now).toBe(expected);
    // The new chain verifies with its own CA.
    const r = await post(
      port,
      next.ca,
      "/validate-demo-example-com-v1-widget",
      review({ operation: "CONNECT" }),
    );
    expect(r.json.response.allowed).toBe(true);
    // A client that would take TLS 1.1 (SECLEVEL=0 lifts OpenSSL's own floor) is refused by version.
    await expect(
      new Promise((resolve, reject) => {
        const s = tls.connect(
          {
            host: "127.0.0.1",
            port,
            rejectUnauthorized: false,
            minVersion: "TLSv1",
            maxVersion: "TLSv1.1",
            ciphers: "DEFAULT@SECLEVEL=0",
          },
          () => resolve(s.getProtocol()),
        );
        s.on("error", reject);
      }),
    ).rejects.toThrow(/protocol version/);
  });

  it("is ready only while serving (StartedChecker)", async () => {
    const { dir } = certDir();
    const server = new WebhookServer(
      { host: "127.0.0.1", port: 0, certDir: dir },
      { log: nullLogger },
    );
    withWebhooks(server);
    const check = server.startedChecker();
    await expect(Promise.resolve().then(check)).rejects.toThrow(
      "webhook server has not been started yet",
    );
    await server.start();
    await expect(Promise.resolve().then(check)).resolves.toBeUndefined();
    await server.close();
    await expect(Promise.resolve().then(check)).rejects.toThrow(/webhook server is not reachable/);
  });

  it("fails start with one line naming the missing file and the ways out when the certificate is missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opgen-webhook-empty-"));
    dirs.push(dir);
    const server = new WebhookServer(
      { host: "127.0.0.1", port: 0, certDir: dir },
      { log: nullLogger },
    );
    withWebhooks(server);
    await expect(server.start()).rejects.toThrow(
      /^the webhook certificate \S+\/tls\.crt does not exist: in a cluster, cert-manager issues it into that folder \(.*\); outside a cluster, start the operator with ENABLE_WEBHOOKS=false \(.*\) or point --webhook-cert-path at a folder with tls\.crt and tls\.key$/,
    );
  });

  it("names the key when only the key is missing", async () => {
    const { dir } = certDir();
    rmSync(join(dir, "tls.key"));
    const server = new WebhookServer(
      { host: "127.0.0.1", port: 0, certDir: dir },
      { log: nullLogger },
    );
    withWebhooks(server);
    const error = await server.start().catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      new RegExp(`^the webhook certificate ${join(dir, "tls.key")} does not exist: in a cluster`),
    );
    expect((error as Error).message).not.toContain("\n");
  });
});
