/**
 * The loop issue 16 is about, end to end: envtest (startTestEnv({ webhooks })) installs webhook
 * configurations and a conversion CRD pointing at the operator's webhook server, which runs in a
 * manager with the certificate envtest minted, and the API server calls it as kube-apiserver
 * would. A size-20 AppCluster is denied naming spec.size; a size-2 one gets the `tier: web` label;
 * a dry-run create reaches the validator with dryRun set; a v2 object with replicas 3 reads as v1
 * size 3 and v1 objects read as v2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdmissionContext,
  conversionFor,
  defineKind,
  errors,
  field,
  type Manager,
  type ObjectMeta,
  webhookFor,
} from "../../src/index.js";
import { newManager, run } from "./helpers.js";

interface AppClusterV1 {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { size?: number };
}
interface AppClusterV2 {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { replicas?: number };
}
const group = "hooks.example.com";
const V1 = defineKind<AppClusterV1>({
  group,
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});
const V2 = defineKind<AppClusterV2>({
  group,
  version: "v2",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

const schema = (spec: object) => ({
  openAPIV3Schema: {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec: { type: "object", properties: spec },
    },
  },
});

/** The CRD with conversion through the webhook, and the two webhook configurations, as Kubebuilder's config/ has them. */
function manifests(): { crds: string; hooks: string } {
  const crds = mkdtempSync(join(tmpdir(), "opgen-wh-crds-"));
  const service = (path: string) => ({
    service: { name: "webhook-service", namespace: "system", path },
  });
  writeFileSync(
    join(crds, "appclusters.yaml"),
    JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `appclusters.${group}` },
      spec: {
        group,
        names: {
          kind: "AppCluster",
          listKind: "AppClusterList",
          plural: "appclusters",
          singular: "appcluster",
        },
        scope: "Namespaced",
        conversion: {
          strategy: "Webhook",
          webhook: { clientConfig: service("/convert"), conversionReviewVersions: ["v1"] },
        },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: schema({ size: { type: "integer" } }),
          },
          {
            name: "v2",
            served: true,
            storage: false,
            schema: schema({ replicas: { type: "integer" } }),
          },
        ],
      },
    }),
  );
  const hooks = mkdtempSync(join(tmpdir(), "opgen-wh-config-"));
  const rule = {
    apiGroups: [group],
    apiVersions: ["v1"],
    operations: ["CREATE", "UPDATE"],
    resources: ["appclusters"],
  };
  writeFileSync(
    join(hooks, "manifests.yaml"),
    [
      {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "MutatingWebhookConfiguration",
        metadata: { name: "mutating-webhook-configuration" },
        webhooks: [
          {
            name: "mappcluster-v1.kb.io",
            admissionReviewVersions: ["v1"],
            clientConfig: service("/mutate-hooks-example-com-v1-appcluster"),
            failurePolicy: "Fail",
            sideEffects: "None",
            rules: [rule],
          },
        ],
      },
      {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingWebhookConfiguration",
        metadata: { name: "validating-webhook-configuration" },
        webhooks: [
          {
            name: "vappcluster-v1.kb.io",
            admissionReviewVersions: ["v1"],
            clientConfig: service("/validate-hooks-example-com-v1-appcluster"),
            failurePolicy: "Fail",
            sideEffects: "None",
            rules: [rule],
          },
        ],
      },
    ]
      .map((d) => JSON.stringify(d))
      .join("\n---\n"),
  );
  return { crds, hooks };
}

let env: TestEnv;
let dirs: string[] = [];
let mgr: Manager;
let stop: () => Promise<void>;
const dryRuns: boolean[] = [];

beforeAll(async () => {
  const { crds, hooks } = manifests();
  dirs = [crds, hooks];
  env = await startTestEnv({ crdDirectoryPaths: [crds], webhooks: { paths: [hooks] } });
  const w = env.webhook!;
  mgr = newManager(env, { webhookServer: { host: w.host, port: w.port, certDir: w.certDir } });
  webhookFor(mgr, V1)
    .withDefaulter({
      default(_ctx, obj) {
        obj.metadata ??= {};
        obj.metadata.labels = { tier: "web", ...obj.metadata.labels };
      },
    })
    .withValidator({
      validateCreate(ctx: AdmissionContext, obj) {
        dryRuns.push(ctx.dryRun);
        if ((obj.spec.size ?? 0) > 10) {
          throw errors.invalid("AppCluster", group, obj.metadata?.name ?? "", [
            field.invalid("spec.size", obj.spec.size, "must be at most 10"),
          ]);
        }
      },
      validateUpdate() {},
      validateDelete() {},
    })
    .complete();
  conversionFor(mgr, { group, kind: "AppCluster", hub: "v1" })
    .spoke("v2", {
      toHub: (o: AppClusterV2): AppClusterV1 => ({
        metadata: o.metadata,
        spec: { size: o.spec.replicas },
      }),
      fromHub: (o: AppClusterV1): AppClusterV2 => ({
        metadata: o.metadata,
        spec: { replicas: o.spec.size },
      }),
    })
    .complete();
  ({ stop } = run(mgr));
  await mgr.elected;
}, 60_000);

afterAll(async () => {
  await stop?.();
  await env?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const obj = (name: string, size: number): AppClusterV1 => ({
  apiVersion: `${group}/v1`,
  kind: "AppCluster",
  metadata: { name, namespace: "default" },
  spec: { size },
});

describe("envtest calling the manager's webhook server", () => {
  it("denies a size-20 AppCluster naming spec.size", async () => {
    const err = await mgr.apiReader.create(obj("big", 20)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 422 });
    expect((err as Error).message).toContain("spec.size");
    expect((err as Error).message).toContain("must be at most 10");
  });

  it("defaults the tier label on a size-2 AppCluster", async () => {
    const created = await mgr.apiReader.create(obj("small", 2));
    expect(created.metadata?.labels).toEqual({ tier: "web" });
    const read = await mgr.apiReader.get(V1, { namespace: "default", name: "small" });
    expect(read.metadata?.labels).toEqual({ tier: "web" });
  });

  it("passes dry-run to the validator and stores nothing", async () => {
    dryRuns.length = 0;
    await mgr.apiReader.create(obj("dry", 3), { dryRun: true });
    expect(dryRuns).toEqual([true]);
    await expect(
      mgr.apiReader.get(V1, { namespace: "default", name: "dry" }),
    ).rejects.toMatchObject({ code: 404 });
  });

  it("converts between v1 (the hub, stored) and v2 through /convert", async () => {
    await mgr.apiReader.create<AppClusterV2>({
      apiVersion: `${group}/v2`,
      kind: "AppCluster",
      metadata: { name: "from-v2", namespace: "default" },
      spec: { replicas: 3 },
    });
    await eventually(async () => {
      const asV1 = await mgr.apiReader.get(V1, { namespace: "default", name: "from-v2" });
      expect(asV1.spec).toEqual({ size: 3 });
    });
    const asV2 = await mgr.apiReader.get(V2, { namespace: "default", name: "small" });
    expect(asV2.apiVersion).toBe(`${group}/v2`);
    expect(asV2.spec).toEqual({ replicas: 2 });
    const metrics = await mgr.metrics.registry.metrics();
    expect(metrics).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/,
    );
  });
});
