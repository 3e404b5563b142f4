/** `opgen create api`: add a kind (types, controller, test, sample, roles) to the project. */
import { resolve } from "node:path";
import { planCreateApi } from "../generators/scaffold/api-plan.js";
import { readProject } from "../project/project-file.js";
import {
  pluralOf,
  validateGroup,
  validateKind,
  validatePlural,
  validateVersion,
} from "../util/naming.js";

export interface CreateApiFlags {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced: boolean;
  resource: boolean;
  controller: boolean;
}

export async function runCreateApi(flags: CreateApiFlags, cwd = process.cwd()): Promise<void> {
  const root = resolve(cwd);
  const project = readProject(root);
  validateGroup(flags.group, project.domain);
  validateVersion(flags.version);
  validateKind(flags.kind);
  const plural = flags.plural ?? pluralOf(flags.kind);
  validatePlural(plural);

  const plan = planCreateApi(root, project, { ...flags, plural });
  plan.write(root);
  for (const file of plan.list()) {
    process.stdout.write(`${file.action === "create" ? "created" : "updated"} ${file.path}\n`);
  }
  process.stdout.write(
    `Next: edit the types, then run \`npm run manifests\` to generate the CRD and RBAC, and \`npm test\`.\n`,
  );
}
