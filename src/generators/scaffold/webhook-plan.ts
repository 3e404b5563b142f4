/**
 * The file plan of `opgen create webhook`: a kind's defaulting/validating webhook file and test,
 * conversion hub and spokes, main.ts registration, the config/ parts Kubebuilder scaffolds
 * (webhook Service, cert-manager, manager patch, network policy, CRD conversion patch) and the
 * `webhooks:` of PROJECT. Everything is checked before anything is written.
 */
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import { defaultWebhookPath, webhookPathProblem } from "@opgen/apimachinery/names";
import {
  findResource,
  PROJECT_FILE,
  type ProjectConfig,
  type ProjectResource,
  type ProjectWebhooks,
  renderProjectFile,
} from "../../project/project-file.js";
import {
  existingWebhookTypes,
  mergeWebhooks,
  readWebhooks,
  type WebhookRequest,
} from "../../project/webhooks.js";
import { CliError } from "../../util/errors.js";
import { lowerKind, pluralOf } from "../../util/naming.js";
import { opgenVersion } from "../../version.js";
import { apiDir } from "./api-plan.js";
import { FilePlan, readScaffoldFile } from "./file-plan.js";
import { BOILERPLATE_FILE } from "./init-plan.js";
import { registerWebhook } from "./main-ts-edit.js";
import { renderTemplate } from "./render.js";
import { addStorageVersion, hasStorageVersion } from "./storage-version-edit.js";
import {
  addResourceFirst,
  enableCrdConversionPatch,
  enableWebhookDefaults,
} from "./webhook-kustomize-edit.js";
import {
  renderImports,
  renderWebhookFile,
  type SpokeRef,
  setupFunctionName,
  updateWebhookFile,
  type WebhookSourceModel,
  type WebhookType,
} from "./webhook-source.js";

export interface WebhookOptions extends WebhookRequest {
  group: string;
  version: string;
  kind: string;
  force: boolean;
}

export interface WebhookPlan {
  plan: FilePlan;
  /** Files left as they were (kept without --force), for the command's output. */
  kept: string[];
}

const MAIN_TS = "src/main.ts";
const CONVERT_PATH = "/convert";

/** The folder of a group-version's webhooks, relative to the project root. */
export function webhookDir(project: ProjectConfig, group: string, version: string): string {
  return project.multigroup ? `src/webhooks/${group}/${version}` : `src/webhooks/${version}`;
}

/** `./x.js`-style module specifier of `target` (a .ts path) as imported from `fromFile`. */
function moduleFrom(fromFile: string, target: string): string {
  const rel = posix.relative(posix.dirname(fromFile), target).replace(/\.ts$/, ".js");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** v1 → V1, v2beta1 → V2beta1: a version as part of an identifier. */
function versionSuffix(version: string): string {
  return version.charAt(0).toUpperCase() + version.slice(1);
}

function validateFlags(o: WebhookOptions): void {
  if (!o.defaulting && !o.validation && !o.conversion) {
    throw new CliError(
      "opgen create webhook requires at least one of --defaulting, --programmatic-validation and --conversion",
    );
  }
  if (o.defaultingPath !== undefined && !o.defaulting) {
    throw new CliError("--defaulting-path can only be used with --defaulting");
  }
  if (o.validationPath !== undefined && !o.validation) {
    throw new CliError("--validation-path can only be used with --programmatic-validation");
  }
  if (o.spoke.length > 0 && !o.conversion) {
    throw new CliError("--spoke can only be used with --conversion");
  }
  for (const [flag, path] of [
    ["--defaulting-path", o.defaultingPath],
    ["--validation-path", o.validationPath],
  ] as const) {
    if (path === undefined) continue;
    // One rule with the runtime: the stricter of controller-runtime's and the API server's.
    const problem = webhookPathProblem(path);
    if (problem) {
      throw new CliError(
        `invalid ${flag} ${JSON.stringify(path)}: ${problem} (the API server's rule for webhook service paths), e.g. /custom-mutate-appcluster`,
      );
    }
    if (path === CONVERT_PATH) {
      throw new CliError(
        `invalid ${flag} /convert: the conversion webhook is served there; choose another path`,
      );
    }
  }
  if (o.defaultingPath !== undefined && o.defaultingPath === o.validationPath) {
    throw new CliError(
      "--defaulting-path and --validation-path must differ: each path serves one webhook",
    );
  }
  for (const s of o.spoke) {
    if (!/^v\d+((alpha|beta)\d+)?$/.test(s)) {
      throw new CliError(
        `invalid spoke version ${JSON.stringify(s)}: must look like v2, v2beta1 or v1alpha2 (e.g. --spoke v2,v3)`,
      );
    }
  }
  if (o.spoke.includes(o.version)) {
    throw new CliError(
      `invalid spoke version "${o.version}": it is the hub (--version); the spokes are the other versions of the kind`,
    );
  }
}

/** The paths every resource's webhooks are served on, to refuse a clash. */
function servedPaths(project: ProjectConfig, skip: ProjectResource): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of project.resources) {
    if (r === skip) continue;
    const w = readWebhooks(r);
    if (!w) continue;
    const qg = `${r.group}.${r.domain || project.domain}`;
    const name = `${r.group}/${r.version}, Kind ${r.kind}`;
    if (w.defaulting) {
      out.set(
        w.defaultingPath ?? defaultWebhookPath("mutate", qg, r.version, lowerKind(r.kind)),
        name,
      );
    }
    if (w.validation) {
      out.set(
        w.validationPath ?? defaultWebhookPath("validate", qg, r.version, lowerKind(r.kind)),
        name,
      );
    }
  }
  return out;
}

export function planCreateWebhook(
  root: string,
  project: ProjectConfig,
  options: WebhookOptions,
): WebhookPlan {
  validateFlags(options);
  const { group, version, kind, force } = options;
  const { resource, qualifiedGroup, lower, plural, typesFile, current, merged, spokes } =
    resolveWebhookRequest(root, project, options);
  const read = (path: string): string => readScaffoldFile(root, path);
  const exists = (path: string) => existsSync(join(root, path));
  const header = exists(BOILERPLATE_FILE) ? read(BOILERPLATE_FILE) : "";
  const plan = new FilePlan();
  const kept: string[] = [];
  /** Writes a scaffolded file: new, or overwritten with --force; otherwise it is kept. */
  const scaffold = (path: string, content: string, overwrite = force) => {
    if (!exists(path)) plan.create(path, content);
    else if (overwrite) {
      if (read(path) !== content) plan.update(path, content);
    } else kept.push(path);
  };
  const edit = (path: string, change: (text: string) => string) => {
    const text = plan.get(path)?.content ?? read(path);
    const next = change(text);
    if (next !== text) plan.update(path, next);
  };

  const hubDir = resource.path ?? apiDir(project, group, version);

  // The webhook file and its test.
  const dir = webhookDir(project, group, version);
  const webhookFile = `${dir}/${lower}.webhook.ts`;
  const hubFile = `${hubDir}/${lower}.conversion.ts`;
  const spokeRefs = (from: string): SpokeRef[] =>
    spokes.map((s) => ({
      version: s.version,
      module: moduleFrom(from, `${s.dir}/${lower}.conversion.ts`),
      name: `${kind}${versionSuffix(s.version)}Conversion`,
    }));
  const model: WebhookSourceModel = {
    header,
    kind,
    lowerKind: lower,
    version,
    qualifiedGroup,
    plural,
    typesModule: moduleFrom(webhookFile, typesFile),
    hubModule: moduleFrom(webhookFile, hubFile),
    defaulting: merged.defaulting ?? false,
    validation: merged.validation ?? false,
    conversion: merged.conversion ?? false,
    spokes: spokeRefs(webhookFile),
    defaultingPath: merged.defaultingPath,
    validationPath: merged.validationPath,
  };
  if (!exists(webhookFile) || force) {
    scaffold(webhookFile, renderWebhookFile(model), true);
  } else {
    const added: WebhookType[] = [];
    if (options.defaulting) added.push("defaulting");
    if (options.validation) added.push("validation");
    if (options.conversion) added.push("conversion");
    edit(webhookFile, (text) => updateWebhookFile(text, webhookFile, model, added));
  }

  const conversionPatch = `patches/webhook_in_${project.multigroup ? `${group}_` : ""}${plural}.yaml`;
  const testFile = `test/webhooks/${project.multigroup ? `${group}/` : ""}${version}/${lower}.webhook.test.ts`;
  const renderTest = (w: ProjectWebhooks | undefined) => {
    const testSpokes = (w?.spoke ?? []).flatMap((v) => spokes.filter((s) => s.version === v));
    return renderTemplate("webhook/webhook.test.ts.hbs", {
      header,
      kind,
      lowerKind: lower,
      version,
      qualifiedGroup,
      namespaced: resource.api?.namespaced ?? true,
      defaulting: w?.defaulting ?? false,
      validation: w?.validation ?? false,
      conversion: w?.conversion ?? false,
      typesModule: moduleFrom(testFile, typesFile),
      webhookImport: renderImports(
        new Map([
          [
            moduleFrom(testFile, webhookFile),
            [
              ...(w?.defaulting ? [`${kind}CustomDefaulter`] : []),
              ...(w?.validation ? [`${kind}CustomValidator`] : []),
              setupFunctionName(kind),
            ],
          ],
        ]),
      ),
      spokes: testSpokes.map((s) => ({
        version: s.version,
        suffix: versionSuffix(s.version),
        name: `${kind}${versionSuffix(s.version)}Conversion`,
        module: moduleFrom(testFile, `${s.dir}/${lower}.conversion.ts`),
        typesModule: moduleFrom(testFile, `${s.dir}/${lower}.types.ts`),
      })),
    });
  };
  // A test file still as scaffolded for the previous webhook types is brought up to date; one
  // the user has edited is kept (unless --force).
  const untouched =
    exists(testFile) && current !== undefined && read(testFile) === renderTest(current);
  scaffold(testFile, renderTest(merged), force || untouched);

  // Conversion: hub marker, one SpokeConversion per spoke named on the command line, storage version.
  if (options.conversion) {
    const conversion = { header, kind, lower, version, qualifiedGroup, typesFile, hubFile };
    planConversion(
      conversion,
      spokes.filter((s) => options.spoke.includes(s.version)),
      scaffold,
    );
    edit(typesFile, (text) => addStorageVersion(text, typesFile, kind));
  }

  // main.ts
  edit(MAIN_TS, (text) =>
    registerWebhook(text, MAIN_TS, {
      module: moduleFrom(MAIN_TS, webhookFile),
      setupFunction: setupFunctionName(kind),
      alias: `setup${kind}${project.multigroup ? versionSuffix(group.replace(/[.-]/g, "")) : ""}${versionSuffix(version)}WebhookWithManager`,
    }),
  );

  planConfig(plan, { exists, read, edit }, project, {
    resource,
    merged,
    force,
    conversionCrd: options.conversion ? `${plural}.${qualifiedGroup}` : undefined,
    conversionPatch: options.conversion ? conversionPatch : undefined,
  });

  const updated: ProjectResource = { ...resource, webhooks: merged };
  edit(PROJECT_FILE, () =>
    renderProjectFile({
      ...project,
      cliVersion: opgenVersion(),
      resources: project.resources.map((r) => (r === resource ? updated : r)),
    }),
  );
  return { plan, kept };
}

/** What `create webhook` asks for, checked before anything is planned: one line per mistake. */
function resolveWebhookRequest(root: string, project: ProjectConfig, options: WebhookOptions) {
  const { group, version, kind, force } = options;
  const resource = findResource(project, group, version, kind);
  if (!resource) {
    throw new CliError(
      `no API found for ${group}/${version}, Kind ${kind}: run \`opgen create api --group ${group} --version ${version} --kind ${kind}\` first`,
    );
  }
  const qualifiedGroup = `${group}.${resource.domain || project.domain}`;
  const lower = lowerKind(kind);
  const plural = resource.plural || pluralOf(kind);
  const typesFile = `${resource.path ?? apiDir(project, group, version)}/${lower}.types.ts`;
  if (!existsSync(join(root, typesFile))) {
    throw new CliError(
      `no API types for ${kind} at ${typesFile}: webhooks need the kind's types; run \`opgen create api --group ${group} --version ${version} --kind ${kind}\` with --resource=true`,
    );
  }

  const current = readWebhooks(resource);
  if (!force) {
    const existing = existingWebhookTypes(current, options);
    if (existing.length > 0) {
      throw new CliError(
        `${existing[0]} webhook already exists for ${group}/${version}, Kind ${kind}; pass --force to scaffold it again (its files are overwritten)`,
      );
    }
  }
  for (const s of options.spoke) {
    const spoke = findResource(project, group, s, kind);
    const create = `run \`opgen create api --group ${group} --version ${s} --kind ${kind} --controller=false\` first`;
    if (!spoke) {
      throw new CliError(
        `invalid spoke version "${s}": ${kind} has no API in ${group}/${s}; ${create}`,
      );
    }
    const spokeTypes = `${spoke.path ?? apiDir(project, group, s)}/${lower}.types.ts`;
    if (!existsSync(join(root, spokeTypes))) {
      throw new CliError(
        `invalid spoke version "${s}": no API types for ${kind} at ${spokeTypes}; ${create}`,
      );
    }
  }
  const merged = mergeWebhooks(current, options);
  if (merged.conversion && (merged.spoke ?? []).length === 0) {
    throw new CliError(
      `--conversion needs the versions to convert to and from the hub ${version}: add --spoke <version>[,<version>] (e.g. --spoke v2)`,
    );
  }
  const taken = servedPaths(project, resource);
  for (const [type, path] of [
    [
      "defaulting",
      merged.defaulting
        ? (merged.defaultingPath ?? defaultWebhookPath("mutate", qualifiedGroup, version, lower))
        : undefined,
    ],
    [
      "validation",
      merged.validation
        ? (merged.validationPath ?? defaultWebhookPath("validate", qualifiedGroup, version, lower))
        : undefined,
    ],
  ] as const) {
    const owner = path && taken.get(path);
    if (owner) {
      throw new CliError(
        `the ${type} webhook path ${path} is already served for ${owner}; choose another with --${type === "defaulting" ? "defaulting" : "validation"}-path`,
      );
    }
  }

  const read = (path: string): string => readScaffoldFile(root, path);
  const exists = (path: string) => existsSync(join(root, path));
  // Conversion: the hub is the storage version, so no other version may claim it.
  const spokes: { version: string; dir: string }[] = (merged.spoke ?? []).map((s) => {
    const r = findResource(project, group, s, kind);
    if (!r) {
      throw new CliError(
        `PROJECT records spoke ${s} for ${group}/${version}, Kind ${kind} but has no API ${group}/${s}; fix PROJECT or run \`opgen create api --group ${group} --version ${s} --kind ${kind} --controller=false\``,
      );
    }
    return { version: s, dir: r.path ?? apiDir(project, group, s) };
  });
  if (merged.conversion) {
    for (const other of project.resources) {
      if (other.group !== group || other.kind !== kind || other.version === version) continue;
      const otherTypes = `${other.path ?? apiDir(project, group, other.version)}/${lower}.types.ts`;
      if (exists(otherTypes) && hasStorageVersion(read(otherTypes), kind)) {
        throw new CliError(
          `${otherTypes} marks ${other.version} @storageversion, but the conversion hub ${version} must be the stored version: remove that marker, or make ${other.version} the hub (--version ${other.version})`,
        );
      }
    }
  }

  return { resource, qualifiedGroup, lower, plural, typesFile, current, merged, spokes };
}

/** The hub's marker file and one SpokeConversion file per spoke. */
function planConversion(
  c: {
    header: string;
    kind: string;
    lower: string;
    version: string;
    qualifiedGroup: string;
    typesFile: string;
    hubFile: string;
  },
  spokes: { version: string; dir: string }[],
  scaffold: (path: string, content: string) => void,
): void {
  const { header, kind, lower, version, qualifiedGroup, typesFile, hubFile } = c;
  scaffold(
    hubFile,
    renderTemplate("webhook/hub-conversion.ts.hbs", { header, kind, lowerKind: lower, version }),
  );
  for (const s of spokes) {
    const spokeFile = `${s.dir}/${lower}.conversion.ts`;
    scaffold(
      spokeFile,
      renderTemplate("webhook/spoke-conversion.ts.hbs", {
        header,
        kind,
        lowerKind: lower,
        version: s.version,
        hubVersion: version,
        qualifiedGroup,
        hubSuffix: versionSuffix(version),
        spokeSuffix: versionSuffix(s.version),
        hubTypesImport: moduleFrom(spokeFile, typesFile),
      }),
    );
  }
}

interface PlanIo {
  exists: (path: string) => boolean;
  read: (path: string) => string;
  edit: (path: string, change: (text: string) => string) => void;
}

/** Kubebuilder's kustomize/v2 webhook scaffold: files created when missing, then the edits. */
function planConfig(
  plan: FilePlan,
  io: PlanIo,
  project: ProjectConfig,
  opts: {
    resource: ProjectResource;
    merged: ProjectWebhooks;
    force: boolean;
    conversionCrd?: string;
    conversionPatch?: string;
  },
): void {
  // controller-gen writes config/webhook/manifests.yaml only when some kind has an admission webhook.
  const admission = project.resources.some((r) => {
    const w =
      r.group === opts.resource.group &&
      r.version === opts.resource.version &&
      r.kind === opts.resource.kind
        ? opts.merged
        : readWebhooks(r);
    return w?.defaulting === true || w?.validation === true;
  });
  const data = { projectName: project.projectName, crdName: opts.conversionCrd ?? "", admission };
  const created = (path: string, template: string, overwrite = false) => {
    const content = renderTemplate(`webhook/config/${template}.hbs`, data);
    if (!io.exists(path)) plan.create(path, content);
    else if (overwrite && io.read(path) !== content) plan.update(path, content);
  };
  created("config/default/manager_webhook_patch.yaml", "default/manager_webhook_patch.yaml");
  // Kubebuilder overwrites the webhook kustomization with --force.
  created("config/webhook/kustomization.yaml", "webhook/kustomization.yaml", opts.force);
  if (admission) {
    io.edit("config/webhook/kustomization.yaml", (t) =>
      addResourceFirst(t, "config/webhook/kustomization.yaml", "manifests.yaml"),
    );
  }
  created("config/webhook/service.yaml", "webhook/service.yaml");
  for (const f of [
    "issuer.yaml",
    "certificate-webhook.yaml",
    "certificate-metrics.yaml",
    "kustomization.yaml",
    "kustomizeconfig.yaml",
  ]) {
    created(`config/certmanager/${f}`, `certmanager/${f}`);
  }
  created(
    "config/network-policy/allow-webhook-traffic.yaml",
    "network-policy/allow-webhook-traffic.yaml",
  );
  if (io.exists("config/network-policy/kustomization.yaml")) {
    io.edit("config/network-policy/kustomization.yaml", (t) =>
      addResourceFirst(t, "config/network-policy/kustomization.yaml", "allow-webhook-traffic.yaml"),
    );
  }
  if (opts.conversionCrd && opts.conversionPatch) {
    created(`config/crd/${opts.conversionPatch}`, "crd/patches/webhook_in.yaml");
    created("config/crd/kustomizeconfig.yaml", "crd/kustomizeconfig.yaml");
    io.edit("config/crd/kustomization.yaml", (t) =>
      enableCrdConversionPatch(t, "config/crd/kustomization.yaml", opts.conversionPatch!),
    );
  }
  const conversionCrds = opts.conversionCrd ? [opts.conversionCrd] : [];
  io.edit("config/default/kustomization.yaml", (t) =>
    enableWebhookDefaults(t, "config/default/kustomization.yaml", {
      defaulting: opts.merged.defaulting ?? false,
      validation: opts.merged.validation ?? false,
      conversionCrds,
    }),
  );
}
