/**
 * The file plan of `opgen create api`: the API types, controller, test, sample and roles of a new
 * kind, plus edits at the insertion points of files that exist (main.ts, kustomizations, PROJECT).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { resourcePlural } from "@opgen/apimachinery/names";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import {
  findResource,
  PROJECT_FILE,
  type ProjectConfig,
  type ProjectResource,
  renderProjectFile,
} from "../../project/project-file.js";
import { formatDiagnostic } from "../../source/diagnostics.js";
import { CliError } from "../../util/errors.js";
import { lowerKind } from "../../util/naming.js";
import { readProjectFile } from "../../util/read-file.js";
import { opgenVersion } from "../../version.js";
import { FilePlan, readScaffoldFile } from "./file-plan.js";
import { BOILERPLATE_FILE } from "./init-plan.js";
import { addKustomizeResource } from "./kustomization-edit.js";
import { registerController } from "./main-ts-edit.js";
import { renderTemplate } from "./render.js";

export interface ApiOptions {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  resource: boolean;
  controller: boolean;
  /** Scaffold a kind PROJECT records again; the command then overwrites the files that exist. */
  force?: boolean;
}

const MAIN_TS = "src/main.ts";
const RBAC_ROLES_COMMENT =
  ' For each CRD, "Admin", "Editor" and "Viewer" roles are scaffolded by\n default, aiding admins in cluster management. Those roles are\n not used by the project itself. You can comment the following lines\n if you do not want those helpers be installed with your Project.';

/** The folder of a group-version's API types, relative to the project root. */
export function apiDir(project: ProjectConfig, group: string, version: string): string {
  return project.multigroup ? `src/api/${group}/${version}` : `src/api/${version}`;
}

/** The sample's file name in config/samples, as Kubebuilder names it. */
function sampleFile(options: { group: string; version: string; kind: string }): string {
  return `${options.group}_${options.version}_${lowerKind(options.kind)}.yaml`;
}

/**
 * Adds the new kind's sample to a `planCreateApi` plan (with --resource): its body is filled from
 * the CRD generated from the planned types, as `opgen manifests` will generate it. Returns the
 * sample's problems (fields no valid value was found for), for the command to print.
 */
export async function planApiSample(
  root: string,
  project: ProjectConfig,
  options: ApiOptions,
  plan: FilePlan,
): Promise<{ path: string; problems: string[] }> {
  const { group, version, kind } = options;
  const qualifiedGroup = `${group}.${project.domain}`;
  const dir = apiDir(project, group, version);
  const [{ plannedSources }, { generateCrds }, { renderSample }] = await Promise.all([
    import("../samples/planned-sources.js"),
    import("../crd/index.js"),
    import("../samples/sample.js"),
  ]);
  const sources = await plannedSources(root, plan.list());
  const { crds, diagnostics } = await generateCrds({ projectDir: root, paths: [dir], sources });
  // A CRD generated with errors may hold a partial schema: no sample is derived from it.
  const error = diagnostics.find((d) => d.severity === "error");
  const crd = error ? undefined : crds.find((c) => c.group === qualifiedGroup && c.kind === kind);
  const versions = (crd?.object.spec as { versions?: CrdVersion[] } | undefined)?.versions ?? [];
  const schema = versions.find((v) => v.name === version)?.schema?.openAPIV3Schema;
  const path = `config/samples/${sampleFile(options)}`;
  const sample = renderSample(schema, {
    apiVersion: `${qualifiedGroup}/${version}`,
    kind,
    name: `${lowerKind(kind)}-sample`,
    projectName: project.projectName,
  });
  const problems = [...sample.problems];
  if (!schema) {
    problems.unshift(
      `spec left empty: the CRD of ${kind} could not be generated${error ? ` (${formatDiagnostic(error)})` : ""}`,
    );
  }
  plan.create(path, sample.content);
  return { path, problems };
}

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
}

/**
 * The plan of everything `create api` writes but the sample, which needs the generated CRD
 * (`planApiSample`, async) and is added after.
 */
export function planCreateApi(root: string, project: ProjectConfig, options: ApiOptions): FilePlan {
  const { group, version, kind, plural } = options;
  const existing = findResource(project, group, version, kind);
  const qualifiedGroup = `${group}.${project.domain}`;
  const dir = apiDir(project, group, version);
  const typesFile = `${dir}/${lowerKind(kind)}.types.ts`;

  if (!options.resource && !options.controller) {
    throw new CliError("nothing to do: --resource=false and --controller=false");
  }
  if (
    existing &&
    !options.force &&
    (options.resource || existing.controller || !options.controller)
  ) {
    throw new CliError(
      `the API ${qualifiedGroup}/${version}, Kind=${kind} already exists in PROJECT; nothing was changed (pass --force to scaffold its files again)`,
    );
  }
  if (!options.resource && !existing && !existsSync(join(root, typesFile))) {
    throw new CliError(
      `no API types for ${kind} at ${typesFile}: run \`opgen create api\` with --resource=true first`,
    );
  }
  const otherVersions = project.resources.filter(
    (r) => r.group === group && r.kind === kind && r.version !== version,
  );
  const controlled = otherVersions.find((r) => r.controller);
  if (options.controller && controlled) {
    throw new CliError(
      `${kind} already has a controller (${group}/${controlled.version}); pass --controller=false to add only the ${version} API`,
    );
  }
  if (options.resource) {
    const clash = project.resources.find(
      (r) => r.group === group && r.kind === kind && r.version !== version && r.plural !== plural,
    );
    if (clash) {
      throw new CliError(
        `${kind} already exists in version ${clash.version} with plural ${clash.plural}; pass --plural ${clash.plural}`,
      );
    }
    if (!project.multigroup) {
      const other = project.resources.find((r) => r.group !== group && r.version === version);
      if (other) {
        throw new CliError(
          `this single-group project already has group ${other.group} in ${version}; create the project with \`opgen init --multigroup\` to hold several groups`,
        );
      }
    }
  }

  const plan = new FilePlan();
  const read = (path: string): string => readScaffoldFile(root, path);
  const header = readProjectFile(root, BOILERPLATE_FILE) ?? "";
  const data = {
    header,
    projectName: project.projectName,
    group,
    version,
    kind,
    plural,
    qualifiedGroup,
    lowerKind: lowerKind(kind),
    namespaced: options.namespaced,
    // `path` only when the plural is not the one the CRD generator derives from the kind
    // (controller-gen's), as Kubebuilder does.
    resourceArgs: `scope=${options.namespaced ? "Namespaced" : "Cluster"}${plural === resourcePlural(kind) ? "" : ` path=${plural}`}`,
    apiImportDir: dir.slice("src/api/".length),
  };

  if (options.resource) {
    const groupVersionFile = `${dir}/groupversion.ts`;
    if (existsSync(join(root, groupVersionFile))) {
      const text = read(groupVersionFile);
      const declared = /@groupName\s+(\S+)/.exec(text)?.[1];
      if (declared && declared !== qualifiedGroup) {
        throw new CliError(
          `${groupVersionFile} declares group ${declared}, not ${qualifiedGroup}; use --group ${declared.slice(0, -project.domain.length - 1)} or a multigroup project`,
        );
      }
    } else {
      plan.create(groupVersionFile, renderTemplate("api/groupversion.ts.hbs", data));
    }
    plan.create(typesFile, renderTemplate("api/types.ts.hbs", data));

    // The sample file itself comes from the generated CRD: planApiSample adds it.
    editKustomization(plan, read, "config/samples/kustomization.yaml", sampleFile(options));

    const crdFile = `bases/${qualifiedGroup}_${plural}.yaml`;
    editKustomization(plan, read, "config/crd/kustomization.yaml", crdFile);

    // Roles are per kind, not per version: the first version of a kind scaffolds them.
    if (otherVersions.length === 0) planKindRoles(plan, read, kind, data);
  }

  if (options.controller) {
    plan.create(
      `src/controllers/${lowerKind(kind)}.controller.ts`,
      renderTemplate("api/controller.ts.hbs", data),
    );
    plan.create(
      `test/${lowerKind(kind)}.controller.test.ts`,
      renderTemplate("api/controller.test.ts.hbs", data),
    );
    plan.update(
      MAIN_TS,
      registerController(read(MAIN_TS), MAIN_TS, {
        module: `./controllers/${lowerKind(kind)}.controller.js`,
        setupFunction: `setup${kind}Controller`,
      }),
    );
  }

  const resource: ProjectResource = {
    api: options.resource ? { crdVersion: "v1", namespaced: options.namespaced } : existing?.api,
    controller: options.controller || existing?.controller || undefined,
    domain: project.domain,
    group,
    kind,
    path: dir,
    plural,
    version,
    // Adding a controller to an existing kind keeps its `create webhook` record.
    webhooks: existing?.webhooks,
  };
  const resources = existing
    ? project.resources.map((r) => (r === existing ? resource : r))
    : [...project.resources, resource];
  plan.update(
    PROJECT_FILE,
    renderProjectFile({ ...project, cliVersion: opgenVersion(), resources }),
  );
  return plan;
}

function editKustomization(
  plan: FilePlan,
  read: (path: string) => string,
  path: string,
  entry: string,
): void {
  const text = plan.get(path)?.content ?? read(path);
  const next = addKustomizeResource(text, entry, path);
  if (next !== text) plan.update(path, next);
}

function planKindRoles(
  plan: FilePlan,
  read: (path: string) => string,
  kind: string,
  data: object,
): void {
  const roles = ["admin", "editor", "viewer"].map((r) => `${lowerKind(kind)}_${r}_role.yaml`);
  for (const [i, role] of ["admin", "editor", "viewer"].entries()) {
    plan.create(`config/rbac/${roles[i]}`, renderTemplate(`api/${role}_role.yaml.hbs`, data));
  }
  const rbacKustomization = "config/rbac/kustomization.yaml";
  let text = plan.get(rbacKustomization)?.content ?? read(rbacKustomization);
  for (const [i, role] of roles.entries()) {
    text = addKustomizeResource(text, role, rbacKustomization, {
      comment: i === 0 && !text.includes("are scaffolded by") ? RBAC_ROLES_COMMENT : undefined,
    });
  }
  plan.update(rbacKustomization, text);
}
