/** `opgen create api`: add a kind (types, controller, test, sample, roles) to the project. */
import { resolve } from "node:path";
import { apiDir, planApiSample, planCreateApi } from "../generators/scaffold/api-plan.js";
import { checkNewKind } from "../generators/scaffold/kind-name.js";
import { hasStorageVersion } from "../generators/scaffold/storage-version-edit.js";
import { type ProjectConfig, readProject } from "../project/project-file.js";
import {
  lowerKind,
  pluralOf,
  validateGroup,
  validateKind,
  validatePlural,
  validateVersion,
} from "../util/naming.js";
import { readProjectFile } from "../util/read-file.js";

export interface CreateApiFlags {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced: boolean;
  resource: boolean;
  controller: boolean;
  force?: boolean;
}

export async function runCreateApi(flags: CreateApiFlags, cwd = process.cwd()): Promise<void> {
  const root = resolve(cwd);
  const project = readProject(root);
  validateGroup(flags.group, project.domain);
  validateVersion(flags.version);
  validateKind(flags.kind);
  checkNewKind(flags.kind);
  const plural = flags.plural ?? pluralOf(flags.kind);
  validatePlural(plural);

  const options = { ...flags, plural };
  const plan = planCreateApi(root, project, options);
  // Without --force an existing file stops the command before the sample's CRD is generated.
  if (!flags.force) plan.checkConflicts(root);
  const sample = options.resource ? await planApiSample(root, project, options, plan) : undefined;
  if (flags.force) plan.overwriteExisting(root);
  plan.write(root);
  for (const file of plan.list()) {
    process.stdout.write(`${file.action === "create" ? "created" : "updated"} ${file.path}\n`);
  }
  // A sample the CRD would refuse is written with TODO notes, and said so, never silently.
  for (const problem of sample?.problems ?? [])
    process.stderr.write(`opgen: warning: ${sample!.path}: ${problem}; edit the sample by hand\n`);
  const unstored = flags.resource ? versionsWithoutStorage(root, readProject(root), flags) : [];
  if (unstored.length > 1) {
    // controller-gen refuses a multi-version CRD with no storage version; say so before it does.
    const [hub, ...spokes] = unstored;
    process.stdout.write(
      `Next: ${flags.kind} now has versions ${unstored.join(", ")}: mark the one the API server stores @storageversion ` +
        `(\`opgen create webhook --group ${flags.group} --version ${hub} --kind ${flags.kind} --conversion --spoke ${spokes.join(",")}\` ` +
        `marks ${hub} and converts between them), then run \`npm run manifests\` and \`npm test\`.\n`,
    );
    return;
  }
  process.stdout.write(
    `Next: edit the types, then run \`npm run manifests\` to generate the CRD and RBAC, and \`npm test\`.\n`,
  );
}

/** The kind's API versions in PROJECT when none of their types files says @storageversion, else []. */
function versionsWithoutStorage(
  root: string,
  project: ProjectConfig,
  flags: { group: string; kind: string },
): string[] {
  const versions = project.resources
    .filter((r) => r.group === flags.group && r.kind === flags.kind && r.api)
    .map((r) => r.version);
  const marked = versions.some((version) => {
    const file = `${apiDir(project, flags.group, version)}/${lowerKind(flags.kind)}.types.ts`;
    const text = readProjectFile(root, file);
    return text !== undefined && hasStorageVersion(text, flags.kind);
  });
  return marked ? [] : versions;
}
