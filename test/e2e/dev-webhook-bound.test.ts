/**
 * A webhook call opgen dev's relay cannot hand to the operator within its bound fails as
 * kube-apiserver reports a failing webhook, so the configuration's failurePolicy applies: with
 * Fail, the real kubectl shows the relay's reason; with Ignore, the object is admitted. The API
 * server side of opgen dev (startDevEnv) runs with no operator at all and a short hold, so the
 * bound is what ends every call.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevEnv, startDevEnv } from "../../src/dev/dev-env.js";
import { findDevWebhooks } from "../../src/dev/webhooks.js";
import type { ProjectConfig } from "../../src/project/project-file.js";
import { tempDir } from "../helpers/cli.js";

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gizmos.dev.example.com }
spec:
  group: dev.example.com
  scope: Namespaced
  names: { plural: gizmos, kind: Gizmo }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

const hook = (name: string, policy: "Fail" | "Ignore") => `
  - name: ${name}
    clientConfig:
      service: { name: webhook-service, namespace: system, path: /mutate-dev-example-com-v1-gizmo }
    rules:
      - { apiGroups: [dev.example.com], apiVersions: [v1], operations: [CREATE], resources: [gizmos] }
    objectSelector: { matchLabels: { policy: ${policy.toLowerCase()} } }
    admissionReviewVersions: [v1]
    sideEffects: None
    failurePolicy: ${policy}
`;

const PROJECT: ProjectConfig = {
  version: "3",
  cliVersion: "0.1.0",
  domain: "example.com",
  layout: ["typescript.opgen.io/v1"],
  projectName: "bound",
  resources: [],
};

describe("a webhook call opgen dev cannot relay within its bound", () => {
  const root = tempDir("opgen-dev-bound-");
  let dev: DevEnv;
  const held: string[] = [];

  beforeAll(async () => {
    mkdirSync(join(root, "config/crd/bases"), { recursive: true });
    mkdirSync(join(root, "config/webhook"), { recursive: true });
    writeFileSync(join(root, "config/crd/bases/gizmos.yaml"), CRD);
    writeFileSync(
      join(root, "config/webhook/manifests.yaml"),
      `apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: { name: gizmo-defaulter }\nwebhooks:${hook("mfail.dev.example.com", "Fail")}${hook("mignore.dev.example.com", "Ignore")}`,
    );
    const webhooks = await findDevWebhooks(root, PROJECT, {});
    dev = await startDevEnv({
      root,
      simulate: false,
      webhooks,
      relay: { holdMs: 300, onHold: (path) => held.push(path) },
    });
  }, 60_000);

  afterAll(async () => {
    await dev?.stop();
  });

  const create = (name: string, policy: string) =>
    execa("kubectl", ["--kubeconfig", dev.env.kubeconfigPath, "create", "-f", "-"], {
      reject: false,
      input: `apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata: { name: ${name}, namespace: default, labels: { policy: ${policy} } }\n`,
    });

  it("is refused with the relay's reason under failurePolicy Fail", async () => {
    const port = dev.operatorWebhooks?.port;
    const refused = await create("refused", "fail");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "mfail.dev.example.com": failed to call webhook: opgen dev: the operator's webhook server at 127.0.0.1:${port} did not answer within 0.3 s (dial tcp 127.0.0.1:${port}: connection refused); see the operator's log in the output of opgen dev`,
    );
    expect(held).toContain("/mutate-dev-example-com-v1-gizmo");
  });

  it("is admitted unchanged under failurePolicy Ignore", async () => {
    const admitted = await create("admitted", "ignore");
    expect(admitted.exitCode, admitted.stderr).toBe(0);
  });
});
