/**
 * One pass over the scanned sources: the `@rbac` markers (with their errors) and the controller
 * setups whose watched kinds the report checks. Kept apart from `index.ts` so the TypeScript
 * compiler is loaded only when there are sources to read (`opgen init` renders the empty role).
 */

import type { Diagnostic } from "../../source/diagnostics.js";
import type { ProjectSources } from "../../source/project-sources.js";
import { collectRbacRules } from "./collect.js";
import { type ControllerSetup, findControllerSetups } from "./report/controller-setup.js";
import { StaticResolver } from "./report/static-resolver.js";
import type { LocatedRbacRule } from "./rule.js";

export interface ProjectScan {
  rules: LocatedRbacRule[];
  diagnostics: Diagnostic[];
  setups: ControllerSetup[];
}

/** Scans `paths` (project-relative source files) of the project `sources` reads. */
export function scanProject(sources: ProjectSources, all: readonly string[]): ProjectScan {
  // Markers after a syntax error would be lost and the role silently short: refuse such files.
  const syntax = all.flatMap((path) => sources.syntaxErrors(path, "full"));
  const broken = new Set(syntax.map((d) => d.file));
  const paths = all.filter((p) => !broken.has(p));
  const { rules, diagnostics } = collectRbacRules(sources, paths);
  const resolver = new StaticResolver(sources);
  const setups = paths.flatMap((path) => findControllerSetups(sources, resolver, path));
  return { rules, diagnostics: [...syntax, ...diagnostics], setups };
}
