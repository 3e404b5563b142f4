/**
 * Which check revisions a level and policy version run, in which order
 * (`k8s.io/pod-security-admission/policy/registry.go`): a check applies from its first revision's
 * minimum version, each revision until the next one; the newest minimum of all checks (1.32 for
 * kube-apiserver 1.32) is what `latest` and any newer version evaluate. Baseline checks run first,
 * then restricted ones, each group sorted by check ID; under restricted, a baseline check that a
 * restricted check overrides at that version is left out.
 */
import * as c from "./checks.js";
import type { Violation } from "./messages.js";
import type { Level, LevelVersion } from "./versions.js";

interface Revision {
  since: number;
  check: c.CheckFn;
  /** Baseline checks this restricted revision replaces. */
  overrides?: readonly string[];
}

interface CheckDef {
  id: string;
  level: Exclude<Level, "privileged">;
  revisions: readonly Revision[];
}

const CHECKS: readonly CheckDef[] = [
  {
    id: "appArmorProfile",
    level: "baseline",
    revisions: [{ since: 0, check: c.appArmorProfile_1_0 }],
  },
  {
    id: "capabilities_baseline",
    level: "baseline",
    revisions: [{ since: 0, check: c.capabilitiesBaseline_1_0 }],
  },
  {
    id: "hostNamespaces",
    level: "baseline",
    revisions: [{ since: 0, check: c.hostNamespaces_1_0 }],
  },
  {
    id: "hostPathVolumes",
    level: "baseline",
    revisions: [{ since: 0, check: c.hostPathVolumes_1_0 }],
  },
  { id: "hostPorts", level: "baseline", revisions: [{ since: 0, check: c.hostPorts_1_0 }] },
  { id: "privileged", level: "baseline", revisions: [{ since: 0, check: c.privileged_1_0 }] },
  { id: "procMount", level: "baseline", revisions: [{ since: 0, check: c.procMount_1_0 }] },
  {
    id: "seLinuxOptions",
    level: "baseline",
    revisions: [
      { since: 0, check: c.seLinuxOptions_1_0 },
      { since: 31, check: c.seLinuxOptions_1_31 },
    ],
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    revisions: [
      { since: 0, check: c.seccompProfileBaseline_1_0 },
      { since: 19, check: c.seccompProfileBaseline_1_19 },
    ],
  },
  {
    id: "sysctls",
    level: "baseline",
    revisions: [
      { since: 0, check: c.sysctls_1_0 },
      { since: 27, check: c.sysctls_1_27 },
      { since: 29, check: c.sysctls_1_29 },
      { since: 32, check: c.sysctls_1_32 },
    ],
  },
  {
    id: "windowsHostProcess",
    level: "baseline",
    revisions: [{ since: 0, check: c.windowsHostProcess_1_0 }],
  },
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    revisions: [
      { since: 8, check: c.allowPrivilegeEscalation_1_8 },
      { since: 25, check: c.allowPrivilegeEscalation_1_25 },
    ],
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    revisions: [
      { since: 22, check: c.capabilitiesRestricted_1_22, overrides: ["capabilities_baseline"] },
      { since: 25, check: c.capabilitiesRestricted_1_25, overrides: ["capabilities_baseline"] },
    ],
  },
  {
    id: "restrictedVolumes",
    level: "restricted",
    revisions: [{ since: 0, check: c.restrictedVolumes_1_0, overrides: ["hostPathVolumes"] }],
  },
  { id: "runAsNonRoot", level: "restricted", revisions: [{ since: 0, check: c.runAsNonRoot_1_0 }] },
  { id: "runAsUser", level: "restricted", revisions: [{ since: 23, check: c.runAsUser_1_23 }] },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    revisions: [
      { since: 19, check: c.seccompProfileRestricted_1_19, overrides: ["seccompProfile_baseline"] },
      { since: 25, check: c.seccompProfileRestricted_1_25, overrides: ["seccompProfile_baseline"] },
    ],
  },
];

/** The policy version `latest` stands for: the newest revision of any check. */
export const MAX_POLICY_MINOR = Math.max(...CHECKS.flatMap((d) => d.revisions.map((r) => r.since)));

const ORDERED = [
  ...CHECKS.filter((d) => d.level === "baseline").sort(byId),
  ...CHECKS.filter((d) => d.level === "restricted").sort(byId),
];

function byId(a: CheckDef, b: CheckDef): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function revisionAt(def: CheckDef, minor: number): Revision | undefined {
  let found: Revision | undefined;
  for (const r of def.revisions) if (r.since <= minor) found = r;
  return found;
}

const cache = new Map<string, { id: string; check: c.CheckFn }[]>();

/** The checks a level runs at a policy version, in kube's order (cached per level and minor). */
export function checksFor(lv: LevelVersion): { id: string; check: c.CheckFn }[] {
  if (lv.level === "privileged") return [];
  const minor = Math.min(lv.version.minor, MAX_POLICY_MINOR);
  const key = `${lv.level}:${minor}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const selected = ORDERED.flatMap((def) => {
    if (lv.level === "baseline" && def.level === "restricted") return [];
    const r = revisionAt(def, minor);
    return r ? [{ def, r }] : [];
  });
  const overridden = new Set(selected.flatMap(({ r }) => r.overrides ?? []));
  const out = selected
    .filter(({ def }) => !(lv.level === "restricted" && overridden.has(def.id)))
    .map(({ def, r }) => ({ id: def.id, check: r.check }));
  cache.set(key, out);
  return out;
}

/** The violations of a pod (or pod template) against a level and version, in kube's order. */
export function evaluatePod(lv: LevelVersion, pod: c.PodView): Violation[] {
  const out: Violation[] = [];
  for (const { check } of checksFor(lv)) {
    const v = check(pod);
    if (v) out.push(v);
  }
  return out;
}
