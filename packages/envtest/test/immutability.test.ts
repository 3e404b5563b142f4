/** Updates kube-apiserver refuses: immutable fields, with kube's messages. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

const merge = (path: string, body: object) =>
  api(env, "PATCH", path, body, { contentType: "application/merge-patch+json" });
const ns = "/api/v1/namespaces/default";

describe("immutable fields", () => {
  it("refuses a new workload selector", async () => {
    await kubectl(env, ["create", "deployment", "web", "--image=nginx"]);
    const r = await kubectl(env, [
      "patch",
      "deployment",
      "web",
      "--type=merge",
      "-p",
      '{"spec":{"selector":{"matchLabels":{"app":"other"}},"template":{"metadata":{"labels":{"app":"other"}}}}}',
    ]);
    expect(r.stderr.trim()).toBe(
      'The Deployment "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it("lets a pod change only its images, tolerations and deadline", async () => {
    await api(env, "POST", `${ns}/pods`, {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "busybox:1" }] },
    });
    // A strategic merge patch (kubectl set image) keeps the token volume mount admission added.
    const image = await api(
      env,
      "PATCH",
      `${ns}/pods/p`,
      { spec: { containers: [{ name: "c", image: "busybox:2" }] } },
      { contentType: "application/strategic-merge-patch+json" },
    );
    expect(image.status).toBe(200);
    const r = await api(
      env,
      "PATCH",
      `${ns}/pods/p`,
      [{ op: "add", path: "/spec/containers/0/command", value: ["sh"] }],
      {
        contentType: "application/json-patch+json",
      },
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    const tolerations = (await api(env, "GET", `${ns}/pods/p`)).body.spec.tolerations;
    const added = await merge(`${ns}/pods/p`, {
      spec: { tolerations: [...tolerations, { key: "k", operator: "Exists" }] },
    });
    expect(added.status).toBe(200);
  });

  it("keeps immutable ConfigMaps and Secrets and a Secret's type", async () => {
    await api(env, "POST", `${ns}/configmaps`, {
      metadata: { name: "frozen" },
      data: { a: "1" },
      immutable: true,
    });
    const r = await merge(`${ns}/configmaps/frozen`, { data: { a: "2" } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    await api(env, "POST", `${ns}/secrets`, { metadata: { name: "s" }, type: "Opaque" });
    const t = await merge(`${ns}/secrets/s`, { type: "kubernetes.io/tls" });
    expect(t.body.message).toBe(
      'Secret "s" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable',
    );
  });

  it("refuses spec changes of PVCs, StatefulSets and Jobs", async () => {
    await api(env, "POST", `${ns}/persistentvolumeclaims`, {
      metadata: { name: "data" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    // Only a bound claim may resize (pvc-validation.test.ts); this one is not bound.
    expect(
      (
        await merge(`${ns}/persistentvolumeclaims/data`, {
          spec: { resources: { requests: { storage: "2Gi" } } },
        })
      ).status,
    ).toBe(422);
    const pvc = await merge(`${ns}/persistentvolumeclaims/data`, {
      spec: { accessModes: ["ReadWriteMany"] },
    });
    expect(pvc.body.message).toBe(
      'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
    const labels = { app: "db" };
    await api(env, "POST", "/apis/apps/v1/namespaces/default/statefulsets", {
      metadata: { name: "db" },
      spec: {
        serviceName: "db",
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "x" }] } },
      },
    });
    const sts = await merge("/apis/apps/v1/namespaces/default/statefulsets/db", {
      spec: { serviceName: "other" },
    });
    expect(sts.body.message).toBe(
      "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
    await kubectl(env, ["create", "job", "once", "--image=busybox"]);
    const job = await kubectl(env, ["set", "image", "job/once", "once=busybox:2"]);
    expect(job.stderr).toContain('Job.batch "once" is invalid: spec.template: Invalid value:');
    expect(job.stderr).toContain("field is immutable");
  });
});
