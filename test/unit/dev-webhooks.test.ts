/**
 * What `opgen dev` does about a project's webhooks (src/dev/webhooks.ts): when they are on, off or
 * absent, which paths envtest installs from, and which paths of the operator's webhook server the
 * installed configurations call (what opgen dev waits for before it says ready).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findDevWebhooks, webhookServerArgs, webhooksReadyLine } from "../../src/dev/webhooks.js";
import type { ProjectConfig, ProjectResource } from "../../src/project/project-file.js";

const CONFIG = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- name: mappcluster-v1.kb.io
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /mutate-demo-example-com-v1-appcluster }
- name: mother.kb.io
  clientConfig:
    url: https://example.com:8443/mutate-other
- name: mroot.kb.io
  clientConfig:
    service: { name: webhook-service, namespace: system }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- name: vappcluster-v1.kb.io
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /validate-demo-example-com-v1-appcluster }
- name: vsame.kb.io
  clientConfig:
    service: { name: webhook-service, namespace: system, path: /validate-demo-example-com-v1-appcluster }
`;

const PATCH = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: appclusters.demo.example.com
spec:
  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service: { name: webhook-service, namespace: system, path: /convert }
      conversionReviewVersions: [v1]
`;

function project(webhooks?: ProjectResource["webhooks"]): ProjectConfig {
  return {
    version: "3",
    cliVersion: "0.1.0",
    domain: "example.com",
    layout: ["typescript.opgen.io/v1"],
    projectName: "p",
    resources: [
      {
        group: "demo",
        version: "v1",
        kind: "AppCluster",
        domain: "example.com",
        plural: "appclusters",
        ...(webhooks ? { webhooks } : {}),
      },
    ],
  };
}

function dir(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "opgen-dev-webhooks-unit-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("findDevWebhooks", () => {
  it("is none for a project without webhooks, whatever ENABLE_WEBHOOKS says", async () => {
    expect(await findDevWebhooks(dir(), project(), {})).toEqual({ mode: "none" });
    expect(await findDevWebhooks(dir(), project(), { ENABLE_WEBHOOKS: "false" })).toEqual({
      mode: "none",
    });
  });

  it("installs config/webhook and config/crd/patches and names what they hold", async () => {
    const root = dir({
      "config/webhook/manifests.yaml": CONFIG,
      "config/webhook/kustomization.yaml": "resources:\n- manifests.yaml\n",
      "config/crd/patches/webhook_in_appclusters.yaml": PATCH,
      "config/crd/patches/cainjection_in_appclusters.yaml":
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: appclusters.demo.example.com\n  annotations: { a: b }\n",
    });
    const found = await findDevWebhooks(
      root,
      project({
        defaulting: true,
        validation: true,
        conversion: true,
        spoke: ["v2"],
        webhookVersion: "v1",
      }),
      { ENABLE_WEBHOOKS: "true" },
    );
    expect(found).toEqual({
      mode: "on",
      paths: [join(root, "config/webhook"), join(root, "config/crd/patches")],
      configurations: ["mutating-webhook-configuration", "validating-webhook-configuration"],
      conversions: ["appclusters.demo.example.com"],
      // The paths as envtest points them at the local server: a service's path (else /), a URL's
      // path, /convert for a conversion without one; each path once, named by its first caller.
      endpoints: [
        { path: "/mutate-demo-example-com-v1-appcluster", what: "mappcluster-v1.kb.io" },
        { path: "/mutate-other", what: "mother.kb.io" },
        { path: "/", what: "mroot.kb.io" },
        { path: "/validate-demo-example-com-v1-appcluster", what: "vappcluster-v1.kb.io" },
        { path: "/convert", what: "conversion of appclusters.demo.example.com" },
      ],
    });
  });

  it("is on with manifests alone (markers without PROJECT webhooks), off with ENABLE_WEBHOOKS=false", async () => {
    const root = dir({ "config/webhook/manifests.yaml": CONFIG });
    expect(await findDevWebhooks(root, project(), {})).toMatchObject({
      mode: "on",
      paths: [join(root, "config/webhook")],
      conversions: [],
    });
    expect(await findDevWebhooks(root, project(), { ENABLE_WEBHOOKS: "false" })).toEqual({
      mode: "disabled",
    });
  });

  it("is on for a conversion-only project (the operator still serves /convert)", async () => {
    const root = dir({ "config/crd/patches/webhook_in_appclusters.yaml": PATCH });
    const found = await findDevWebhooks(
      root,
      project({ conversion: true, spoke: ["v2"], webhookVersion: "v1" }),
      {},
    );
    expect(found).toEqual({
      mode: "on",
      paths: [join(root, "config/crd/patches")],
      configurations: [],
      conversions: ["appclusters.demo.example.com"],
      endpoints: [{ path: "/convert", what: "conversion of appclusters.demo.example.com" }],
    });
  });

  it("refuses admission webhooks in PROJECT without generated manifests", async () => {
    await expect(
      findDevWebhooks(dir(), project({ validation: true, webhookVersion: "v1" }), {}),
    ).rejects.toThrow(
      "PROJECT declares webhooks for AppCluster v1 but config/webhook/manifests.yaml does not exist: run opgen manifests (or drop --no-build) and opgen dev again",
    );
  });

  it("refuses a manifest that does not parse, in one line naming the file", async () => {
    const root = dir({ "config/webhook/manifests.yaml": "webhooks: [unclosed\n" });
    const error = await findDevWebhooks(root, project(), {}).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain("\n");
    expect((error as Error).message).toMatch(
      /^cannot read the webhook manifests: \S+config\/webhook\/manifests\.yaml: .+; fix the file \(or run opgen manifests\) and run opgen dev again$/,
    );
  });
});

describe("the operator's flags and the ready line", () => {
  it("passes the runtime's webhook flags", () => {
    expect(webhookServerArgs({ certDir: "/tmp/certs", port: 40123, host: "127.0.0.1" })).toEqual([
      "--webhook-cert-path",
      "/tmp/certs",
      "--webhook-port",
      "40123",
      "--webhook-host",
      "127.0.0.1",
    ]);
  });

  it("names the configurations and conversions served", () => {
    expect(
      webhooksReadyLine("https://127.0.0.1:40123", {
        configurations: ["mutating-webhook-configuration"],
        conversions: ["appclusters.demo.example.com"],
      }),
    ).toBe(
      "webhooks ready at https://127.0.0.1:40123 (mutating-webhook-configuration, conversion of appclusters.demo.example.com)\n",
    );
    expect(webhooksReadyLine("https://127.0.0.1:1", { configurations: [], conversions: [] })).toBe(
      "webhooks ready at https://127.0.0.1:1\n",
    );
  });
});
