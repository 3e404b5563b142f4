/**
 * The file plan of `opgen init`: every template under templates/init rendered for the project,
 * the PROJECT file, the license boilerplate and an RBAC role for a project without controllers.
 */

import { LAYOUT, PROJECT_FILE, renderProjectFile } from "../../project/project-file.js";
import { opgenVersion } from "../../version.js";
import {
  type DependencySpecs,
  type License,
  leaderElectionId,
  licenseHeader,
  spdxLicense,
  toolVersions,
} from "./context.js";
import { FilePlan } from "./file-plan.js";
import { MERGED_IGNORE_FILES, mergeIgnoreFile } from "./init-target.js";
import { listTemplates, renderTemplate } from "./render.js";

export const BOILERPLATE_FILE = "hack/boilerplate.ts.txt";

export interface InitOptions {
  projectName: string;
  domain: string;
  owner: string;
  license: License;
  multigroup: boolean;
  specs: DependencySpecs;
  /** The manager ClusterRole for a project without @rbac markers, as `opgen manifests` writes it. */
  emptyRole: { path: string; content: string };
  /** What the folder already holds that the scaffold keeps (a README) or merges into (ignore files). */
  existing?: ExistingFiles;
}

export interface ExistingFiles {
  /** The user's README (any case, any extension): the scaffold's README.md is then not written. */
  readme?: string;
  /** The text of a file the folder holds, or undefined. */
  read(path: string): string | undefined;
}

const IGNORE_FILES: ReadonlySet<string> = new Set(MERGED_IGNORE_FILES);

export function planInit(options: InitOptions): FilePlan {
  const plan = new FilePlan();
  const header = licenseHeader(options.license, options.owner);
  const data = {
    projectName: options.projectName,
    domain: options.domain,
    header,
    spdxLicense: spdxLicense(options.license),
    leaderElectionId: leaderElectionId(options.projectName, options.domain),
    specs: options.specs,
    versions: toolVersions(),
  };
  for (const { template, target } of listTemplates("init")) {
    if (target === "README.md" && options.existing?.readme !== undefined) continue;
    const content = renderTemplate(template, data);
    const current = IGNORE_FILES.has(target) ? options.existing?.read(target) : undefined;
    if (current === undefined) plan.create(target, content);
    else {
      const merged = mergeIgnoreFile(current, content);
      if (merged !== undefined) plan.update(target, merged);
    }
  }
  if (header) plan.create(BOILERPLATE_FILE, header);
  plan.create(options.emptyRole.path, options.emptyRole.content);
  plan.create(
    PROJECT_FILE,
    renderProjectFile({
      version: "3",
      cliVersion: opgenVersion(),
      domain: options.domain,
      layout: [LAYOUT],
      projectName: options.projectName,
      multigroup: options.multigroup || undefined,
      resources: [],
    }),
  );
  return plan;
}
