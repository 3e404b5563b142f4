/**
 * The text `opgen manifests --rbac-report` prints: per controller, the reconciler class, the
 * permissions its `@rbac` markers grant, and whether the manager may list and watch each kind the
 * controller reconciles, owns or watches; then the markers that stand outside controller classes.
 */

import { generateRoles } from "../roles.js";
import type { LocatedRbacRule, PolicyRule } from "../rule.js";
import { CLIENT_VERB_WORDS, type ClientCallCheck } from "./client-permissions.js";
import type { ControllerSetup } from "./controller-setup.js";
import {
  controllerName,
  INFORMER_VERBS,
  RELATION_WORDS,
  type WatchCheck,
} from "./missing-permissions.js";
import type { ClassLocation } from "./static-resolver.js";

export interface ReportInput {
  roleName: string;
  rules: readonly LocatedRbacRule[];
  setups: readonly ControllerSetup[];
  checks: readonly WatchCheck[];
  callChecks: readonly ClientCallCheck[];
}

function where(position: { file: string; line: number; column: number }): string {
  return `${position.file}:${position.line}:${position.column}`;
}

function classWhere(cls: ClassLocation): string {
  const file = cls.node.getSourceFile();
  const { line, character } = file.getLineAndCharacterOfPosition(cls.node.getStart(file));
  return `${cls.path}:${line + 1}:${character + 1}`;
}

function table(rows: readonly string[][], indent: string): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((row) =>
    (
      indent +
      row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join("  ")
    ).trimEnd(),
  );
}

function ruleRow(rule: PolicyRule): string[] {
  if (rule.nonResourceURLs)
    return ["(non-resource URLs)", rule.nonResourceURLs.join(", "), rule.verbs.join(", ")];
  const groups = (rule.apiGroups ?? []).map((g) => (g === "" ? "core" : g)).join(", ");
  let resources = (rule.resources ?? []).join(", ");
  if (rule.resourceNames) resources += ` (named ${rule.resourceNames.join(", ")})`;
  return [groups, resources, rule.verbs.join(", ")];
}

/** The merged rules `rules` grant, one table per role they fall in. */
function grants(rules: readonly LocatedRbacRule[], roleName: string, indent: string): string[] {
  const lines: string[] = [];
  for (const role of generateRoles(
    rules.map((r) => r.rule),
    roleName,
  )) {
    if (role.rules.length === 0) continue;
    const title =
      role.kind === "ClusterRole"
        ? `ClusterRole ${role.metadata.name}`
        : `Role ${role.metadata.name} in namespace ${role.metadata.namespace}`;
    lines.push(`${indent}${title}:`);
    lines.push(
      ...table([["GROUPS", "RESOURCES", "VERBS"], ...role.rules.map(ruleRow)], `${indent}  `),
    );
  }
  return lines;
}

export function renderReport(input: ReportInput): string {
  const { roleName, rules, setups, checks, callChecks } = input;
  const out: string[] = [];
  const files = new Set(rules.map((r) => r.position.file));
  out.push(
    `RBAC report: ${rules.length} @rbac marker${rules.length === 1 ? "" : "s"} in ${files.size} file${files.size === 1 ? "" : "s"}, ${setups.length} controller${setups.length === 1 ? "" : "s"}`,
  );

  const reportedClasses = new Set<string>();
  for (const setup of setups) {
    out.push("", `controller ${controllerName(setup)} (${where(setup.position)})`);
    const cls = setup.reconciler;
    if (cls) {
      const name = cls.node.name?.text ?? "(anonymous class)";
      reportedClasses.add(`${cls.path}#${name}`);
      out.push(`  reconciler ${name} (${classWhere(cls)})`);
      const own = rules.filter((r) => r.position.file === cls.path && r.className === name);
      if (own.length > 0) {
        out.push(`  its @rbac markers grant:`);
        out.push(...grants(own, roleName, "    "));
      } else {
        out.push(`  its class has no @rbac markers`);
      }
    } else {
      out.push("  reconciler not statically visible (.complete(...) argument)");
    }
    out.push(`  informers need ${INFORMER_VERBS.join(", ")} in ClusterRole ${roleName}:`);
    const rows = setup.watched.map((watched) => {
      const relation = RELATION_WORDS[watched.relation];
      if (!watched.kind) return [relation, watched.source, "not statically visible; check by hand"];
      const check = checks.find((c) => c.watched === watched);
      const { group, plural } = watched.kind;
      const status =
        !check || check.missing.length === 0 ? "ok" : `MISSING ${check.missing.join(", ")}`;
      return [relation, `${plural} (group ${group === "" ? "core" : group})`, status];
    });
    out.push(...table(rows, "    "));
    const calls = callChecks.filter((c) => c.setup === setup);
    if (calls.length > 0) {
      out.push("  its client calls:");
      out.push(
        ...table(
          calls.map(({ call, fromCache, missing }) => [
            CLIENT_VERB_WORDS[call.verb],
            `${call.kind.plural} (group ${call.kind.group === "" ? "core" : call.kind.group})`,
            fromCache ? "from the cache" : missing ? `MISSING ${call.verb}` : "ok",
            where(call.position),
          ]),
          "    ",
        ),
      );
    }
  }

  const classes = new Map<string, LocatedRbacRule[]>();
  const loose = new Map<string, LocatedRbacRule[]>();
  for (const rule of rules) {
    if (rule.className) {
      const key = `${rule.position.file}#${rule.className}`;
      if (reportedClasses.has(key)) continue;
      classes.set(key, [...(classes.get(key) ?? []), rule]);
    } else {
      loose.set(rule.position.file, [...(loose.get(rule.position.file) ?? []), rule]);
    }
  }
  for (const [key, classRules] of classes) {
    const [file, name] = key.split("#") as [string, string];
    out.push("", `class ${name} (${file}, not set up as a controller here)`);
    out.push(...grants(classRules, roleName, "  "));
  }
  for (const [file, fileRules] of loose) {
    out.push("", `markers outside classes in ${file}:`);
    out.push(...grants(fileRules, roleName, "  "));
  }

  const gaps =
    checks.filter((c) => c.missing.length > 0).length + callChecks.filter((c) => c.missing).length;
  out.push(
    "",
    gaps === 0
      ? "no missing permissions found"
      : `${gaps} missing permission${gaps === 1 ? "" : "s"} (see the warnings)`,
  );
  return `${out.join("\n")}\n`;
}
