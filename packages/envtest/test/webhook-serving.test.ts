/**
 * The local-serving helpers `opgen dev` and tests use: the serving certificate's names, the
 * installation of configurations through any API server (created, then replaced), conversion
 * patches, and the TLS wait that names the address it waited for.
 */
import { X509Certificate } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  installWebhookManifests,
  mintServingCertificate,
  prepareWebhookServing,
  readConversionPatches,
  startTestEnv,
  type TestEnv,
  waitForWebhookServer,
  withConversionPatch,
} from "../src/index.js";
import { api } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "webhook-serving-"));
let env: TestEnv;

beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

const config = (path: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: { name: webhook-service, namespace: system, path: ${path} }
  name: vthing.example.com
  rules:
  - { apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps] }
  sideEffects: None
`;

describe("local webhook serving", () => {
  it("issues a serving certificate for the host, localhost and the loopback addresses", () => {
    const { caPem, certPem } = mintServingCertificate("webhook.local");
    const cert = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkHost("webhook.local")).toBe("webhook.local");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkHost("elsewhere.local")).toBeUndefined();
    expect(ca.ca).toBe(true);
  });

  it("installs configurations through a kubeconfig, replacing them on a second install", async () => {
    const serving = await prepareWebhookServing({ localServingPort: 9443 });
    try {
      const file = join(dir, "manifests.yaml");
      writeFileSync(file, config("/validate-v1"));
      await installWebhookManifests(env.kubeconfig, [file], serving);
      writeFileSync(file, config("/validate-v2"));
      await installWebhookManifests(env.kubeconfig, [file], serving);
      const r = await api(
        env,
        "GET",
        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validating-webhook-configuration",
      );
      expect(r.body.webhooks[0].clientConfig).toEqual({
        url: "https://127.0.0.1:9443/validate-v2",
        caBundle: serving.caBundle.toString("base64"),
      });
      expect(r.body.metadata.generation).toBe(2);
    } finally {
      serving.cleanup();
      expect(existsSync(serving.certDir)).toBe(false);
    }
  });

  it("applies a conversion patch to the CRD it names", () => {
    const file = join(dir, "webhook_in_things.yaml");
    writeFileSync(
      file,
      "kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nmetadata: { name: things.example.com }\nspec:\n  conversion: { strategy: Webhook }\n",
    );
    const patches = readConversionPatches([file]);
    const crd = {
      kind: "CustomResourceDefinition",
      metadata: { name: "things.example.com" },
      spec: { group: "example.com" },
    };
    expect(withConversionPatch(crd, patches).spec).toEqual({
      group: "example.com",
      conversion: { strategy: "Webhook" },
    });
    const other = { ...crd, metadata: { name: "others.example.com" } };
    expect(withConversionPatch(other, patches)).toBe(other);
  });

  it("names the address a webhook server never served", async () => {
    const serving = await prepareWebhookServing();
    try {
      await expect(waitForWebhookServer(serving, 200)).rejects.toThrow(
        `webhook server at https://127.0.0.1:${serving.port}/ did not accept TLS connections within 200 ms`,
      );
    } finally {
      serving.cleanup();
    }
  });

  it("fails a start whose webhook path does not exist, saying what to fix", async () => {
    await expect(startTestEnv({ webhooks: { paths: [join(dir, "missing")] } })).rejects.toThrow(
      `webhook manifest path ${join(dir, "missing")} does not exist (run opgen manifests, or fix webhooks.paths)`,
    );
  });
});
