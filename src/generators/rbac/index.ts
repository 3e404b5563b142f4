/**
 * The RBAC generator behind `opgen manifests`: reads the `@rbac` markers of the project's sources
 * and returns `config/rbac/role.yaml` laid out exactly as `controller-gen rbac:roleName=...` writes
 * it, plus warnings for controllers whose informers the role would not let list or watch, and, on
 * request, the `--rbac-report` text.
 */

import type { Diagnostic } from "../../source/diagnostics.js";
import { listSourceFiles } from "../../source/project-files.js";
import { ProjectSources } from "../../source/project-sources.js";
import { toYamlDocuments } from "../../util/yaml.js";
import type { GeneratedFile } from "../types.js";
import { checkClientCalls, clientCallWarnings } from "./report/client-permissions.js";
import { checkWatches, missingPermissionWarnings } from "./report/missing-permissions.js";
import { renderReport } from "./report/render-report.js";
import { generateRoles } from "./roles.js";
import type { ProjectScan } from "./scan.js";

export interface GenerateRbacOptions {
  /** The project root; every other path is relative to it. */
  projectDir: string;
  /** Folders (or files) scanned for markers and controller setups; default `["src"]`. */
  paths?: readonly string[];
  /** Name of the ClusterRole (and of Roles without `roleName=`); default `manager-role`. */
  roleName?: string;
  /** Where the roles are written; default `config/rbac/role.yaml`. */
  output?: string;
  /** Also return the `--rbac-report` text. */
  report?: boolean;
  /** The run's parsed sources, shared with the other generators; created when absent. */
  sources?: ProjectSources;
}

export interface GenerateRbacResult {
  /** The role file; empty when a marker has an error, so nothing half-merged is written. */
  files: GeneratedFile[];
  /** Marker errors and missing-permission warnings, `path:line:col` with 1-based positions. */
  diagnostics: Diagnostic[];
  report?: string;
}

export const DEFAULT_ROLE_NAME = "manager-role";
export const DEFAULT_RBAC_OUTPUT = "config/rbac/role.yaml";

export async function generateRbac(opts: GenerateRbacOptions): Promise<GenerateRbacResult> {
  const roleName = opts.roleName || DEFAULT_ROLE_NAME;
  const output = opts.output || DEFAULT_RBAC_OUTPUT;
  const paths = listSourceFiles(opts.projectDir, opts.paths ?? ["src"]);

  const scan: ProjectScan =
    paths.length === 0
      ? { rules: [], diagnostics: [], setups: [] }
      : (await import("./scan.js")).scanProject(
          opts.sources ?? (await ProjectSources.create(opts.projectDir)),
          paths,
        );
  const { rules, diagnostics, setups } = scan;
  const roles = generateRoles(
    rules.map((r) => r.rule),
    roleName,
  );
  const checks = checkWatches(setups, roles, roleName);
  const callChecks = checkClientCalls(setups, roles, roleName);
  diagnostics.push(
    ...missingPermissionWarnings(checks, roleName),
    ...clientCallWarnings(callChecks),
  );

  const hasErrors = diagnostics.some((d) => d.severity === "error");
  const result: GenerateRbacResult = {
    files: hasErrors ? [] : [{ path: output, content: toYamlDocuments(roles) }],
    diagnostics,
  };
  if (opts.report) result.report = renderReport({ roleName, rules, setups, checks, callChecks });
  return result;
}
