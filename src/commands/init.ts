/** `opgen init`: scaffold a new operator project into the current directory (new, or holding only a README, LICENSE and dotfiles). */
import { basename, resolve } from "node:path";
import { generateRbac } from "../generators/rbac/index.js";
import { type License, resolveDependencySpecs } from "../generators/scaffold/context.js";
import { planInit } from "../generators/scaffold/init-plan.js";
import {
  findInitBlockers,
  findReadme,
  MERGED_IGNORE_FILES,
  readExisting,
} from "../generators/scaffold/init-target.js";
import { CliError } from "../util/errors.js";
import {
  projectNameFromDir,
  validateDependencySpec,
  validateDomain,
  validateOwner,
  validateProjectName,
} from "../util/naming.js";
import { npmInstall } from "../util/npm-install.js";

export interface InitFlags {
  domain: string;
  projectName?: string;
  owner?: string;
  license: License;
  multigroup?: boolean;
  runtimeSpec?: string;
  envtestSpec?: string;
  opgenSpec?: string;
  apimachinerySpec?: string;
  skipInstall?: boolean;
}

export async function runInit(flags: InitFlags, cwd = process.cwd()): Promise<void> {
  const root = resolve(cwd);
  const projectName = flags.projectName ?? projectNameFromDir(basename(root));
  validateDomain(flags.domain);
  validateProjectName(projectName);
  if (flags.owner !== undefined) validateOwner(flags.owner);
  for (const [flag, spec] of [
    ["--runtime-spec", flags.runtimeSpec],
    ["--envtest-spec", flags.envtestSpec],
    ["--opgen-spec", flags.opgenSpec],
    ["--apimachinery-spec", flags.apimachinerySpec],
  ] as const) {
    if (spec !== undefined) validateDependencySpec(flag, spec);
  }

  const readme = findReadme(root);
  const plan = planInit({
    projectName,
    domain: flags.domain,
    owner: flags.owner ?? `The ${projectName} Authors`,
    license: flags.license,
    multigroup: flags.multigroup === true,
    specs: resolveDependencySpecs({
      runtime: flags.runtimeSpec,
      envtest: flags.envtestSpec,
      cli: flags.opgenSpec,
      apimachinery: flags.apimachinerySpec,
    }),
    emptyRole: await emptyManagerRole(root),
    existing: { readme, read: (path) => readExisting(root, path) },
  });
  // What a repository holds before its first scaffold (.git, dotfiles, *.md, LICENSE) is kept;
  // anything else, or a scaffold file that is there already, stops init before it writes.
  const conflicts = [...new Set([...findInitBlockers(root), ...plan.clashes(root)])].sort();
  if (conflicts.length > 0) throw new CliError(conflictMessage(root, conflicts));
  plan.write(root);
  const kept = readme === undefined ? [] : [`kept your ${readme}`];
  for (const file of MERGED_IGNORE_FILES) {
    if (plan.get(file)?.action === "update") kept.push(`added opgen's entries to your ${file}`);
  }
  process.stdout.write(
    `Scaffolded ${projectName} (${plan.list().length} files) in ${root}${kept.length > 0 ? `; ${kept.join(", ")}` : ""}\n`,
  );

  if (!flags.skipInstall) await npmInstall(root);
  process.stdout.write(
    `Next: define a resource with:\n$ npx opgen create api --group <group> --version v1 --kind <Kind>\n`,
  );
}

/** How many conflicting paths the message names; the rest are counted. */
const NAMED_CONFLICTS = 10;

function conflictMessage(root: string, paths: string[]): string {
  const hint = paths.includes("package.json")
    ? "; opgen init writes its own package.json, so scaffold first and add your dependencies to it after"
    : "";
  const rest = paths.length - NAMED_CONFLICTS;
  const named = `${paths.slice(0, NAMED_CONFLICTS).join(", ")}${rest > 0 ? ` and ${rest} more` : ""}`;
  return `${root} already holds ${named}: opgen init scaffolds only next to .git, dotfiles, *.md and LICENSE-like files; move ${paths.length === 1 ? "it" : "them"} away and run again${hint}`;
}

/** What `opgen manifests` writes for a project without @rbac markers, so the two always agree. */
async function emptyManagerRole(root: string): Promise<{ path: string; content: string }> {
  const output = "config/rbac/role.yaml";
  const { files } = await generateRbac({
    projectDir: root,
    paths: [],
    roleName: "manager-role",
    output,
  });
  const role = files.find((f) => f.path === output);
  if (!role) throw new Error("the RBAC generator returned no role for an empty project");
  return { path: output, content: role.content };
}
