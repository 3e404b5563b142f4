/**
 * The checks of the Pod Security Standards as kube-apiserver 1.32 runs them
 * (`k8s.io/pod-security-admission/policy/check_*.go`): one function per check revision, with the
 * ForbiddenReason and ForbiddenDetail texts kube returns. A check reads the pod's (or template's)
 * metadata and spec as JSON; every container means init, regular and ephemeral containers, in
 * that order.
 */
import { isObject, type JsonObject } from "../../../api/types.js";
import {
  containers,
  goQuote,
  joinQuote,
  pluralize,
  sortedSet,
  type Violation,
} from "./messages.js";

export interface PodView {
  annotations: Record<string, string>;
  spec: JsonObject;
}

export type CheckFn = (pod: PodView) => Violation | undefined;

const obj = (v: unknown): JsonObject | undefined => (isObject(v) ? (v as JsonObject) : undefined);
const list = (v: unknown): JsonObject[] =>
  Array.isArray(v) ? (v.filter(isObject) as JsonObject[]) : [];

interface ContainerView {
  name: string;
  c: JsonObject;
  /** securityContext, when set. */
  sc: JsonObject | undefined;
}

function allContainers(spec: JsonObject): ContainerView[] {
  return ["initContainers", "containers", "ephemeralContainers"].flatMap((k) =>
    list(spec[k]).map((c) => ({ name: String(c.name ?? ""), c, sc: obj(c.securityContext) })),
  );
}

const podSc = (spec: JsonObject) => obj(spec.securityContext);
const isWindows = (spec: JsonObject) => obj(spec.os)?.name === "windows";

/** From 1.25 the restricted checks that only concern Linux pass a pod with `os.name: windows`. */
const exceptWindows =
  (check: CheckFn): CheckFn =>
  (pod) =>
    isWindows(pod.spec) ? undefined : check(pod);

// --- baseline ---------------------------------------------------------------------------------

const APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";

export const appArmorProfile_1_0: CheckFn = ({ annotations, spec }) => {
  const allowedType = (t: unknown) => t === "RuntimeDefault" || t === "Localhost";
  const setters: string[] = [];
  const values = new Set<string>();
  const podProfile = obj(podSc(spec)?.appArmorProfile);
  if (podProfile && !allowedType(podProfile.type)) {
    setters.push("pod");
    values.add(String(podProfile.type ?? ""));
  }
  const bad: string[] = [];
  for (const { name, sc } of allContainers(spec)) {
    const profile = obj(sc?.appArmorProfile);
    if (profile && !allowedType(profile.type)) {
      bad.push(name);
      values.add(String(profile.type ?? ""));
    }
  }
  if (bad.length) setters.push(containers(bad));
  const annotated = Object.entries(annotations)
    .filter(
      ([k, v]) =>
        k.startsWith(APPARMOR_ANNOTATION) &&
        !(v === "" || v === "runtime/default" || v.startsWith("localhost/")),
    )
    .map(([k, v]) => `${k}=${goQuote(v)}`)
    .sort();
  const badValues = [...sortedSet(values), ...annotated];
  if (annotated.length) setters.push(pluralize("annotation", "annotations", annotated.length));
  if (!setters.length) return undefined;
  return {
    reason: pluralize(
      "forbidden AppArmor profile",
      "forbidden AppArmor profiles",
      badValues.length,
    ),
    detail: `${setters.join(" and ")} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  };
};

const BASELINE_CAPABILITIES = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

const added = (sc: JsonObject | undefined): string[] =>
  ((obj(sc?.capabilities)?.add ?? []) as unknown[]).map(String);

export const capabilitiesBaseline_1_0: CheckFn = ({ spec }) => {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const { name, sc } of allContainers(spec)) {
    const extra = added(sc).filter((c) => !BASELINE_CAPABILITIES.has(c));
    if (extra.length) {
      bad.push(name);
      for (const c of extra) caps.add(c);
    }
  }
  return bad.length
    ? {
        reason: "non-default capabilities",
        detail: `${containers(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
      }
    : undefined;
};

export const hostNamespaces_1_0: CheckFn = ({ spec }) => {
  const set = ["hostNetwork", "hostPID", "hostIPC"].filter((k) => spec[k] === true);
  return set.length
    ? { reason: "host namespaces", detail: set.map((k) => `${k}=true`).join(", ") }
    : undefined;
};

export const hostPathVolumes_1_0: CheckFn = ({ spec }) => {
  const bad = list(spec.volumes)
    .filter((v) => obj(v.hostPath))
    .map((v) => String(v.name ?? ""));
  return bad.length
    ? {
        reason: "hostPath volumes",
        detail: `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad)}`,
      }
    : undefined;
};

export const hostPorts_1_0: CheckFn = ({ spec }) => {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const { name, c } of allContainers(spec)) {
    const used = list(c.ports)
      .map((p) => p.hostPort)
      .filter((p) => typeof p === "number" && p !== 0);
    if (used.length) {
      bad.push(name);
      for (const p of used) ports.add(String(p));
    }
  }
  if (!bad.length) return undefined;
  return {
    reason: "hostPort",
    detail: `${containers(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("hostPort", "hostPorts", ports.size)} ${sortedSet(ports).join(", ")}`,
  };
};

export const privileged_1_0: CheckFn = ({ spec }) => {
  const bad = allContainers(spec)
    .filter(({ sc }) => sc?.privileged === true)
    .map((c) => c.name);
  return bad.length
    ? {
        reason: "privileged",
        detail: `${containers(bad)} must not set securityContext.privileged=true`,
      }
    : undefined;
};

export const procMount_1_0: CheckFn = ({ spec }) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const { name, sc } of allContainers(spec)) {
    const t = sc?.procMount;
    if (t !== undefined && t !== null && t !== "Default") {
      bad.push(name);
      types.add(String(t));
    }
  }
  return bad.length
    ? {
        reason: "procMount",
        detail: `${containers(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
      }
    : undefined;
};

function seLinuxOptions(allowedTypes: ReadonlySet<string>): CheckFn {
  return ({ spec }) => {
    const badTypes = new Set<string>();
    let setUser = false;
    let setRole = false;
    const valid = (o: JsonObject) => {
      let ok = true;
      const type = String(o.type ?? "");
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.add(type);
      }
      if (o.user) {
        ok = false;
        setUser = true;
      }
      if (o.role) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const setters: string[] = [];
    const podOpts = obj(podSc(spec)?.seLinuxOptions);
    if (podOpts && !valid(podOpts)) setters.push("pod");
    const bad = allContainers(spec)
      .filter(({ sc }) => {
        const o = obj(sc?.seLinuxOptions);
        return o !== undefined && !valid(o);
      })
      .map((c) => c.name);
    if (bad.length) setters.push(containers(bad));
    if (!setters.length) return undefined;
    const data: string[] = [];
    if (badTypes.size)
      data.push(`${pluralize("type", "types", badTypes.size)} ${joinQuote(sortedSet(badTypes))}`);
    if (setUser) data.push("user may not be set");
    if (setRole) data.push("role may not be set");
    return {
      reason: "seLinuxOptions",
      detail: `${setters.join(" and ")} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
    };
  };
}

const SELINUX_TYPES_1_0 = ["", "container_t", "container_init_t", "container_kvm_t"];
export const seLinuxOptions_1_0 = seLinuxOptions(new Set(SELINUX_TYPES_1_0));
export const seLinuxOptions_1_31 = seLinuxOptions(
  new Set([...SELINUX_TYPES_1_0, "container_engine_t"]),
);

const SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_ANNOTATION = "container.seccomp.security.alpha.kubernetes.io/";

/** Policies before 1.19 read the seccomp annotations the field replaced. */
export const seccompProfileBaseline_1_0: CheckFn = ({ annotations, spec }) => {
  const valid = (v: string) =>
    v === "runtime/default" || v === "docker/default" || v.startsWith("localhost/");
  const forbidden = new Set<string>();
  const podValue = annotations[SECCOMP_POD_ANNOTATION];
  if (podValue !== undefined && !valid(podValue))
    forbidden.add(`${SECCOMP_POD_ANNOTATION}=${goQuote(podValue)}`);
  for (const { name } of allContainers(spec)) {
    const key = SECCOMP_CONTAINER_ANNOTATION + name;
    const v = annotations[key];
    if (v !== undefined && !valid(v)) forbidden.add(`${key}=${goQuote(v)}`);
  }
  return forbidden.size
    ? {
        reason: "seccompProfile",
        detail: `forbidden ${pluralize("annotation", "annotations", forbidden.size)} ${sortedSet(forbidden).join(", ")}`,
      }
    : undefined;
};

const validSeccomp = (t: unknown) => t === "RuntimeDefault" || t === "Localhost";

/** The pod and containers that set seccompProfile.type to something else, and the values. */
function explicitSeccomp(spec: JsonObject) {
  const setters: string[] = [];
  const values = new Set<string>();
  const podProfile = obj(podSc(spec)?.seccompProfile);
  if (podProfile && !validSeccomp(podProfile.type)) {
    setters.push("pod");
    values.add(String(podProfile.type ?? ""));
  }
  const bad: string[] = [];
  const unset: string[] = [];
  for (const { name, sc } of allContainers(spec)) {
    const profile = obj(sc?.seccompProfile);
    if (!profile) unset.push(name);
    else if (!validSeccomp(profile.type)) {
      bad.push(name);
      values.add(String(profile.type ?? ""));
    }
  }
  if (bad.length) setters.push(containers(bad));
  const podSet = podProfile !== undefined && validSeccomp(podProfile.type);
  const violation: Violation | undefined = setters.length
    ? {
        reason: "seccompProfile",
        detail: `${setters.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
      }
    : undefined;
  return { violation, unset: podSet ? [] : unset };
}

export const seccompProfileBaseline_1_19: CheckFn = ({ spec }) => explicitSeccomp(spec).violation;

const SYSCTLS_1_0 = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, "net.ipv4.ip_local_reserved_ports"];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

function sysctls(allowed: readonly string[]): CheckFn {
  const safe = new Set(allowed);
  return ({ spec }) => {
    const bad = list(podSc(spec)?.sysctls)
      .map((s) => String(s.name ?? ""))
      .filter((n) => !safe.has(n));
    return bad.length ? { reason: "forbidden sysctls", detail: bad.join(", ") } : undefined;
  };
}
export const sysctls_1_0 = sysctls(SYSCTLS_1_0);
export const sysctls_1_27 = sysctls(SYSCTLS_1_27);
export const sysctls_1_29 = sysctls(SYSCTLS_1_29);
export const sysctls_1_32 = sysctls(SYSCTLS_1_32);

export const windowsHostProcess_1_0: CheckFn = ({ spec }) => {
  const hostProcess = (sc: JsonObject | undefined) => obj(sc?.windowsOptions)?.hostProcess === true;
  const setters: string[] = [];
  if (hostProcess(podSc(spec))) setters.push("pod");
  const bad = allContainers(spec)
    .filter(({ sc }) => hostProcess(sc))
    .map((c) => c.name);
  if (bad.length) setters.push(containers(bad));
  return setters.length
    ? {
        reason: "hostProcess",
        detail: `${setters.join(" and ")} must not set securityContext.windowsOptions.hostProcess=true`,
      }
    : undefined;
};

// --- restricted -------------------------------------------------------------------------------

export const allowPrivilegeEscalation_1_8: CheckFn = ({ spec }) => {
  const bad = allContainers(spec)
    .filter(({ sc }) => sc?.allowPrivilegeEscalation !== false)
    .map((c) => c.name);
  return bad.length
    ? {
        reason: "allowPrivilegeEscalation != false",
        detail: `${containers(bad)} must set securityContext.allowPrivilegeEscalation=false`,
      }
    : undefined;
};
export const allowPrivilegeEscalation_1_25 = exceptWindows(allowPrivilegeEscalation_1_8);

export const capabilitiesRestricted_1_22: CheckFn = ({ spec }) => {
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps = new Set<string>();
  for (const { name, sc } of allContainers(spec)) {
    const capabilities = obj(sc?.capabilities);
    if (!capabilities) {
      missingDropAll.push(name);
      continue;
    }
    if (!((capabilities.drop ?? []) as unknown[]).includes("ALL")) missingDropAll.push(name);
    const extra = added(sc).filter((c) => c !== "NET_BIND_SERVICE");
    if (extra.length) {
      adding.push(name);
      for (const c of extra) caps.add(c);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length)
    details.push(
      `${containers(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`,
    );
  if (adding.length)
    details.push(
      `${containers(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
    );
  return details.length
    ? { reason: "unrestricted capabilities", detail: details.join("; ") }
    : undefined;
};
export const capabilitiesRestricted_1_25 = exceptWindows(capabilitiesRestricted_1_22);

/** Volume sources in the order kube names a restricted one; the allowed ones come first. */
const ALLOWED_VOLUMES = [
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
];
const RESTRICTED_VOLUMES = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "nfs",
  "iscsi",
  "glusterfs",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "fc",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "storageos",
];

export const restrictedVolumes_1_0: CheckFn = ({ spec }) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of list(spec.volumes)) {
    if (ALLOWED_VOLUMES.some((k) => obj(v[k]))) continue;
    bad.push(String(v.name ?? ""));
    // 1.32 has no case for `image` volumes (allowed from 1.33): they are "unknown" here.
    types.add(RESTRICTED_VOLUMES.find((k) => obj(v[k])) ?? "unknown");
  }
  if (!bad.length) return undefined;
  return {
    reason: "restricted volume types",
    detail: `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("restricted volume type", "restricted volume types", types.size)} ${joinQuote(sortedSet(types))}`,
  };
};

export const runAsNonRoot_1_0: CheckFn = ({ spec }) => {
  const setters: string[] = [];
  const pod = podSc(spec)?.runAsNonRoot;
  if (pod === false) setters.push("pod");
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const { name, sc } of allContainers(spec)) {
    const v = sc?.runAsNonRoot;
    if (v === true || v === false) {
      if (v === false) explicitlyBad.push(name);
    } else if (pod !== true) implicitlyBad.push(name);
  }
  if (explicitlyBad.length) setters.push(containers(explicitlyBad));
  if (setters.length)
    return {
      reason: "runAsNonRoot != true",
      detail: `${setters.join(" and ")} must not set securityContext.runAsNonRoot=false`,
    };
  if (implicitlyBad.length)
    return {
      reason: "runAsNonRoot != true",
      detail: `pod or ${containers(implicitlyBad)} must set securityContext.runAsNonRoot=true`,
    };
  return undefined;
};

export const runAsUser_1_23: CheckFn = ({ spec }) => {
  const setters: string[] = [];
  if (podSc(spec)?.runAsUser === 0) setters.push("pod");
  const bad = allContainers(spec)
    .filter(({ sc }) => sc?.runAsUser === 0)
    .map((c) => c.name);
  if (bad.length) setters.push(containers(bad));
  return setters.length
    ? { reason: "runAsUser=0", detail: `${setters.join(" and ")} must not set runAsUser=0` }
    : undefined;
};

export const seccompProfileRestricted_1_19: CheckFn = ({ spec }) => {
  const { violation, unset } = explicitSeccomp(spec);
  if (violation) return violation;
  return unset.length
    ? {
        reason: "seccompProfile",
        detail: `pod or ${containers(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      }
    : undefined;
};
export const seccompProfileRestricted_1_25 = exceptWindows(seccompProfileRestricted_1_19);
