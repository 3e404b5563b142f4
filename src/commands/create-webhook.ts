/** `opgen create webhook`: add defaulting, validating or conversion webhooks to a kind. */
import { resolve } from "node:path";
import { planCreateWebhook } from "../generators/scaffold/webhook-plan.js";
import { readProject } from "../project/project-file.js";
import { validateGroup, validateKind, validateVersion } from "../util/naming.js";

export interface CreateWebhookFlags {
  group: string;
  version: string;
  kind: string;
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
  /** Comma-separated, possibly repeated (`--spoke v2,v3` or `--spoke v2 --spoke v3`). */
  spoke?: string[];
  defaultingPath?: string;
  validationPath?: string;
  force?: boolean;
}

export async function runCreateWebhook(
  flags: CreateWebhookFlags,
  cwd = process.cwd(),
): Promise<void> {
  const root = resolve(cwd);
  const project = readProject(root);
  validateGroup(flags.group, project.domain);
  validateVersion(flags.version);
  validateKind(flags.kind);
  const spoke = [
    ...new Set((flags.spoke ?? []).flatMap((s) => s.split(",")).map((s) => s.trim())),
  ].filter((s) => s !== "");

  const { plan, kept } = planCreateWebhook(root, project, {
    group: flags.group,
    version: flags.version,
    kind: flags.kind,
    defaulting: flags.defaulting === true,
    validation: flags.programmaticValidation === true,
    conversion: flags.conversion === true,
    spoke,
    defaultingPath: flags.defaultingPath,
    validationPath: flags.validationPath,
    force: flags.force === true,
  });
  plan.write(root);
  for (const file of plan.list()) {
    process.stdout.write(`${file.action === "create" ? "created" : "updated"} ${file.path}\n`);
  }
  for (const file of kept) {
    process.stdout.write(`kept ${file} (pass --force to scaffold it again)\n`);
  }
  process.stdout.write(
    "Next: implement your new webhook, then run `npm run manifests` to generate config/webhook/manifests.yaml, and `npm test`.\n",
  );
}
