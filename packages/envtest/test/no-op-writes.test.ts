/**
 * Writes that change nothing change nothing, and built-ins keep Go's shape: no stored empty maps
 * or lists, no new resourceVersion for a no-op apply or patch, managers lose the fields a write
 * removes, and server-side apply keys list items with defaulted key fields as kube does.
 */
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

const manifests = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
        ports: [{containerPort: 80}]
`;

const rv = async (path: string) => (await api(env, "GET", path)).body.metadata.resourceVersion;
const svc = "/api/v1/namespaces/default/services/web";
const deploy = "/apis/apps/v1/namespaces/default/deployments/web";

describe("no-op writes", () => {
  it("re-applies Services and Deployments server-side without a change, and diffs empty", async () => {
    expect((await kubectl(env, ["apply", "--server-side", "-f", "-"], manifests)).stdout).toBe(
      "service/web serverside-applied\ndeployment.apps/web serverside-applied",
    );
    const before = [await rv(svc), await rv(deploy)];
    const again = await kubectl(env, ["apply", "--server-side", "-f", "-"], manifests);
    expect(again.stderr).toBe("");
    expect([await rv(svc), await rv(deploy)]).toEqual(before);
    expect(await kubectl(env, ["diff", "--server-side", "-f", "-"], manifests)).toMatchObject({
      code: 0,
      stdout: "",
    });
    // The defaulted protocol is part of the key: the port stays one item.
    const ports = (await api(env, "GET", deploy)).body.spec.template.spec.containers[0].ports;
    expect(ports).toEqual([{ containerPort: 80, protocol: "TCP" }]);
    const withProtocol = manifests.replace(
      "ports: [{containerPort: 80}]",
      "ports: [{containerPort: 80, protocol: TCP}]",
    );
    await kubectl(env, ["apply", "--server-side", "-f", "-"], withProtocol);
    expect((await api(env, "GET", deploy)).body.spec.template.spec.containers[0].ports).toEqual(
      ports,
    );
  });

  it("stores no empty maps and bumps no resourceVersion for a patch that changes nothing", async () => {
    await kubectl(env, ["label", "service", "web", "tier=front"]);
    const labelled = (await api(env, "GET", svc)).body;
    expect(labelled.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain(
      "kubectl-label",
    );
    await kubectl(env, ["label", "service", "web", "tier-"]);
    const unlabelled = (await api(env, "GET", svc)).body;
    expect(unlabelled.metadata).not.toHaveProperty("labels");
    // The label's only manager owns nothing any more, so its entry is gone.
    expect(
      unlabelled.metadata.managedFields.map((m: { manager: string }) => m.manager),
    ).not.toContain("kubectl-label");
    const r = await kubectl(env, [
      "patch",
      "service",
      "web",
      "--type=merge",
      "-p",
      '{"metadata":{"labels":{}}}',
    ]);
    expect(r.stdout).toBe("service/web patched (no change)");
    expect(await rv(svc)).toBe(unlabelled.metadata.resourceVersion);
    const cm = await api(env, "POST", "/api/v1/namespaces/default/configmaps", {
      metadata: { name: "empty", annotations: {}, labels: {} },
      data: {},
    });
    expect(cm.body.metadata).not.toHaveProperty("annotations");
    expect(cm.body.metadata).not.toHaveProperty("labels");
    expect(cm.body).not.toHaveProperty("data");
  });
});
