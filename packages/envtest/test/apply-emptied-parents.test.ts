/**
 * What kube 1.32 does with a map that server-side apply's removal empties: structured-merge-diff
 * (v4.4.2) leaves it `null`. A built-in decodes that as Go's nil (the field is gone); a custom
 * resource's apply result is not decoded again, so a non-nullable `null` fails validation
 * (kubernetes/kubernetes#117447), while a field nobody applied is simply removed.
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

const APPLY = { contentType: "application/apply-patch+yaml" };
const widgets = "/apis/example.com/v1/namespaces/default/widgets";
const widget = (name: string, spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name }, spec });

describe("maps that an apply's removal empties", () => {
  it("a custom resource's non-nullable map left null is refused with kube's 422", async () => {
    const first = await api(
      env,
      "PATCH",
      `${widgets}/emptied?fieldManager=m`,
      widget("emptied", { mode: "fast", settings: { a: "1" } }),
      APPLY,
    );
    expect(first.status).toBe(201);
    const r = await api(
      env,
      "PATCH",
      `${widgets}/emptied?fieldManager=m`,
      widget("emptied", { mode: "fast", settings: {} }),
      APPLY,
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Widget.example.com "emptied" is invalid: spec.settings: Invalid value: "null": spec.settings in body must be of type object: "null"',
    );
    const live = await api(env, "GET", `${widgets}/emptied`);
    expect(live.body.spec.settings).toEqual({ a: "1" });
  });

  it("a map the applier stops applying altogether is removed", async () => {
    const r = await api(
      env,
      "PATCH",
      `${widgets}/emptied?fieldManager=m`,
      widget("emptied", { mode: "fast" }),
      APPLY,
    );
    expect(r.status).toBe(200);
    expect(r.body.spec.settings).toBeUndefined();
  });

  it("a built-in's emptied map is Go's nil: the labels are gone", async () => {
    const path = "/api/v1/namespaces/default/configmaps/emptied";
    const cm = (labels: Record<string, string>) =>
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "emptied", labels },
      });
    expect((await api(env, "PATCH", `${path}?fieldManager=m`, cm({ a: "1" }), APPLY)).status).toBe(
      201,
    );
    const r = await api(env, "PATCH", `${path}?fieldManager=m`, cm({}), APPLY);
    expect(r.status).toBe(200);
    expect(r.body.metadata.labels).toBeUndefined();
    const entry = r.body.metadata.managedFields.find((e: { manager: string }) => e.manager === "m");
    expect(entry.fieldsV1).toEqual({ "f:metadata": { "f:labels": {} } });
  });
});
