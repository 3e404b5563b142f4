// kube-controller-manager's root CA publisher as tests see it (issue 14, item 8): every namespace
// has the ConfigMap `kube-root-ca.crt` with the CA that clients use to verify the API server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

let env: TestEnv;
/** The CA the kubeconfig tells clients to trust. */
let kubeconfigCa: string;
beforeAll(async () => {
  env = await startTestEnv();
  const caData = env.kubeconfig.getCurrentCluster()?.caData ?? "";
  kubeconfigCa = Buffer.from(caData, "base64").toString();
});
afterAll(async () => {
  await env?.stop();
});

const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

describe("kube-root-ca.crt", () => {
  it("is published in the namespaces every cluster has, with the kubeconfig's CA", async () => {
    expect(kubeconfigCa).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n/);
    for (const ns of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      const r = await api(env, "GET", path(ns));
      expect(r.status, ns).toBe(200);
      expect(r.body.data, ns).toEqual({ "ca.crt": kubeconfigCa });
      expect(r.body.metadata.annotations).toEqual({ "kubernetes.io/description": DESCRIPTION });
      // Written by kube-controller-manager, as its managed fields say on a cluster.
      expect(r.body.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual([
        "kube-controller-manager",
      ]);
    }
  });

  it("is created with a new namespace and is what `kubectl get cm` shows there", async () => {
    const created = await kubectl(env, ["create", "namespace", "ca-team"]);
    expect(created.code, created.stderr).toBe(0);
    await eventually(async () => {
      const r = await kubectl(env, [
        "get",
        "configmap",
        "kube-root-ca.crt",
        "-n",
        "ca-team",
        "-o",
        "jsonpath={.data.ca\\.crt}",
      ]);
      expect(r.code, r.stderr).toBe(0);
      // The helper drops output's final newline, as a shell's $(...) would.
      expect(r.stdout).toBe(kubeconfigCa.replace(/\r?\n$/, ""));
    });
    const listed = await kubectl(env, ["get", "cm", "-n", "ca-team", "-o", "name"]);
    expect(listed.stdout.trim()).toBe("configmap/kube-root-ca.crt");
  });

  it("is created again when deleted", async () => {
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "ca-deleted" } });
    await eventually(async () =>
      expect((await api(env, "GET", path("ca-deleted"))).status).toBe(200),
    );
    const before = (await api(env, "GET", path("ca-deleted"))).body.metadata.uid;
    const deleted = await kubectl(env, ["delete", "cm", "kube-root-ca.crt", "-n", "ca-deleted"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    await eventually(async () => {
      const r = await api(env, "GET", path("ca-deleted"));
      expect(r.status).toBe(200);
      expect(r.body.metadata.uid).not.toBe(before);
      expect(r.body.data).toEqual({ "ca.crt": kubeconfigCa });
    });
  });

  it("has its data and description synced back when a client changes them, other edits kept", async () => {
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "ca-edited" } });
    await eventually(async () =>
      expect((await api(env, "GET", path("ca-edited"))).status).toBe(200),
    );
    const patched = await api(
      env,
      "PATCH",
      path("ca-edited"),
      {
        metadata: {
          labels: { team: "a" },
          annotations: { "kubernetes.io/description": null, note: "mine" },
        },
        data: { "ca.crt": "not a CA", extra: "x" },
      },
      { contentType: "application/merge-patch+json" },
    );
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const r = await api(env, "GET", path("ca-edited"));
      expect(r.body.data).toEqual({ "ca.crt": kubeconfigCa });
      expect(r.body.metadata.annotations).toEqual({
        "kubernetes.io/description": DESCRIPTION,
        note: "mine",
      });
      expect(r.body.metadata.labels).toEqual({ team: "a" });
    });
  });

  it("is not created in a terminating namespace", async () => {
    await api(env, "POST", "/api/v1/namespaces", {
      metadata: { name: "ca-ending" },
      spec: { finalizers: ["example.com/hold"] },
    });
    await eventually(async () =>
      expect((await api(env, "GET", path("ca-ending"))).status).toBe(200),
    );
    // The spec finalizer keeps the namespace Terminating once its contents are gone.
    expect((await api(env, "DELETE", "/api/v1/namespaces/ca-ending")).status).toBe(200);
    await eventually(async () => {
      const ns = await api(env, "GET", "/api/v1/namespaces/ca-ending");
      expect(ns.body.status.phase).toBe("Terminating");
      expect((await api(env, "GET", path("ca-ending"))).status).toBe(404);
    });
    // A later event for it (deleting it again) does not bring it back either.
    await api(env, "DELETE", path("ca-ending"));
    await new Promise((r) => setImmediate(r));
    expect((await api(env, "GET", path("ca-ending"))).status).toBe(404);
  });
});
