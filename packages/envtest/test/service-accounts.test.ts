// kube-controller-manager's ServiceAccount controller as tests see it (issue 14, item 8): every
// namespace has its `default` ServiceAccount, the system namespaces included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

describe("the default ServiceAccount", () => {
  it("exists in the namespaces every cluster has", async () => {
    for (const ns of ["default", "kube-system", "kube-public"]) {
      const r = await api(env, "GET", `/api/v1/namespaces/${ns}/serviceaccounts/default`);
      expect(r.status, ns).toBe(200);
    }
  });

  it("is created with a new namespace, and again when deleted", async () => {
    const created = await kubectl(env, ["create", "namespace", "team-a"]);
    expect(created.code, created.stderr).toBe(0);
    await eventually(async () => {
      const r = await kubectl(env, [
        "get",
        "serviceaccount",
        "default",
        "-n",
        "team-a",
        "-o",
        "name",
      ]);
      expect(r.stdout.trim()).toBe("serviceaccount/default");
    });
    const deleted = await api(env, "DELETE", "/api/v1/namespaces/team-a/serviceaccounts/default");
    expect(deleted.status).toBe(200);
    await eventually(async () => {
      const r = await api(env, "GET", "/api/v1/namespaces/team-a/serviceaccounts/default");
      expect(r.status).toBe(200);
    });
  });
});
