/**
 * Deployments keep their ReplicaSet history as kube-controller-manager does (simulate: true), so
 * `kubectl rollout status|history|undo|pause|resume|restart` behave as on a cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
});

const deploy = "/apis/apps/v1/namespaces/default/deployments/web";

async function rolledOut(): Promise<void> {
  const r = await kubectl(env, ["rollout", "status", "deployment/web", "--timeout=20s"]);
  expect(r.stdout).toContain('deployment "web" successfully rolled out');
}

async function history(): Promise<string[]> {
  const r = await kubectl(env, ["rollout", "history", "deployment/web"]);
  return r.stdout
    .split("\n")
    .slice(2)
    .map((l) => l.trim())
    .filter(Boolean);
}

const image = async () =>
  (await api(env, "GET", deploy)).body.spec.template.spec.containers[0].image;

describe("kubectl rollout", () => {
  it("records revisions, undoes to the previous one and to a given one", async () => {
    await kubectl(env, ["create", "deployment", "web", "--image=nginx:1.25"]);
    await rolledOut();
    await kubectl(env, ["set", "image", "deployment/web", "nginx=nginx:1.26"]);
    await rolledOut();
    await kubectl(env, ["annotate", "deployment/web", "kubernetes.io/change-cause=bump to 1.27"]);
    await kubectl(env, ["set", "image", "deployment/web", "nginx=nginx:1.27"]);
    await rolledOut();
    expect(await history()).toEqual([
      "1         <none>",
      "2         <none>",
      "3         bump to 1.27",
    ]);
    expect(
      (await api(env, "GET", deploy)).body.metadata.annotations[
        "deployment.kubernetes.io/revision"
      ],
    ).toBe("3");

    expect((await kubectl(env, ["rollout", "undo", "deployment/web"])).stdout).toBe(
      "deployment.apps/web rolled back",
    );
    await rolledOut();
    expect(await image()).toBe("nginx:1.26");
    // Revision 2's ReplicaSet is reused as revision 4.
    expect(await history()).toEqual([
      "1         <none>",
      "3         bump to 1.27",
      "4         <none>",
    ]);
    const rs = (await api(env, "GET", "/apis/apps/v1/namespaces/default/replicasets")).body.items;
    const reused = rs.find(
      (r: { metadata: { annotations: Record<string, string> } }) =>
        r.metadata.annotations["deployment.kubernetes.io/revision"] === "4",
    );
    expect(reused.metadata.annotations["deployment.kubernetes.io/revision-history"]).toBe("2");

    await kubectl(env, ["rollout", "undo", "deployment/web", "--to-revision=1"]);
    await rolledOut();
    expect(await image()).toBe("nginx:1.25");
  });

  it("pauses, resumes and restarts", async () => {
    await kubectl(env, ["rollout", "pause", "deployment/web"]);
    await kubectl(env, ["set", "image", "deployment/web", "nginx=nginx:1.28"]);
    await eventually(async () => {
      const d = (await api(env, "GET", deploy)).body;
      expect(d.status.conditions).toContainEqual(
        expect.objectContaining({
          type: "Progressing",
          status: "Unknown",
          reason: "DeploymentPaused",
        }),
      );
    });
    // Paused: the new template gets no ReplicaSet.
    const images = (
      await api(env, "GET", "/apis/apps/v1/namespaces/default/replicasets")
    ).body.items.map(
      (r: { spec: { template: { spec: { containers: { image: string }[] } } } }) =>
        r.spec.template.spec.containers[0]!.image,
    );
    expect(images).not.toContain("nginx:1.28");
    await kubectl(env, ["rollout", "resume", "deployment/web"]);
    await rolledOut();
    const pods = (await api(env, "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb"))
      .body.items;
    expect(
      pods
        .filter((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)
        .map((p: { spec: { containers: { image: string }[] } }) => p.spec.containers[0]!.image),
    ).toEqual(["nginx:1.28"]);
    await kubectl(env, ["rollout", "restart", "deployment/web"]);
    await rolledOut();
    const d = (await api(env, "GET", deploy)).body;
    expect(d.spec.template.metadata.annotations).toHaveProperty([
      "kubectl.kubernetes.io/restartedAt",
    ]);
  });

  it("keeps revisionHistoryLimit old ReplicaSets", async () => {
    await api(
      env,
      "PATCH",
      deploy,
      { spec: { revisionHistoryLimit: 1 } },
      { contentType: "application/merge-patch+json" },
    );
    await kubectl(env, ["set", "image", "deployment/web", "nginx=nginx:1.29"]);
    await rolledOut();
    await eventually(async () => {
      const rs = (await api(env, "GET", "/apis/apps/v1/namespaces/default/replicasets")).body.items;
      expect(
        rs.filter(
          (r: { metadata: { deletionTimestamp?: string } }) => !r.metadata.deletionTimestamp,
        ),
      ).toHaveLength(2);
    });
  });
});
