/**
 * The project's sources as they will be once a file plan is written: planned files are read from
 * memory, the rest from disk. `create api` generates the CRD of a kind whose types exist only in
 * its plan, so the sample can be derived from it before anything is written.
 */
import { join, relative, resolve, sep } from "node:path";
import { listSourceFiles } from "../../source/project-files.js";
import {
  loadTypeScript,
  ProjectSources,
  type SourceFileInfo,
} from "../../source/project-sources.js";
import { compareGoStrings } from "../../util/go-strings.js";

/**
 * The project's sources with `files` (project-relative paths) read from memory: one parse cache
 * (ProjectSources), only the reads answered first from the plan.
 */
export async function plannedSources(
  projectDir: string,
  files: readonly { path: string; content: string }[],
): Promise<ProjectSources> {
  const sources = new PlannedSources(await loadTypeScript(), resolve(projectDir));
  for (const f of files) sources.planned.set(resolve(projectDir, f.path), f.content);
  return sources;
}

class PlannedSources extends ProjectSources {
  /** Absolute path → planned text. */
  readonly planned = new Map<string, string>();

  override text(path: string): string | undefined {
    return this.planned.get(resolve(this.projectDir, path)) ?? super.text(path);
  }

  override listFiles(dirs: readonly string[]): string[] {
    const rel = new Set(listSourceFiles(this.projectDir, dirs));
    for (const abs of this.planned.keys()) {
      const path = relative(this.projectDir, abs).split(sep).join("/");
      const scanned = /(?<!\.d|\.test|\.spec)\.ts$/.test(path);
      if (scanned && dirs.some((d) => path === d || path.startsWith(`${d.replace(/\/+$/, "")}/`)))
        rel.add(path);
    }
    return [...rel].sort(compareGoStrings).map((p) => join(this.projectDir, p));
  }

  override resolveModule(from: SourceFileInfo, specifier: string): string | undefined {
    if (specifier.startsWith(".")) {
      const stem = resolve(from.path, "..", specifier).replace(/\.(m?js|tsx?)$/, "");
      const hit = [`${stem}.ts`, join(stem, "index.ts")].find((p) => this.planned.has(p));
      if (hit) return hit;
    }
    return super.resolveModule(from, specifier);
  }
}
