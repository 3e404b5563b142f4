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
      spec: {
        containers: [restrictedContainer],
        volumes: [
          { name: "scratch", emptyDir: {} },
          { name: "claim", persistentVolumeClaim: { claimName: "data" } },
        ],
      },
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

  it("runs after validation, as a validating admission plugin", async () => {
    const r = await api(env, "POST", "/api/v1/namespaces/locked/pods", {
      metadata: { name: "imageless" },
      spec: { containers: [{ name: "app" }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Pod "imageless" is invalid: spec.containers[0].image: Required value',
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

function namespace(name: string, labels: Record<string, string>) {
  return api(env, "POST", "/api/v1/namespaces", { metadata: { name, labels } });
}

const tunedPod = (ns: string) => `apiVersion: v1
kind: Pod
metadata:
  name: tuned
  namespace: ${ns}
spec:
  securityContext:
    sysctls:
    - name: kernel.msgmax
      value: "65536"
    - name: net.ipv4.tcp_rmem
      value: "4096 87380 6291456"
  containers:
  - name: app
    image: nginx
`;

describe("Pod Security checks and policy versions", () => {
  it("refuses unsafe sysctls at baseline, with the safe list of the namespace's policy version", async () => {
    await namespace("base", { "pod-security.kubernetes.io/enforce": "baseline" });
    const latest = await kubectl(env, ["apply", "-f", "-"], tunedPod("base"));
    expect(latest.code).toBe(1);
    expect(latest.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "tuned" is forbidden: violates PodSecurity "baseline:latest": forbidden sysctls (kernel.msgmax)',
    );
    // net.ipv4.tcp_rmem joined the safe sysctls in policy version 1.32.
    await namespace("pinned", {
      "pod-security.kubernetes.io/enforce": "baseline",
      "pod-security.kubernetes.io/enforce-version": "v1.31",
    });
    const pinned = await kubectl(env, ["apply", "-f", "-"], tunedPod("pinned"));
    expect(pinned.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "tuned" is forbidden: violates PodSecurity "baseline:v1.31": forbidden sysctls (kernel.msgmax, net.ipv4.tcp_rmem)',
    );
    // A version past the newest policy evaluates as latest and is named as requested.
    await namespace("future", {
      "pod-security.kubernetes.io/enforce": "baseline",
      "pod-security.kubernetes.io/enforce-version": "v1.40",
    });
    const future = await kubectl(env, ["apply", "-f", "-"], tunedPod("future"));
    expect(future.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "tuned" is forbidden: violates PodSecurity "baseline:v1.40": forbidden sysctls (kernel.msgmax)',
    );
  });

  it("warns at the warn level and version", async () => {
    await namespace("warned", {
      "pod-security.kubernetes.io/warn": "baseline",
      "pod-security.kubernetes.io/warn-version": "v1.26",
    });
    const r = await api(env, "POST", "/api/v1/namespaces/warned/pods", {
      metadata: { name: "ports" },
      spec: {
        securityContext: {
          sysctls: [{ name: "net.ipv4.ip_local_reserved_ports", value: "30000" }],
        },
        containers: [{ name: "app", image: "nginx" }],
      },
    });
    expect(r.status).toBe(201);
    expect(r.headers.warning).toBe(
      '299 - "would violate PodSecurity \\"baseline:v1.26\\": forbidden sysctls (net.ipv4.ip_local_reserved_ports)"',
    );
  });

  it("checks AppArmor, SELinux, /proc mount and Windows host process at baseline", async () => {
    const r = await api(env, "POST", "/api/v1/namespaces/base/pods", {
      metadata: {
        name: "confined",
        annotations: { "container.apparmor.security.beta.kubernetes.io/app": "unconfined" },
      },
      spec: {
        securityContext: {
          appArmorProfile: { type: "Unconfined" },
          seLinuxOptions: { type: "spc_t" },
        },
        containers: [
          {
            name: "app",
            image: "nginx",
            securityContext: {
              procMount: "Unmasked",
              seLinuxOptions: { user: "system_u" },
              windowsOptions: { hostProcess: true },
            },
          },
        ],
      },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'pods "confined" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app="unconfined""), procMount (container "app" must not set securityContext.procMount to "Unmasked"), seLinuxOptions (pod and container "app" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), hostProcess (container "app" must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });
});

describe("AppArmor fields and legacy annotations", () => {
  it("syncs them on create as kube's pod strategy does, so Pod Security reports both", async () => {
    const field = await api(env, "POST", "/api/v1/namespaces/base/pods", {
      metadata: { name: "field-only" },
      spec: {
        containers: [
          {
            name: "app",
            image: "nginx",
            securityContext: { appArmorProfile: { type: "Unconfined" } },
          },
        ],
      },
    });
    expect(field.status).toBe(403);
    expect(field.body.message).toBe(
      'pods "field-only" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profiles (container "app" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app="unconfined"")',
    );
    const legacy = await kubectl(
      env,
      ["apply", "-f", "-"],
      `apiVersion: v1
kind: Pod
metadata:
  name: legacy
  namespace: watched
  annotations:
    container.apparmor.security.beta.kubernetes.io/app: unconfined
spec:
  containers:
  - name: app
    image: nginx
`,
    );
    expect(legacy.stdout).toBe("pod/legacy created");
    expect(legacy.stderr.trim().split("\n")).toEqual([
      'Warning: metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
      'Warning: would violate PodSecurity "baseline:latest": forbidden AppArmor profiles (container "app" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app="unconfined"")',
    ]);
    const stored = await kubectl(env, [
      "get",
      "pod",
      "legacy",
      "-n",
      "watched",
      "-o",
      "jsonpath={.spec.containers[0].securityContext.appArmorProfile.type}",
    ]);
    expect(stored.stdout).toBe("Unconfined");
  });
});

describe("Pod Security namespace labels", () => {
  it("refuses labels that do not parse, as kube-apiserver validates them", async () => {
    await namespace("open", {});
    const level = await kubectl(env, [
      "label",
      "namespace",
      "open",
      "pod-security.kubernetes.io/enforce=strict",
    ]);
    expect(level.code).toBe(1);
    expect(level.stderr.trim()).toBe(
      'The Namespace "open" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    const created = await api(env, "POST", "/api/v1/namespaces", {
      metadata: {
        name: "typo",
        labels: { "pod-security.kubernetes.io/warn-version": "1.25" },
      },
    });
    expect(created.status).toBe(422);
    expect(created.body.message).toBe(
      'Namespace "typo" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"',
    );
  });

  it("warns about the existing pods a tighter enforce level would refuse, and checks their updates", async () => {
    const plain = (name: string, extra: Record<string, unknown> = {}) =>
      api(env, "POST", "/api/v1/namespaces/open/pods", {
        metadata: { name },
        spec: { ...extra, containers: [{ name: "app", image: "nginx" }] },
      });
    expect((await plain("b")).status).toBe(201);
    expect((await plain("a")).status).toBe(201);
    expect((await plain("host", { hostNetwork: true })).status).toBe(201);
    expect(
      (
        await api(env, "POST", "/api/v1/namespaces/open/pods", {
          metadata: { name: "hardened" },
          spec: { containers: [restrictedContainer] },
        })
      ).status,
    ).toBe(201);
    const label = ["label", "namespace", "open", "pod-security.kubernetes.io/enforce=restricted"];
    const warnings = [
      'Warning: existing pods in namespace "open" violate the new PodSecurity enforce level "restricted:latest"',
      "Warning: a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
      "Warning: host: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
    ];
    // The documented way to preview a level: a server-side dry run.
    const preview = await kubectl(env, [...label, "--dry-run=server"]);
    expect(preview.stderr.trim().split("\n")).toEqual(warnings);
    expect(preview.stdout).toBe("namespace/open labeled (server dry run)");
    const applied = await kubectl(env, label);
    expect(applied.stderr.trim().split("\n")).toEqual(warnings);
    expect(applied.stdout).toBe("namespace/open labeled");
    // Relaxing, or re-applying the same level, checks nothing.
    const same = await kubectl(env, [...label, "--overwrite"]);
    expect(same.stderr).toBe("");

    // Existing pods stay; an update that changes what the checks see is checked.
    const relabel = await api(
      env,
      "PATCH",
      "/api/v1/namespaces/open/pods/a",
      { metadata: { labels: { tier: "web" } } },
      { contentType: "application/merge-patch+json" },
    );
    expect(relabel.status).toBe(200);
    const image = await kubectl(env, ["set", "image", "pod/a", "app=nginx:1.27", "-n", "open"]);
    expect(image.stderr.trim()).toBe(
      'error: failed to patch image update to pod template: pods "a" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });
});
