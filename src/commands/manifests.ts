/**
 * `opgen manifests`: generates the CRDs (from the API types), the manager role (from @rbac
 * markers) and the webhook configurations (from @webhook markers) in one run. All diagnostics of
 * the generators are printed together as
 * `path:line:col: message`, with the samples under config/samples that the generated CRDs would
 * refuse (a warning each); any error (or warning, with --strict) fails the run before anything
 * is written. Otherwise `--check` compares with the files on disk and prints a unified diff per
 * stale or missing file, and a normal run writes every file in one atomic step (and, with
 * `--prune`, removes CRD files no kind generates any more). Without @webhook markers no webhook
 * file is written, as controller-gen writes none; an existing one is left alone and reported.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_CRD_OUTPUT, generateCrds, sortDiagnostics } from "../generators/crd/index.js";
import { generateRbac } from "../generators/rbac/index.js";
import { checkSamples } from "../generators/samples/check.js";
import type { GeneratedFile } from "../generators/types.js";
import { DEFAULT_WEBHOOK_OUTPUT, generateWebhooks } from "../generators/webhook/index.js";
import { type Diagnostic, formatDiagnostic } from "../source/diagnostics.js";
import { badSourcePaths } from "../source/project-files.js";
import { ProjectSources } from "../source/project-sources.js";
import { checkOutputPaths, removeFiles, writeFilesAtomically } from "../util/atomic-write.js";
import { CliError, CliErrors } from "../util/errors.js";
import { readProjectFile } from "../util/read-file.js";
import { unifiedDiff } from "../util/unified-diff.js";

export interface ManifestsOptions {
  paths?: string[];
  outputDir?: string;
  rbacOutput?: string;
  rbacPaths?: string[];
  roleName?: string;
  maxDescLen?: number;
  check?: boolean;
  prune?: boolean;
  strict?: boolean;
  rbacReport?: boolean;
  /** The project folder (default: the current directory); for tests. */
  projectDir?: string;
}

export interface ManifestsIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: ManifestsIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** A regular file (a link to one included); false for a dangling link. */
function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** CRD files in the output folder that no kind generated: candidates for --prune. */
function staleCrdFiles(
  projectDir: string,
  outputDir: string,
  generated: readonly GeneratedFile[],
): string[] {
  const dir = resolve(projectDir, outputDir);
  // A missing output folder, or a file in its place (refused when there is a CRD to write).
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const wanted = new Set(generated.map((f) => f.path));
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name) && isFile(join(dir, name)))
    .map((name) => `${outputDir}/${name}`)
    .filter((path) => !wanted.has(path))
    .filter((path) =>
      /^kind:\s*CustomResourceDefinition\s*$/m.test(readProjectFile(projectDir, path) ?? ""),
    )
    .sort();
}

/** The webhook manifests file when no marker generates it any more (and it holds configurations). */
function staleWebhookFile(projectDir: string, found: boolean): string | undefined {
  const path = join(projectDir, DEFAULT_WEBHOOK_OUTPUT);
  if (found || !existsSync(path) || !statSync(path).isFile()) return undefined;
  const text = readFileSync(path, "utf8");
  return text && /^kind:\s*(Mutating|Validating)WebhookConfiguration\s*$/m.test(text)
    ? DEFAULT_WEBHOOK_OUTPUT
    : undefined;
}

export async function runManifests(
  opts: ManifestsOptions,
  io: ManifestsIo = processIo,
): Promise<void> {
  const projectDir = opts.projectDir ?? process.cwd();
  const outputDir = (opts.outputDir ?? DEFAULT_CRD_OUTPUT).replace(/\/+$/, "");
  // Outside a project with nothing to read, writing config/ here would only litter the folder.
  const inputs = [...(opts.paths ?? ["src/api"]), ...(opts.rbacPaths ?? ["src"])];
  if (
    !existsSync(join(projectDir, "PROJECT")) &&
    !inputs.some((p) => existsSync(join(projectDir, p)))
  ) {
    throw new CliError(
      `nothing to generate in ${projectDir}: no PROJECT file and no ${inputs.join(" or ")} folder; run opgen manifests in an opgen project (or pass --paths)`,
    );
  }
  // A mistyped --paths must not read as "no kinds" (and, with --prune, delete every CRD).
  const badPaths = [
    ...badSourcePaths(projectDir, opts.paths ?? [], "--paths"),
    ...badSourcePaths(projectDir, opts.rbacPaths ?? [], "--rbac-paths"),
  ];
  if (badPaths.length) throw new CliErrors(badPaths.map((p) => `${p}; nothing was written`));
  const sources = await ProjectSources.create(projectDir);
  const crd = await generateCrds({
    projectDir,
    paths: opts.paths,
    outputDir,
    maxDescLen: opts.maxDescLen,
    sources,
  });
  const rbac = await generateRbac({
    projectDir,
    paths: opts.rbacPaths,
    roleName: opts.roleName,
    output: opts.rbacOutput,
    report: opts.rbacReport,
    sources,
  });
  const webhooks = await generateWebhooks({ projectDir, sources });
  // Samples are checked against CRDs that generated cleanly; against broken ones it is noise.
  const samples = crd.diagnostics.some((d) => d.severity === "error")
    ? []
    : await checkSamples(
        projectDir,
        crd.crds.map((c) => c.object),
      );

  // sortDiagnostics drops repeats: a file under both the API and the RBAC paths reports once.
  const diagnostics: Diagnostic[] = sortDiagnostics([
    ...crd.diagnostics,
    ...rbac.diagnostics,
    ...webhooks.diagnostics,
    ...samples,
  ]);
  for (const d of diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (errors || (opts.strict && warnings)) {
    const parts = [
      errors ? `${errors} error${errors === 1 ? "" : "s"}` : "",
      opts.strict && warnings ? `${warnings} warning${warnings === 1 ? "" : "s"} (--strict)` : "",
    ];
    throw new CliError(`manifests: ${parts.filter(Boolean).join(" and ")}; nothing was written`);
  }
  if (opts.rbacReport && rbac.report)
    io.out(rbac.report.endsWith("\n") ? rbac.report : `${rbac.report}\n`);

  const files = [...crd.files, ...rbac.files, ...webhooks.files];
  const staleWebhooks = staleWebhookFile(projectDir, webhooks.found);
  const stale = staleCrdFiles(projectDir, outputDir, crd.files);
  if (opts.prune && !opts.check && crd.files.length === 0 && stale.length > 0) {
    throw new CliError(
      `--prune: no @resource kind was found under ${(opts.paths ?? ["src/api"]).join(", ")}, so it would remove every CRD in ${outputDir} (${stale.length}); check --paths, nothing was removed or written`,
    );
  }
  if (!crd.files.length)
    io.err(`opgen: no @resource kind found under ${(opts.paths ?? ["src/api"]).join(", ")}\n`);

  // A folder where a file goes (or a file where a folder must be) is said before any compare.
  checkOutputPaths(
    projectDir,
    files.map((f) => f.path),
  );
  if (opts.check) {
    let dirty = 0;
    for (const file of files) {
      const diff = unifiedDiff(file.path, readProjectFile(projectDir, file.path), file.content);
      if (diff) {
        dirty++;
        io.out(diff);
      }
    }
    for (const path of stale) {
      dirty++;
      io.out(`${path}: stale, no kind generates it (opgen manifests --prune removes it)\n`);
    }
    if (staleWebhooks) {
      dirty++;
      io.out(
        `${staleWebhooks}: stale, no @webhook marker generates it; delete it (and its entry in config/webhook/kustomization.yaml) or restore the markers\n`,
      );
    }
    if (dirty)
      throw new CliError(
        `manifests --check: ${dirty} file${dirty === 1 ? " is" : "s are"} out of date; run opgen manifests`,
      );
    io.err("opgen: manifests are up to date\n");
    return;
  }

  const changed = files.filter((f) => readProjectFile(projectDir, f.path) !== f.content);
  writeFilesAtomically(projectDir, changed);
  for (const f of changed) io.err(`opgen: wrote ${f.path}\n`);
  if (opts.prune && stale.length) {
    removeFiles(projectDir, stale);
    for (const path of stale) io.err(`opgen: removed ${path}\n`);
  } else {
    for (const path of stale)
      io.err(`opgen: ${path} is stale: no kind generates it (--prune removes it)\n`);
  }
  if (staleWebhooks)
    io.err(
      `opgen: ${staleWebhooks} is stale: no @webhook marker generates it; left as is (as controller-gen leaves it), delete it if the webhooks are gone\n`,
    );
  if (!changed.length && !(opts.prune && stale.length)) io.err("opgen: manifests are up to date\n");
}
