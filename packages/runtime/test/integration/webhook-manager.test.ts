/**
 * The webhook server inside a manager against envtest: started only when a webhook is registered,
 * before the caches; /readyz gains the "webhook" check, which passes once it serves; the
 * registered handlers answer AdmissionReviews and ConversionReviews over HTTPS (verified with the
 * CA) about objects the API server really holds; its metrics land in the manager's registry; a
 * missing certificate fails start with one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversionFor, errors, field, webhookFor } from "../../src/index.js";
import { selfSignedCertificate } from "../../src/tls/self-signed.js";
import {
  type AppCluster,
  AppClusterKind,
  namespace,
  newManager,
  run,
  startEnv,
} from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
const dirs: string[] = [];
function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "opgen-no-certs-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await env?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function certDir(): { dir: string; ca: string } {
  const dir = mkdtempSync(join(tmpdir(), "opgen-webhook-it-"));
  dirs.push(dir);
  const pair = selfSignedCertificate();
  writeFileSync(join(dir, "tls.crt"), pair.cert);
  writeFileSync(join(dir, "tls.key"), pair.key);
  return { dir, ca: pair.ca };
}

function get(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path }, (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on("error", reject);
  });
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field
function post(port: number, ca: string, path: string, body: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        ca,
        servername: "localhost",
        headers: { "Content-Type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve(JSON.parse(text)));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("the manager's webhook server", () => {
  it("serves registered webhooks over HTTPS, is on /readyz, and counts requests", async () => {
    const { dir, ca } = certDir();
    const mgr = newManager(env, {
      healthProbeBindAddress: "127.0.0.1:0",
      webhookServer: { host: "127.0.0.1", port: 0, certDir: dir },
    });
    webhookFor(mgr, AppClusterKind)
      .withDefaulter({
        default(_ctx, obj: AppCluster) {
          obj.metadata ??= {};
          obj.metadata.labels = {
            ...obj.metadata.labels,
            tier: obj.metadata.labels?.tier ?? "web",
          };
        },
      })
      .withValidator({
        validateCreate(ctx, obj: AppCluster) {
          if ((obj.spec.size ?? 0) > 10) {
            throw errors.invalid("AppCluster", "demo.my.domain", obj.metadata?.name ?? "", [
              field.invalid("spec.size", obj.spec.size, "must be at most 10"),
            ]);
          }
          return ctx.dryRun ? ["dry run: nothing was created"] : undefined;
        },
        validateUpdate() {},
        validateDelete() {},
      })
      .complete();
    conversionFor(mgr, { group: "demo.my.domain", kind: "AppCluster", hub: "v1" })
      .spoke("v2", {
        toHub: (o: { spec: { replicas: number } }) => ({ spec: { size: o.spec.replicas } }),
        fromHub: (o: AppCluster) => ({ spec: { replicas: o.spec.size } }),
      })
      .complete();
    const running = run(mgr);
    try {
      await mgr.elected;
      const port = mgr.ports.webhook as number;
      expect(port).toBeGreaterThan(0);
      await eventually(async () => {
        const ready = await get(mgr.ports.healthProbe as number, "/readyz?verbose");
        expect(ready.text).toContain("[+]webhook ok");
        expect(ready.status).toBe(200);
      });

      // An object as the API server holds it, reviewed as it would send it.
      const ns = await namespace(mgr);
      const stored = await mgr.apiReader.create<AppCluster>({
        apiVersion: "demo.my.domain/v1",
        kind: "AppCluster",
        metadata: { name: "a", namespace: ns },
        spec: { size: 20 },
      });
      const request = {
        uid: "uid-1",
        kind: { group: "demo.my.domain", version: "v1", kind: "AppCluster" },
        resource: { group: "demo.my.domain", version: "v1", resource: "appclusters" },
        name: "a",
        namespace: ns,
        operation: "CREATE",
        userInfo: { username: "kubernetes-admin" },
        object: stored,
        oldObject: null,
        dryRun: true,
      };
      const mutate = await post(port, ca, "/mutate-demo-my-domain-v1-appcluster", {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request,
      });
      expect(mutate.response).toMatchObject({
        uid: "uid-1",
        allowed: true,
        patchType: "JSONPatch",
      });
      expect(JSON.parse(Buffer.from(mutate.response.patch, "base64").toString())).toEqual([
        { op: "add", path: "/metadata/labels", value: { tier: "web" } },
      ]);
      const validate = await post(port, ca, "/validate-demo-my-domain-v1-appcluster", {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request,
      });
      expect(validate.response).toMatchObject({
        uid: "uid-1",
        allowed: false,
        status: { code: 422, reason: "Invalid", details: { causes: [{ field: "spec.size" }] } },
      });
      expect(validate.response.status.message).toContain(
        "spec.size: Invalid value: 20: must be at most 10",
      );

      const convert = await post(port, ca, "/convert", {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        request: { uid: "c-1", desiredAPIVersion: "demo.my.domain/v2", objects: [stored] },
      });
      expect(convert.response.result.status).toBe("Success");
      expect(convert.response.convertedObjects).toEqual([
        {
          apiVersion: "demo.my.domain/v2",
          kind: "AppCluster",
          metadata: stored.metadata,
          spec: { replicas: 20 },
        },
      ]);

      const metrics = await mgr.metrics.registry.metrics();
      expect(metrics).toContain(
        'controller_runtime_webhook_requests_total{webhook="/validate-demo-my-domain-v1-appcluster",code="200"} 1',
      );
      expect(metrics).toContain(
        'controller_runtime_webhook_requests_total{webhook="/convert",code="200"} 1',
      );
    } finally {
      await running.stop();
    }
  });

  it("is not started, and not on /readyz, when nothing is registered", async () => {
    const mgr = newManager(env, {
      healthProbeBindAddress: "127.0.0.1:0",
      // A folder without certificates: harmless as long as no webhook needs the server.
      webhookServer: {
        host: "127.0.0.1",
        port: 0,
        certDir: emptyDir(),
      },
    });
    const running = run(mgr);
    try {
      await mgr.elected;
      expect(mgr.ports.webhook).toBeUndefined();
      expect(() =>
        webhookFor(mgr, AppClusterKind)
          .withDefaulter({ default() {} })
          .complete(),
      ).toThrow(
        "cannot register /mutate-demo-my-domain-v1-appcluster: webhooks must be registered before the manager starts",
      );
      const ready = await get(mgr.ports.healthProbe as number, "/readyz?verbose");
      expect(ready.text).not.toContain("webhook");
    } finally {
      await running.stop();
    }
  });

  it("fails start with one line naming the missing file and the ways out when a webhook has no certificate", async () => {
    const mgr = newManager(env, {
      webhookServer: {
        host: "127.0.0.1",
        port: 0,
        certDir: emptyDir(),
      },
    });
    webhookFor(mgr, AppClusterKind)
      .withDefaulter({ default() {} })
      .complete();
    await expect(mgr.start(new AbortController().signal)).rejects.toThrow(
      /^the webhook certificate \S+\/tls\.crt does not exist: in a cluster, cert-manager issues it into that folder \(.*\); outside a cluster, start the operator with ENABLE_WEBHOOKS=false \(.*\) or point --webhook-cert-path at a folder with tls\.crt and tls\.key$/,
    );
  });
});
