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

describe("ServiceAccount admission of pods", () => {
  const pods = "/api/v1/namespaces/default/pods";
  const pod = (name: string, spec: object = {}) => ({
    metadata: { name },
    spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
  });

  it("runs pods as default with the projected token volume mounted", async () => {
    const r = await api(env, "POST", pods, pod("sa-default"));
    expect(r.status).toBe(201);
    const spec = r.body.spec;
    expect(spec).toMatchObject({ serviceAccountName: "default", serviceAccount: "default" });
    expect(spec.volumes).toHaveLength(1);
    const volume = spec.volumes[0];
    expect(volume.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(volume.projected).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        {
          downwardAPI: {
            items: [
              {
                path: "namespace",
                fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" },
              },
            ],
          },
        },
      ],
      defaultMode: 420,
    });
    expect(spec.containers[0].volumeMounts).toEqual([
      {
        name: volume.name,
        readOnly: true,
        mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
      },
    ]);
  });

  it("refuses an account that does not exist and honours automountServiceAccountToken", async () => {
    const missing = await api(env, "POST", pods, pod("sa-missing", { serviceAccountName: "nope" }));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe(
      'pods "sa-missing" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found',
    );
    const off = await api(
      env,
      "POST",
      pods,
      pod("sa-off", { automountServiceAccountToken: false }),
    );
    expect(off.body.spec).not.toHaveProperty("volumes");
    await api(env, "POST", "/api/v1/namespaces/default/serviceaccounts", {
      metadata: { name: "quiet" },
      automountServiceAccountToken: false,
    });
    const quiet = await api(env, "POST", pods, pod("sa-quiet", { serviceAccountName: "quiet" }));
    expect(quiet.body.spec.containers[0]).not.toHaveProperty("volumeMounts");
  });
});
