/**
 * One pass over the scanned sources: the `@rbac` markers (with their errors) and the controller
 * setups whose watched kinds the report checks. Kept apart from `index.ts` so the TypeScript
 * compiler is loaded only when there are sources to read (`opgen init` renders the empty role).
 */

import type { Diagnostic } from "../../source/diagnostics.js";
import { collectRbacRules } from "./collect.js";
import { type ControllerSetup, findControllerSetups } from "./report/controller-setup.js";
import { StaticResolver } from "./report/static-resolver.js";
import type { LocatedRbacRule } from "./rule.js";
import { SourceCache } from "./source-cache.js";

export interface ProjectScan {
  rules: LocatedRbacRule[];
  diagnostics: Diagnostic[];
  setups: ControllerSetup[];
}

export function scanProject(projectDir: string, paths: readonly string[]): ProjectScan {
  const sources = new SourceCache(projectDir);
  const { rules, diagnostics } = collectRbacRules(sources, paths);
  const resolver = new StaticResolver(sources);
  const setups = paths.flatMap((path) => findControllerSetups(sources, resolver, path));
  return { rules, diagnostics, setups };
}
