/** Pod Security admission from namespace labels, with kube's messages. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
  await api(env, "POST", "/api/v1/namespaces", {
    metadata: { name: "locked", labels: { "pod-security.kubernetes.io/enforce": "restricted" } },
  });
  await api(env, "POST", "/api/v1/namespaces", {
    metadata: { name: "watched", labels: { "pod-security.kubernetes.io/warn": "baseline" } },
  });
});
afterAll(async () => {
  await env?.stop();
});

const restrictedContainer = {
  name: "app",
  image: "nginx",
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    runAsNonRoot: true,
    seccompProfile: { type: "RuntimeDefault" },
  },
};

describe("Pod Security admission", () => {
  it("refuses pods that violate the enforced level, naming every check", async () => {
    const r = await kubectl(env, ["run", "plain", "--image=nginx", "-n", "locked"]);
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): pods "plain" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    const ok = await api(env, "POST", "/api/v1/namespaces/locked/pods", {
      metadata: { name: "hardened" },
      spec: { containers: [restrictedContainer] },
    });
    expect(ok.status).toBe(201);
    const host = await api(env, "POST", "/api/v1/namespaces/locked/pods", {
      metadata: { name: "host" },
      spec: {
        hostNetwork: true,
        containers: [
          {
            ...restrictedContainer,
            securityContext: { ...restrictedContainer.securityContext, privileged: true },
          },
        ],
        volumes: [{ name: "root", hostPath: { path: "/" } }],
      },
    });
    expect(host.status).toBe(403);
    // Baseline checks first, then restricted ones; restrictedVolumes replaces the baseline
    // hostPathVolumes check under restricted, so the hostPath volume is named once.
    expect(host.body.message).toBe(
      'pods "host" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true), restricted volume types (volume "root" uses restricted volume type "hostPath")',
    );
  });

  it("warns for workloads whose pods would be refused, and at the warn level", async () => {
    const d = await kubectl(env, ["create", "deployment", "web", "--image=nginx", "-n", "locked"]);
    expect(d.stdout).toBe("deployment.apps/web created");
    expect(d.stderr).toContain(
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false)',
    );
    const pod = await api(env, "POST", "/api/v1/namespaces/watched/pods", {
      metadata: { name: "priv" },
      spec: {
        containers: [
          {
            name: "c",
            image: "x",
            securityContext: { privileged: true, capabilities: { add: ["NET_ADMIN"] } },
          },
        ],
      },
    });
    expect(pod.status).toBe(201);
    expect(pod.headers.warning).toBe(
      '299 - "would violate PodSecurity \\"baseline:latest\\": non-default capabilities (container \\"c\\" must not include \\"NET_ADMIN\\" in securityContext.capabilities.add), privileged (container \\"c\\" must not set securityContext.privileged=true)"',
    );
  });
});
