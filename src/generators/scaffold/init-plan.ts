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
}

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
    plan.create(target, renderTemplate(template, data));
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
