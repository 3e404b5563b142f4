/** Pod Security policy versions, check selection per level and version, and check wording. */
import { describe, expect, it } from "vitest";
import type { PodView } from "../src/admission/plugins/pod-security/checks.js";
import { forbiddenDetail } from "../src/admission/plugins/pod-security/messages.js";
import {
  checksFor,
  evaluatePod,
  MAX_POLICY_MINOR,
} from "../src/admission/plugins/pod-security/registry.js";
import {
  formatLevelVersion,
  LATEST,
  type Level,
  PRIVILEGED_POLICY,
  parseVersion,
  policyFromLabels,
  v1,
} from "../src/admission/plugins/pod-security/versions.js";

const L = "pod-security.kubernetes.io/";

function pod(spec: Record<string, unknown>, annotations: Record<string, string> = {}): PodView {
  return { annotations, spec };
}

/** What `violates PodSecurity "<lv>": ` is followed by, or "" when the pod passes. */
function detail(level: Level, version: string, p: PodView): string {
  const parsed = parseVersion(version);
  expect(parsed.error).toBeUndefined();
  return forbiddenDetail(evaluatePod({ level, version: parsed.version }, p));
}

const compliant = {
  name: "app",
  image: "nginx",
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    runAsNonRoot: true,
    seccompProfile: { type: "RuntimeDefault" },
  },
};

describe("policy versions", () => {
  it("parses latest and v1.<minor> and nothing else", () => {
    expect(parseVersion("latest")).toEqual({ version: LATEST });
    expect(parseVersion("v1.0")).toEqual({ version: v1(0) });
    expect(parseVersion("v1.25")).toEqual({ version: v1(25) });
    expect(parseVersion("v1.99")).toEqual({ version: v1(99) });
    for (const bad of ["1.25", "v1.025", "v2.0", "v1", "v1.x", "Latest", ""])
      expect(parseVersion(bad)).toEqual({ version: LATEST, error: 'must be "latest" or "v1.x"' });
  });

  it("prints a policy as kube does, the requested version unclamped", () => {
    expect(formatLevelVersion({ level: "restricted", version: v1(25) })).toBe("restricted:v1.25");
    expect(formatLevelVersion({ level: "baseline", version: v1(40) })).toBe("baseline:v1.40");
    expect(formatLevelVersion({ level: "baseline", version: LATEST })).toBe("baseline:latest");
  });

  it("warns at an explicitly set, stricter enforce level and its version unless warn is set", () => {
    const p = (labels: Record<string, string>) =>
      policyFromLabels(labels, PRIVILEGED_POLICY).policy;
    expect(formatLevelVersion(p({ [`${L}enforce`]: "restricted" }).warn)).toBe("restricted:latest");
    expect(
      formatLevelVersion(p({ [`${L}enforce`]: "baseline", [`${L}enforce-version`]: "v1.25" }).warn),
    ).toBe("baseline:v1.25");
    expect(
      formatLevelVersion(
        p({
          [`${L}enforce`]: "baseline",
          [`${L}enforce-version`]: "v1.25",
          [`${L}warn-version`]: "v1.20",
        }).warn,
      ),
    ).toBe("baseline:v1.20");
    expect(
      formatLevelVersion(p({ [`${L}enforce`]: "restricted", [`${L}warn`]: "privileged" }).warn),
    ).toBe("privileged:latest");
    // A version label alone changes no level.
    expect(p({ [`${L}enforce-version`]: "v1.25" }).enforce).toEqual({
      level: "privileged",
      version: v1(25),
    });
  });

  it("falls back on invalid labels (enforce closed, warn and audit open) and reports them", () => {
    const { policy, errors } = policyFromLabels(
      {
        [`${L}enforce`]: "strict",
        [`${L}enforce-version`]: "1.25",
        [`${L}audit`]: "loud",
        [`${L}warn`]: "Baseline",
      },
      PRIVILEGED_POLICY,
    );
    expect(policy.enforce).toEqual({ level: "restricted", version: LATEST });
    expect(policy.audit.level).toBe("privileged");
    // An enforce level that does not parse is not copied to warn.
    expect(policy.warn.level).toBe("privileged");
    expect(errors).toEqual([
      {
        type: "FieldValueInvalid",
        field: `metadata.labels[${L}enforce]`,
        value: "strict",
        detail: "must be one of privileged, baseline, restricted",
      },
      {
        type: "FieldValueInvalid",
        field: `metadata.labels[${L}enforce-version]`,
        value: "1.25",
        detail: 'must be "latest" or "v1.x"',
      },
      {
        type: "FieldValueInvalid",
        field: `metadata.labels[${L}audit]`,
        value: "loud",
        detail: "must be one of privileged, baseline, restricted",
      },
      {
        type: "FieldValueInvalid",
        field: `metadata.labels[${L}warn]`,
        value: "Baseline",
        detail: "must be one of privileged, baseline, restricted",
      },
    ]);
  });
});

describe("checks per level and version", () => {
  const ids = (level: Level, minor: number) =>
    checksFor({ level, version: v1(minor) }).map((c) => c.id);

  it("latest is the newest check revision (1.32), and newer versions evaluate as it", () => {
    expect(MAX_POLICY_MINOR).toBe(32);
    expect(checksFor({ level: "restricted", version: LATEST })).toEqual(
      checksFor({ level: "restricted", version: v1(40) }),
    );
  });

  it("runs baseline checks first, then restricted ones, minus the overridden baseline checks", () => {
    expect(ids("baseline", 32)).toEqual([
      "appArmorProfile",
      "capabilities_baseline",
      "hostNamespaces",
      "hostPathVolumes",
      "hostPorts",
      "privileged",
      "procMount",
      "seLinuxOptions",
      "seccompProfile_baseline",
      "sysctls",
      "windowsHostProcess",
    ]);
    expect(ids("restricted", 32)).toEqual([
      "appArmorProfile",
      "hostNamespaces",
      "hostPorts",
      "privileged",
      "procMount",
      "seLinuxOptions",
      "sysctls",
      "windowsHostProcess",
      "allowPrivilegeEscalation",
      "capabilities_restricted",
      "restrictedVolumes",
      "runAsNonRoot",
      "runAsUser",
      "seccompProfile_restricted",
    ]);
    expect(checksFor({ level: "privileged", version: LATEST })).toEqual([]);
  });

  it("restricted before 1.8 has neither privilege escalation, capabilities, runAsUser nor seccomp fields", () => {
    expect(ids("restricted", 7)).toEqual([
      "appArmorProfile",
      "capabilities_baseline",
      "hostNamespaces",
      "hostPorts",
      "privileged",
      "procMount",
      "seLinuxOptions",
      "seccompProfile_baseline",
      "sysctls",
      "windowsHostProcess",
      "restrictedVolumes",
      "runAsNonRoot",
    ]);
    const plain = pod({ containers: [{ name: "app", image: "nginx" }] });
    expect(detail("restricted", "v1.7", plain)).toBe(
      'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
    );
    expect(detail("restricted", "v1.18", plain)).toBe(
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
    );
    expect(detail("restricted", "v1.22", plain)).toBe(
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    const root = pod({ securityContext: { runAsUser: 0 }, containers: [compliant] });
    expect(detail("restricted", "v1.22", root)).toBe("");
    expect(detail("restricted", "v1.23", root)).toBe("runAsUser=0 (pod must not set runAsUser=0)");
  });

  it("reads the seccomp annotations before 1.19 and the field from 1.19", () => {
    const annotated = pod(
      { containers: [{ name: "app", image: "nginx" }] },
      {
        "seccomp.security.alpha.kubernetes.io/pod": "unconfined",
        "container.seccomp.security.alpha.kubernetes.io/app": "docker/default",
      },
    );
    expect(detail("baseline", "v1.18", annotated)).toBe(
      'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    expect(detail("baseline", "v1.19", annotated)).toBe("");
    const field = pod({
      securityContext: { seccompProfile: { type: "Unconfined" } },
      containers: [{ name: "app", image: "nginx" }],
    });
    expect(detail("baseline", "v1.18", field)).toBe("");
    expect(detail("baseline", "v1.19", field)).toBe(
      'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    );
  });

  it("grows the safe sysctls by version: 1.27, 1.29 and 1.32", () => {
    const sysctl = (name: string) =>
      pod({
        securityContext: { sysctls: [{ name, value: "1" }] },
        containers: [{ name: "app", image: "nginx" }],
      });
    const cases: [string, string, string][] = [
      ["net.ipv4.ip_local_reserved_ports", "v1.26", "v1.27"],
      ["net.ipv4.tcp_keepalive_time", "v1.28", "v1.29"],
      ["net.ipv4.tcp_fin_timeout", "v1.28", "v1.29"],
      ["net.ipv4.tcp_keepalive_intvl", "v1.28", "v1.29"],
      ["net.ipv4.tcp_keepalive_probes", "v1.28", "v1.29"],
      ["net.ipv4.tcp_rmem", "v1.31", "v1.32"],
      ["net.ipv4.tcp_wmem", "v1.31", "latest"],
    ];
    for (const [name, before, from] of cases) {
      expect(detail("baseline", before, sysctl(name))).toBe(`forbidden sysctls (${name})`);
      expect(detail("baseline", from, sysctl(name))).toBe("");
    }
    expect(detail("baseline", "v1.0", sysctl("kernel.shm_rmid_forced"))).toBe("");
    expect(
      detail(
        "baseline",
        "latest",
        pod({
          securityContext: {
            sysctls: [
              { name: "kernel.msgmax", value: "1" },
              { name: "net.ipv4.tcp_syncookies", value: "1" },
              { name: "net.core.somaxconn", value: "1" },
            ],
          },
          containers: [],
        }),
      ),
    ).toBe("forbidden sysctls (kernel.msgmax, net.core.somaxconn)");
  });

  it("allows the container_engine_t SELinux type from 1.31", () => {
    const p = pod({
      containers: [
        {
          name: "app",
          image: "x",
          securityContext: { seLinuxOptions: { type: "container_engine_t" } },
        },
      ],
    });
    expect(detail("baseline", "v1.30", p)).toBe(
      'seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
    );
    expect(detail("baseline", "v1.31", p)).toBe("");
  });

  it("exempts Windows pods from the Linux-only restricted checks from 1.25", () => {
    const windows = pod({
      os: { name: "windows" },
      securityContext: { runAsNonRoot: true },
      containers: [{ name: "app", image: "x" }],
    });
    expect(detail("restricted", "v1.24", windows)).toBe(
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect(detail("restricted", "v1.25", windows)).toBe("");
  });
});

describe("check wording", () => {
  it("AppArmor: the profile fields and the legacy annotations", () => {
    expect(
      detail(
        "baseline",
        "latest",
        pod({
          securityContext: { appArmorProfile: { type: "Unconfined" } },
          containers: [
            { name: "a", image: "x", securityContext: { appArmorProfile: { type: "Unconfined" } } },
            {
              name: "b",
              image: "x",
              securityContext: { appArmorProfile: { type: "Localhost", localhostProfile: "p" } },
            },
          ],
        }),
      ),
    ).toBe(
      'forbidden AppArmor profile (pod and container "a" must not set AppArmor profile type to "Unconfined")',
    );
    expect(
      detail(
        "baseline",
        "latest",
        pod(
          {
            containers: [
              { name: "a", image: "x" },
              { name: "b", image: "x" },
            ],
          },
          {
            "container.apparmor.security.beta.kubernetes.io/b": "unconfined",
            "container.apparmor.security.beta.kubernetes.io/a": "localhost/custom",
            "container.apparmor.security.beta.kubernetes.io/c": "runtime/default",
          },
        ),
      ),
    ).toBe(
      'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/b="unconfined"")',
    );
  });

  it("SELinux: types by the allow-list, user and role never", () => {
    expect(
      detail(
        "baseline",
        "latest",
        pod({
          securityContext: { seLinuxOptions: { type: "foo", user: "bar", role: "baz" } },
          containers: [
            { name: "a", image: "x", securityContext: { seLinuxOptions: { type: "container_t" } } },
            { name: "e", image: "x", securityContext: { seLinuxOptions: { type: "bar" } } },
            { name: "f", image: "x", securityContext: { seLinuxOptions: { user: "u" } } },
          ],
        }),
      ),
    ).toBe(
      'seLinuxOptions (pod and containers "e", "f" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set)',
    );
    expect(
      detail(
        "baseline",
        "latest",
        pod({ securityContext: { seLinuxOptions: { role: "r" } }, containers: [] }),
      ),
    ).toBe(
      "seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: role may not be set)",
    );
  });

  it("procMount, Windows host process, host ports and capabilities", () => {
    expect(
      detail(
        "baseline",
        "latest",
        pod({
          securityContext: { windowsOptions: { hostProcess: true } },
          initContainers: [
            {
              name: "init",
              image: "x",
              securityContext: { procMount: "Unmasked" },
              ports: [{ containerPort: 1, hostPort: 8080 }],
            },
          ],
          containers: [
            {
              name: "app",
              image: "x",
              securityContext: {
                procMount: "Default",
                windowsOptions: { hostProcess: true },
                capabilities: { add: ["SYS_ADMIN", "CHOWN", "NET_ADMIN", "SYS_ADMIN"] },
              },
              ports: [
                { containerPort: 2, hostPort: 443 },
                { containerPort: 3, hostPort: 80 },
              ],
            },
          ],
        }),
      ),
    ).toBe(
      'non-default capabilities (container "app" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add), hostPort (containers "init", "app" use hostPorts 443, 80, 8080), procMount (container "init" must not set securityContext.procMount to "Unmasked"), hostProcess (pod and container "app" must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });

  it("restricted volume types, runAsNonRoot and runAsUser as kube groups them", () => {
    expect(
      detail(
        "restricted",
        "latest",
        pod({
          securityContext: {
            runAsNonRoot: false,
            runAsUser: 0,
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              ...compliant,
              name: "a",
              securityContext: { ...compliant.securityContext, runAsNonRoot: false, runAsUser: 0 },
            },
            {
              ...compliant,
              name: "b",
              securityContext: { ...compliant.securityContext, runAsNonRoot: undefined },
            },
          ],
          volumes: [
            { name: "h", hostPath: { path: "/" } },
            { name: "n", nfs: { server: "s", path: "/" } },
            { name: "c", configMap: { name: "x" } },
            { name: "i", image: { reference: "img" } },
          ],
        }),
      ),
    ).toBe(
      'restricted volume types (volumes "h", "n", "i" use restricted volume types "hostPath", "nfs", "unknown"), runAsNonRoot != true (pod and container "a" must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod and container "a" must not set runAsUser=0)',
    );
  });
});
