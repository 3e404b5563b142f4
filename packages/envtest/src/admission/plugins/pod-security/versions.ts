/**
 * Pod Security levels, policy versions and the namespace labels that select them, as
 * `k8s.io/pod-security-admission/api` reads them: `pod-security.kubernetes.io/<mode>` names the
 * level and `<mode>-version` the policy version (`latest` or `v1.<minor>`). A label that does not
 * parse still yields a policy (enforce falls back to restricted, warn and audit to privileged,
 * a version to latest) together with the field errors namespace admission refuses.
 */
import type { FieldError } from "@opgen/apimachinery/status";

export type Level = "privileged" | "baseline" | "restricted";
export const LEVELS: readonly Level[] = ["privileged", "baseline", "restricted"];

/** A policy version: a minor of Kubernetes 1 or `latest` (minor = Infinity). */
export interface Version {
  readonly minor: number;
}
export const LATEST: Version = { minor: Number.POSITIVE_INFINITY };
export const v1 = (minor: number): Version => ({ minor });

export function formatVersion(v: Version): string {
  return Number.isFinite(v.minor) ? `v1.${v.minor}` : "latest";
}

export interface LevelVersion {
  level: Level;
  version: Version;
}

/** `restricted:v1.25`, `baseline:latest`: how kube names a policy in its messages. */
export function formatLevelVersion(lv: LevelVersion): string {
  return `${lv.level}:${formatVersion(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version.minor === b.version.minor;
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export type Mode = keyof Policy;
export const MODES: readonly Mode[] = ["enforce", "audit", "warn"];

/** kube-apiserver's default (no AdmissionConfiguration): everything privileged, latest. */
export const PRIVILEGED_POLICY: Policy = {
  enforce: { level: "privileged", version: LATEST },
  audit: { level: "privileged", version: LATEST },
  warn: { level: "privileged", version: LATEST },
};

export const levelLabel = (mode: Mode) => `pod-security.kubernetes.io/${mode}`;
export const versionLabel = (mode: Mode) => `pod-security.kubernetes.io/${mode}-version`;

const LEVEL_ERROR = "must be one of privileged, baseline, restricted";
const VERSION_ERROR = 'must be "latest" or "v1.x"';
const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;

export function parseLevel(value: string): { level: Level; error?: string } {
  return (LEVELS as readonly string[]).includes(value)
    ? { level: value as Level }
    : { level: "restricted", error: LEVEL_ERROR };
}

export function parseVersion(value: string): { version: Version; error?: string } {
  if (value === "latest") return { version: LATEST };
  const m = VERSION_RE.exec(value);
  if (!m) return { version: LATEST, error: VERSION_ERROR };
  const minor = Number(m[1]);
  return Number.isSafeInteger(minor)
    ? { version: v1(minor) }
    : { version: LATEST, error: VERSION_ERROR };
}

/** -1, 0 or 1 as `a` is less strict than, as strict as, or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

/**
 * The policy a namespace's labels select over `defaults`, with the label errors (in kube's order:
 * enforce, audit, warn; level before version). An unset warn level follows an explicitly set,
 * stricter enforce level (and its version, unless warn-version is set), so workloads get warned
 * about pods enforce would refuse.
 */
export function policyFromLabels(
  labels: Record<string, string> | undefined,
  defaults: Policy,
): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = {
    enforce: { ...defaults.enforce },
    audit: { ...defaults.audit },
    warn: { ...defaults.warn },
  };
  const errors: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy, errors };
  const invalid = (label: string, value: string, detail: string) =>
    errors.push({ type: "FieldValueInvalid", field: `metadata.labels[${label}]`, value, detail });
  let hasEnforceLevel = false;
  let hasWarnLevel = false;
  let hasWarnVersion = false;
  for (const mode of MODES) {
    const level = labels[levelLabel(mode)];
    if (level !== undefined) {
      const parsed = parseLevel(level);
      // Enforce fails closed; audit and warn fail open.
      policy[mode].level = parsed.error && mode !== "enforce" ? "privileged" : parsed.level;
      if (parsed.error) invalid(levelLabel(mode), level, parsed.error);
      if (mode === "enforce") hasEnforceLevel = !parsed.error;
      if (mode === "warn") hasWarnLevel = true;
    }
    const version = labels[versionLabel(mode)];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      policy[mode].version = parsed.version;
      if (parsed.error) invalid(versionLabel(mode), version, parsed.error);
      if (mode === "warn") hasWarnVersion = true;
    }
  }
  if (
    !hasWarnLevel &&
    hasEnforceLevel &&
    compareLevels(policy.enforce.level, policy.warn.level) > 0
  ) {
    policy.warn.level = policy.enforce.level;
    if (!hasWarnVersion) policy.warn.version = policy.enforce.version;
  }
  return { policy, errors };
}

export function fullyPrivileged(p: Policy): boolean {
  return MODES.every((m) => p[m].level === "privileged");
}

/** Equal levels, and equal versions unless privileged (where the version changes nothing). */
export function equivalentPolicies(a: Policy, b: Policy): boolean {
  return MODES.every(
    (m) =>
      a[m].level === b[m].level &&
      (a[m].level === "privileged" || a[m].version.minor === b[m].version.minor),
  );
}
