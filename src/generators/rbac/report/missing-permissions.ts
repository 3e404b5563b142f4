/**
 * The check behind `--rbac-report` warnings: every kind a controller reconciles, owns or watches is
 * served to it by an informer, which lists and watches that resource in all namespaces; without
 * `list` and `watch` in the manager's ClusterRole the informer never syncs and the controller never
 * starts, the most common first-deploy failure of an operator. Each gap becomes a warning at the
 * call that sets up the watch, with the marker that closes it.
 */
import type { Diagnostic } from "../../../source/diagnostics.js";
import type { RbacRoleObject } from "../rule.js";
import type { ControllerSetup, WatchedKind } from "./controller-setup.js";
import { missingVerbs } from "./permissions.js";

/** What an informer needs on every kind it serves. */
export const INFORMER_VERBS: readonly string[] = ["list", "watch"];

export interface WatchCheck {
  setup: ControllerSetup;
  watched: WatchedKind;
  /** Verbs of `INFORMER_VERBS` the manager's ClusterRole lacks (empty: all granted). */
  missing: string[];
  /** Namespaced Roles that grant the missing verbs, which do not help an all-namespace watch. */
  onlyIn: RbacRoleObject[];
}

/** The controller's name as the runtime gives it: `.named(...)`, else the lower-cased kind. */
export function controllerName(setup: ControllerSetup): string {
  if (setup.name) return setup.name;
  const primary = setup.watched.find((w) => w.relation === "for");
  return primary?.kind ? primary.kind.kind.toLowerCase() : (primary?.source ?? "controller");
}

function groupLabel(group: string): string {
  return group === "" ? "core" : group;
}

/** Checks every statically resolved kind of every controller against the roles. */
export function checkWatches(
  setups: readonly ControllerSetup[],
  roles: readonly RbacRoleObject[],
  roleName: string,
): WatchCheck[] {
  const clusterRole = roles.find((r) => r.kind === "ClusterRole" && r.metadata.name === roleName);
  const namespaced = roles.filter((r) => r.kind === "Role");
  const checks: WatchCheck[] = [];
  for (const setup of setups) {
    for (const watched of setup.watched) {
      if (!watched.kind) continue;
      const { group, plural } = watched.kind;
      const missing = clusterRole
        ? missingVerbs(clusterRole, group, plural, INFORMER_VERBS)
        : [...INFORMER_VERBS];
      const onlyIn =
        missing.length === 0
          ? []
          : namespaced.filter((role) => missingVerbs(role, group, plural, missing).length === 0);
      checks.push({ setup, watched, missing, onlyIn });
    }
  }
  return checks;
}

/** How a controller relates to a kind, as the report and warnings say it. */
export const RELATION_WORDS = { for: "reconciles", owns: "owns", watches: "watches" } as const;

export function warningFor(check: WatchCheck, roleName: string): Diagnostic {
  const { group, plural } = check.watched.kind!;
  const verbs = check.missing.join(", ");
  let message =
    `controller ${controllerName(check.setup)} ${RELATION_WORDS[check.watched.relation]} ` +
    `${plural} (group ${groupLabel(group)}) but ClusterRole ${roleName} does not grant ${verbs} on them; ` +
    `add @rbac groups=${groupLabel(group)},resources=${plural},verbs=${check.missing.join(";")}`;
  if (check.onlyIn.length > 0) {
    const where = check.onlyIn
      .map(
        (r) =>
          `Role ${r.metadata.name} in namespace ${"namespace" in r.metadata ? r.metadata.namespace : ""}`,
      )
      .join(", ");
    message += ` (${where} grants them only there, and the informer watches all namespaces)`;
  }
  return {
    severity: "warning",
    file: check.watched.position.file,
    line: check.watched.position.line,
    column: check.watched.position.column,
    message,
  };
}

export function missingPermissionWarnings(
  checks: readonly WatchCheck[],
  roleName: string,
): Diagnostic[] {
  return checks.filter((c) => c.missing.length > 0).map((c) => warningFor(c, roleName));
}
