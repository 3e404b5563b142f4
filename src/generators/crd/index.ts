/**
 * The CRD generator: reads the API folders (default `src/api`), finds the root kinds (interfaces or
 * classes marked `@resource`), takes group and version from the `groupversion.ts` beside each,
 * walks their types into schemas and writes one CustomResourceDefinition per group and kind to
 * `<outputDir>/<group>_<plural>.yaml`. It returns files and diagnostics; writing is the caller's job.
 */
import { dirname, join } from "node:path";
import type { ts } from "ts-morph";
import { readProject } from "../../project/project-file.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import { ProjectSources, type SourceFileInfo } from "../../source/project-sources.js";
import { toYamlDocuments } from "../../util/yaml.js";
import { opgenVersion } from "../../version.js";
import type { GeneratedFile } from "../types.js";
import { type AssembledCrd, assembleCrds, type KindVersion } from "./assemble.js";
import { limitDescriptions } from "./descriptions.js";
import { type PackageInfo, readPackageInfo } from "./group-version.js";
import { kubeProblems } from "./kube-checks.js";
import { nameProblems } from "./names-check.js";
import { printColumnProblems } from "./printcolumn-check.js";
import { SchemaWalker } from "./walker.js";
import type { CoreTypeProvider, Declaration } from "./walker-base.js";

export interface CrdOptions {
  projectDir: string;
  /** Folders (relative to the project) holding API types; default `["src/api"]`. */
  paths?: readonly string[];
  /** Where CRD files go, relative to the project; default `config/crd/bases`. */
  outputDir?: string;
  /** Truncate descriptions (0 drops them), as controller-gen's crd:maxDescLen. */
  maxDescLen?: number;
  /** The annotation naming the generator; default `opgen.dev/version: <opgen version>`. */
  versionAnnotation?: { key: string; value: string };
  /** Parsed sources shared with other generators of the same run. */
  sources?: ProjectSources;
  /** Schemas of @kubernetes/client-node models; default: the built-in provider. */
  coreTypes?: CoreTypeProvider;
}

export interface CrdResult {
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
  crds: AssembledCrd[];
}

export const DEFAULT_API_PATHS = ["src/api"] as const;
export const DEFAULT_CRD_OUTPUT = "config/crd/bases";

export async function generateCrds(options: CrdOptions): Promise<CrdResult> {
  const sources = options.sources ?? (await ProjectSources.create(options.projectDir));
  const t = sources.ts;
  const packages = new Map<string, PackageInfo | null>();
  const diagnostics: Diagnostic[] = [];

  let coreTypes = options.coreTypes;
  if (!coreTypes) {
    const { catalogTypes } = await import("./core-types.js");
    coreTypes = catalogTypes();
  }

  const walker: SchemaWalker = new SchemaWalker(sources, {
    optionalByDefault: (file) => packageOf(dirname(file.path))?.optional ?? false,
    coreTypes,
  });

  /** Group, version and package defaults of a folder, from its groupversion.ts. */
  function packageOf(dir: string): PackageInfo | undefined {
    const cached = packages.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    const file = sources.file(join(dir, "groupversion.ts"));
    const info = file ? readPackageInfo(sources, walker, file, dir) : null;
    packages.set(dir, info);
    return info ?? undefined;
  }

  const files = sources.listFiles(options.paths?.length ? options.paths : DEFAULT_API_PATHS);
  const roots: { decl: ts.InterfaceDeclaration | ts.ClassDeclaration; file: SourceFileInfo }[] = [];
  for (const path of files) {
    // A file that does not parse would lose whatever follows the error: refuse it outright.
    const syntax = sources.syntaxErrors(path);
    if (syntax.length > 0) {
      diagnostics.push(...syntax);
      continue;
    }
    const file = sources.file(path)!;
    const isRoot = (decl: Declaration) =>
      (t.isInterfaceDeclaration(decl) || t.isClassDeclaration(decl)) &&
      (sources
        .jsDoc(file, decl)
        ?.tags.some(
          (tag) => tag.name === "resource" || tag.name.startsWith("kubebuilder:resource"),
        ) ??
        false);
    for (const stmt of file.sf.statements) {
      if (
        (t.isInterfaceDeclaration(stmt) || t.isClassDeclaration(stmt)) &&
        stmt.name &&
        isRoot(stmt)
      )
        roots.push({ decl: stmt, file });
    }
    walker.checkFile(file, isRoot);
  }

  const versions: KindVersion[] = [];
  for (const { decl, file } of roots) {
    const pos = sources.position(file, decl.name ?? decl);
    const pkg = packageOf(dirname(file.path));
    if (!pkg) {
      diagnostics.push({
        severity: "error",
        ...pos,
        message: `kind ${decl.name!.text}: no groupversion.ts in its folder, so its API group is unknown`,
      });
      continue;
    }
    if (pkg.group === undefined) {
      // Said once at groupversion.ts, however many kinds the folder holds.
      diagnostics.push({
        severity: "error",
        ...pkg.declPos,
        message: `no API group: export a GroupVersion with @groupName <group>.<domain> in its JSDoc (or { group: "..." }) for the kinds of this folder`,
      });
      continue;
    }
    const schema = walker.rootSchema(decl, file);
    versions.push({
      group: pkg.group,
      version: pkg.version,
      kind: decl.name!.text,
      schema,
      markers: walker.markersOf(file, decl, "root"),
      pos,
      groupPos: pkg.groupPos,
      versionPos: pkg.versionPos,
      versionFromFolder: pkg.versionFromFolder,
    });
  }
  diagnostics.push(...walker.diagnostics);

  const { crds, diagnostics: assembly } = assembleCrds(versions, {
    versionAnnotation: options.versionAnnotation ?? {
      key: "opgen.dev/version",
      value: opgenVersion(),
    },
  });
  diagnostics.push(...assembly);
  diagnostics.push(...nameProblems(versions, crds, projectLayout(options.projectDir)));
  diagnostics.push(...printColumnProblems(versions));
  // What kube-apiserver would refuse, once opgen's own checks (said in their words) pass: the
  // same problem is not said twice.
  if (!diagnostics.some((d) => d.severity === "error"))
    diagnostics.push(...(await kubeProblems(crds)));

  if (options.maxDescLen !== undefined) {
    for (const crd of crds) {
      for (const v of (crd.object.spec as { versions: { schema: { openAPIV3Schema: never } }[] })
        .versions) {
        limitDescriptions(v.schema.openAPIV3Schema, options.maxDescLen);
      }
    }
  }
  const outputDir = (options.outputDir ?? DEFAULT_CRD_OUTPUT).replace(/\/+$/, "");
  const outFiles = crds.map((crd) => ({
    path: `${outputDir}/${crd.group}_${crd.plural}.yaml`,
    content: toYamlDocuments([crd.object]),
  }));
  return { files: outFiles, diagnostics: sortDiagnostics(diagnostics), crds };
}

/** Whether the project is multi-group, from its PROJECT file; undefined outside an opgen project. */
function projectLayout(projectDir: string): { multigroup: boolean } | undefined {
  try {
    return { multigroup: readProject(projectDir).multigroup === true };
  } catch {
    // No PROJECT file (or one this command does not need to read): no layout to enforce.
    return undefined;
  }
}

/** Stable order: by file, line, column; duplicates (the same message at the same place) dropped. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return [...list]
    .sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column,
    )
    .filter((d) => {
      const key = `${d.file}:${d.line}:${d.column}:${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
