/** `opgen init`: scaffold a new operator project into the current (empty) directory. */
import { readdirSync } from "node:fs";
import { basename, resolve } from "node:path";
import { generateRbac } from "../generators/rbac/index.js";
import { type License, resolveDependencySpecs } from "../generators/scaffold/context.js";
import { planInit } from "../generators/scaffold/init-plan.js";
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

  // Dotfiles (.git, .idea, ...) are fine; anything else means this is not a new project.
  const present = readdirSync(root).filter((name) => !name.startsWith("."));
  if (present.length > 0) {
    const shown = present.slice(0, 3).join(", ") + (present.length > 3 ? ", ..." : "");
    throw new CliError(`${root} is not empty (${shown}): run opgen init in a new, empty directory`);
  }

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
  });
  plan.write(root);
  process.stdout.write(`Scaffolded ${projectName} (${plan.list().length} files) in ${root}\n`);

  if (!flags.skipInstall) await npmInstall(root);
  process.stdout.write(
    `Next: define a resource with:\n$ npx opgen create api --group <group> --version v1 --kind <Kind>\n`,
  );
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
