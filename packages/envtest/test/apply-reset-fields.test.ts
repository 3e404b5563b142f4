/**
 * Server-side apply through the main resource and the status subresource, as kube's field
 * manager does it with the strategy's reset fields (`GetResetFields`, the Updater's
 * IgnoreFilter): an apply to the main resource neither changes nor owns status, one to the
 * status subresource neither changes nor owns spec, and neither conflicts over what it cannot
 * change. Deployments' status strategy also resets metadata.labels.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
});
afterAll(async () => {
  await env?.stop();
});

const widgets = "/apis/example.com/v1/namespaces/default/widgets";
const APPLY = { contentType: "application/apply-patch+yaml" };

interface Entry {
  manager: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

const entry = (o: { metadata: { managedFields: Entry[] } }, manager: string) =>
  o.metadata.managedFields.find((e) => e.manager === manager);

function widget(spec: Record<string, unknown>, status?: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "reset" },
    spec,
    ...(status ? { status } : {}),
  });
}

describe("reset fields on apply", () => {
  it("an apply to the main resource leaves status alone and owns none of it", async () => {
    const r = await api(
      env,
      "PATCH",
      `${widgets}/reset?fieldManager=spec-owner`,
      widget({ mode: "fast", replicas: 2 }, { replicas: 9 }),
      APPLY,
    );
    expect(r.status).toBe(201);
    expect(r.body.status).toBeUndefined();
    expect(entry(r.body, "spec-owner")!.fieldsV1).toEqual({
      "f:spec": { "f:mode": {}, "f:replicas": {} },
    });
  });

  it("an apply to status leaves spec alone, owns none of it and conflicts over none of it", async () => {
    const r = await api(
      env,
      "PATCH",
      `${widgets}/reset/status?fieldManager=status-owner`,
      widget({ mode: "slow", replicas: 5 }, { replicas: 2 }),
      APPLY,
    );
    expect(r.status).toBe(200);
    expect(r.body.spec).toEqual({ mode: "fast", replicas: 2, limits: { cpu: "100m" } });
    expect(r.body.status).toEqual({ replicas: 2 });
    const mine = entry(r.body, "status-owner")!;
    expect(mine.subresource).toBe("status");
    expect(mine.fieldsV1).toEqual({ "f:status": { "f:replicas": {} } });
    expect(entry(r.body, "spec-owner")!.fieldsV1).toEqual({
      "f:spec": { "f:mode": {}, "f:replicas": {} },
    });
  });

  it("a main-resource apply with another status conflicts with no status owner", async () => {
    const r = await api(
      env,
      "PATCH",
      `${widgets}/reset?fieldManager=spec-owner`,
      widget({ mode: "fast", replicas: 2 }, { replicas: 7 }),
      APPLY,
    );
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({ replicas: 2 });
    expect(entry(r.body, "status-owner")!.fieldsV1).toEqual({ "f:status": { "f:replicas": {} } });
  });

  it("a Deployment's status apply owns neither spec nor labels", async () => {
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "reset", labels: { app: "reset" } },
      spec: {
        selector: { matchLabels: { app: "reset" } },
        template: {
          metadata: { labels: { app: "reset" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    };
    const path = "/apis/apps/v1/namespaces/default/deployments/reset";
    expect((await api(env, "PATCH", `${path}?fieldManager=owner`, deployment, APPLY)).status).toBe(
      201,
    );
    const status = {
      ...deployment,
      metadata: { name: "reset", labels: { app: "changed", extra: "x" } },
      status: { observedGeneration: 1 },
    };
    const r = await api(env, "PATCH", `${path}/status?fieldManager=controller`, status, APPLY);
    expect(r.status).toBe(200);
    expect(r.body.metadata.labels).toEqual({ app: "reset" });
    expect(entry(r.body, "controller")!.fieldsV1).toEqual({
      "f:status": { "f:observedGeneration": {} },
    });
  });
});
