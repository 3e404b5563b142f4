/**
 * Pod Security admission (`k8s.io/pod-security-admission`, the "latest" policies of 1.32), from
 * a namespace's `pod-security.kubernetes.io/{enforce,warn,audit}` labels: a pod that violates
 * the enforce level is refused with kube's `violates PodSecurity "restricted:latest": ...`
 * message; the warn level answers with a `would violate PodSecurity` warning, for pods and for
 * the workloads whose templates would make such pods. Checks run in kube's order (by check ID)
 * with its wording. Not covered: Windows host process, AppArmor, SELinux, /proc mount and sysctl
 * checks, version-pinned policies (every version is evaluated as latest), exemptions.
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import { type JsonObject, type KubeObject, objectAt } from "../api/types.js";
import type { Store } from "../store/store.js";
import type { AdmissionHook } from "./admission.js";
import type { RequestScope } from "./scope.js";

type Level = "privileged" | "baseline" | "restricted";

const LEVELS: Record<string, number> = { privileged: 0, baseline: 1, restricted: 2 };
const BASELINE_CAPS = new Set([
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
const RESTRICTED_VOLUMES = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);

/** Where each workload kind keeps its pod template. */
const TEMPLATES: Record<string, (o: KubeObject) => unknown> = {
  "apps/deployments": (o) => objectAt(o.spec).template,
  "apps/replicasets": (o) => objectAt(o.spec).template,
  "apps/statefulsets": (o) => objectAt(o.spec).template,
  "apps/daemonsets": (o) => objectAt(o.spec).template,
  "batch/jobs": (o) => objectAt(o.spec).template,
  "batch/cronjobs": (o) => objectAt(objectAt(objectAt(o.spec).jobTemplate).spec).template,
  "/replicationcontrollers": (o) => objectAt(o.spec).template,
  "/podtemplates": (o) => o.template,
};

const RESOURCES = new Set(["pods", ...Object.keys(TEMPLATES).map((k) => k.split("/")[1]!)]);

function names(kind: string, list: string[]): string {
  const quoted = list.map((n) => JSON.stringify(n)).join(", ");
  return `${list.length === 1 ? kind : `${kind}s`} ${quoted}`;
}

interface Container {
  name: string;
  sc: JsonObject;
  c: JsonObject;
}

interface Check {
  id: string;
  level: Level;
  run(pod: JsonObject, containers: Container[]): string | undefined;
}

const checks: Check[] = [
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    run(_pod, cs) {
      const bad = cs.filter((c) => c.sc.allowPrivilegeEscalation !== false).map((c) => c.name);
      return bad.length
        ? `allowPrivilegeEscalation != false (${names("container", bad)} must set securityContext.allowPrivilegeEscalation=false)`
        : undefined;
    },
  },
  {
    id: "capabilities_baseline",
    level: "baseline",
    run(_pod, cs) {
      const bad: string[] = [];
      const caps = new Set<string>();
      for (const c of cs) {
        const add = (objectAt(c.sc.capabilities).add ?? []) as string[];
        const extra = add.filter((x) => !BASELINE_CAPS.has(x));
        if (extra.length) {
          bad.push(c.name);
          for (const x of extra) caps.add(x);
        }
      }
      return bad.length
        ? `non-default capabilities (${names("container", bad)} must not include ${[...caps].map((x) => JSON.stringify(x)).join(", ")} in securityContext.capabilities.add)`
        : undefined;
    },
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    run(_pod, cs) {
      const noDrop = cs
        .filter((c) => !((objectAt(c.sc.capabilities).drop ?? []) as string[]).includes("ALL"))
        .map((c) => c.name);
      const badAdd: string[] = [];
      const caps = new Set<string>();
      for (const c of cs) {
        const extra = ((objectAt(c.sc.capabilities).add ?? []) as string[]).filter(
          (x) => x !== "NET_BIND_SERVICE",
        );
        if (extra.length) {
          badAdd.push(c.name);
          for (const x of extra) caps.add(x);
        }
      }
      const details: string[] = [];
      if (noDrop.length)
        details.push(
          `${names("container", noDrop)} must set securityContext.capabilities.drop=["ALL"]`,
        );
      if (badAdd.length)
        details.push(
          `${names("container", badAdd)} must not include ${[...caps].map((x) => JSON.stringify(x)).join(", ")} in securityContext.capabilities.add`,
        );
      return details.length ? `unrestricted capabilities (${details.join("; ")})` : undefined;
    },
  },
  {
    id: "hostNamespaces",
    level: "baseline",
    run(pod) {
      const set = ["hostNetwork", "hostPID", "hostIPC"].filter((k) => pod[k] === true);
      return set.length ? `host namespaces (${set.map((k) => `${k}=true`).join(", ")})` : undefined;
    },
  },
  {
    id: "hostPathVolumes",
    level: "baseline",
    run(pod) {
      const bad = ((pod.volumes ?? []) as JsonObject[])
        .filter((v) => v.hostPath !== undefined)
        .map((v) => String(v.name));
      return bad.length ? `hostPath volumes (${names("volume", bad)})` : undefined;
    },
  },
  {
    id: "hostPorts",
    level: "baseline",
    run(_pod, cs) {
      const bad: string[] = [];
      const ports: number[] = [];
      for (const c of cs) {
        const hp = ((c.c.ports ?? []) as JsonObject[])
          .map((p) => p.hostPort)
          .filter((p): p is number => typeof p === "number" && p !== 0);
        if (hp.length) {
          bad.push(c.name);
          ports.push(...hp);
        }
      }
      if (!bad.length) return undefined;
      return `hostPort (${names("container", bad)} ${bad.length === 1 ? "uses" : "use"} ${ports.length === 1 ? "hostPort" : "hostPorts"} ${ports.join(", ")})`;
    },
  },
  {
    id: "privileged",
    level: "baseline",
    run(_pod, cs) {
      const bad = cs.filter((c) => c.sc.privileged === true).map((c) => c.name);
      return bad.length
        ? `privileged (${names("container", bad)} must not set securityContext.privileged=true)`
        : undefined;
    },
  },
  {
    id: "restrictedVolumes",
    level: "restricted",
    run(pod) {
      const details: string[] = [];
      for (const v of (pod.volumes ?? []) as JsonObject[]) {
        const type = Object.keys(v).find((k) => k !== "name");
        if (type && !RESTRICTED_VOLUMES.has(type))
          details.push(
            `volume ${JSON.stringify(v.name)} uses restricted volume type ${JSON.stringify(type)}`,
          );
      }
      return details.length ? `restricted volume types (${details.join(", ")})` : undefined;
    },
  },
  {
    id: "runAsNonRoot",
    level: "restricted",
    run(pod, cs) {
      const podSc = objectAt(pod.securityContext);
      const explicitFalse = cs.filter((c) => c.sc.runAsNonRoot === false).map((c) => c.name);
      const unset = cs.filter((c) => c.sc.runAsNonRoot === undefined).map((c) => c.name);
      const details: string[] = [];
      if (podSc.runAsNonRoot === false)
        details.push("pod must not set securityContext.runAsNonRoot=false");
      if (explicitFalse.length)
        details.push(
          `${names("container", explicitFalse)} must not set securityContext.runAsNonRoot=false`,
        );
      if (podSc.runAsNonRoot !== true && unset.length)
        details.push(
          `pod or ${names("container", unset)} must set securityContext.runAsNonRoot=true`,
        );
      return details.length ? `runAsNonRoot != true (${details.join("; ")})` : undefined;
    },
  },
  {
    id: "runAsUser",
    level: "restricted",
    run(pod, cs) {
      const details: string[] = [];
      if (objectAt(pod.securityContext).runAsUser === 0)
        details.push("pod must not set runAsUser=0");
      const bad = cs.filter((c) => c.sc.runAsUser === 0).map((c) => c.name);
      if (bad.length) details.push(`${names("container", bad)} must not set runAsUser=0`);
      return details.length ? `runAsUser=0 (${details.join("; ")})` : undefined;
    },
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    run(pod, cs) {
      const details: string[] = [];
      if (objectAt(objectAt(pod.securityContext).seccompProfile).type === "Unconfined")
        details.push('pod must not set securityContext.seccompProfile.type to "Unconfined"');
      const bad = cs
        .filter((c) => objectAt(c.sc.seccompProfile).type === "Unconfined")
        .map((c) => c.name);
      if (bad.length)
        details.push(
          `${names("container", bad)} must not set securityContext.seccompProfile.type to "Unconfined"`,
        );
      return details.length ? `seccompProfile (${details.join("; ")})` : undefined;
    },
  },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    run(pod, cs) {
      const ok = (t: unknown) => t === "RuntimeDefault" || t === "Localhost";
      const podType = objectAt(objectAt(pod.securityContext).seccompProfile).type;
      const details: string[] = [];
      if (podType !== undefined && !ok(podType))
        details.push(
          `pod must not set securityContext.seccompProfile.type to ${JSON.stringify(podType)}`,
        );
      const badSet = cs
        .filter(
          (c) =>
            objectAt(c.sc.seccompProfile).type !== undefined &&
            !ok(objectAt(c.sc.seccompProfile).type),
        )
        .map((c) => c.name);
      if (badSet.length)
        details.push(
          `${names("container", badSet)} must not set securityContext.seccompProfile.type to ${JSON.stringify(objectAt(cs.find((c) => badSet.includes(c.name))!.sc.seccompProfile).type)}`,
        );
      if (!ok(podType)) {
        const unset = cs
          .filter((c) => objectAt(c.sc.seccompProfile).type === undefined)
          .map((c) => c.name);
        if (unset.length)
          details.push(
            `pod or ${names("container", unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
          );
      }
      return details.length ? `seccompProfile (${details.join("; ")})` : undefined;
    },
  },
];

/** The violations of a pod spec against a level, in kube's order. */
export function podSecurityViolations(podSpec: unknown, level: Level): string[] {
  if (LEVELS[level] === 0) return [];
  const pod = objectAt(podSpec);
  const containers: Container[] = ["initContainers", "containers", "ephemeralContainers"].flatMap(
    (k) =>
      ((pod[k] ?? []) as JsonObject[]).map((c) => ({
        name: String(c.name ?? ""),
        sc: objectAt(c.securityContext),
        c,
      })),
  );
  const out: string[] = [];
  for (const check of checks) {
    if (LEVELS[check.level]! > LEVELS[level]!) continue;
    // A baseline check is replaced by its restricted twin under restricted.
    if (level === "restricted" && check.id === "capabilities_baseline") continue;
    if (level === "restricted" && check.id === "seccompProfile_baseline") continue;
    const v = check.run(pod, containers);
    if (v) out.push(v);
  }
  return out;
}

const NAMESPACES = bucketKey("", "namespaces");

export class PodSecurityAdmission implements AdmissionHook {
  constructor(private readonly store: Store) {}

  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (scope.subresource !== undefined || !scope.namespace) return;
    if (!RESOURCES.has(scope.info.resource)) return;
    const key = `${scope.info.group}/${scope.info.resource}`;
    const isPod = key === "/pods";
    const template = TEMPLATES[key];
    if (!isPod && !template) return;
    if (isPod && old) return;
    const labels = this.store.get(NAMESPACES, undefined, scope.namespace)?.metadata?.labels ?? {};
    const levelOf = (mode: string): Level | undefined => {
      const v = labels[`pod-security.kubernetes.io/${mode}`];
      return v && v in LEVELS ? (v as Level) : undefined;
    };
    const podSpec = isPod ? obj.spec : objectAt(template!(obj)).spec;
    const enforce = levelOf("enforce");
    if (isPod && enforce) {
      const v = podSecurityViolations(podSpec, enforce);
      if (v.length)
        throw errors.forbidden(
          { group: "", resource: "pods" },
          obj.metadata?.name ?? "",
          `violates PodSecurity "${enforce}:latest": ${v.join(", ")}`,
        );
    }
    const warn = levelOf("warn") ?? (isPod ? undefined : enforce);
    if (warn) {
      const v = podSecurityViolations(podSpec, warn);
      if (v.length)
        scope.warnings.push(`would violate PodSecurity "${warn}:latest": ${v.join(", ")}`);
    }
  }
}
