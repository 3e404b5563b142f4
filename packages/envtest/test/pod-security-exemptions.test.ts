/** The PodSecurity admission configuration: a default policy and exemptions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({
    podSecurity: {
      defaults: { enforce: "baseline", warn: "restricted", "warn-version": "v1.24" },
      exemptions: { usernames: ["ci-bot"], runtimeClasses: ["kata"], namespaces: ["tools"] },
    },
  });
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "plain" } });
});
afterAll(async () => {
  await env?.stop();
});

const privilegedPod = (name: string, spec: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: {
    ...spec,
    containers: [{ name: "app", image: "nginx", securityContext: { privileged: true } }],
  },
});

describe("Pod Security admission configuration", () => {
  it("applies the default policy to namespaces without labels", async () => {
    const r = await kubectl(env, ["run", "root", "--image=nginx", "-n", "plain", "--privileged"]);
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): pods "root" is forbidden: violates PodSecurity "baseline:latest": privileged (container "root" must not set securityContext.privileged=true)',
    );
    const plain = await kubectl(env, ["run", "web", "--image=nginx", "-n", "plain"]);
    expect(plain.stdout).toBe("pod/web created");
    expect(plain.stderr.trim()).toBe(
      'Warning: would violate PodSecurity "restricted:v1.24": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it("exempts the configured usernames, runtime classes and namespaces", async () => {
    const asBot = await api(
      env,
      "POST",
      "/api/v1/namespaces/plain/pods",
      privilegedPod("from-bot"),
      { token: env.tokenFor("ci-bot", ["system:masters"]) },
    );
    expect(asBot.status).toBe(201);
    expect(asBot.headers.warning).toBeUndefined();
    const asOther = await api(
      env,
      "POST",
      "/api/v1/namespaces/plain/pods",
      privilegedPod("from-other"),
      { token: env.tokenFor("someone", ["system:masters"]) },
    );
    expect(asOther.status).toBe(403);

    const sandboxed = await api(
      env,
      "POST",
      "/api/v1/namespaces/plain/pods",
      privilegedPod("sandboxed", { runtimeClassName: "kata" }),
    );
    expect(sandboxed.status).toBe(201);

    // An exempt namespace's own policy labels are accepted, with kube's warning that they are moot.
    const tools = await kubectl(
      env,
      ["apply", "-f", "-"],
      `apiVersion: v1
kind: Namespace
metadata:
  name: tools
  labels:
    pod-security.kubernetes.io/enforce: restricted
`,
    );
    expect(tools.stdout).toBe("namespace/tools created");
    expect(tools.stderr.trim()).toBe(
      'Warning: namespace "tools" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored',
    );
    const inTools = await api(env, "POST", "/api/v1/namespaces/tools/pods", privilegedPod("debug"));
    expect(inTools.status).toBe(201);
  });

  it("refuses an invalid default as kube-apiserver refuses to start", async () => {
    await expect(
      startTestEnv({ podSecurity: { defaults: { "enforce-version": "1.25" } } }),
    ).rejects.toThrow('podSecurity.defaults.enforce-version: must be "latest" or "v1.x"');
  });
});
