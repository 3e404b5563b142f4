/**
 * The webhook generator behind `opgen manifests`: reads the `@webhook` and
 * `@webhookconfiguration` markers of the project's sources and returns
 * `config/webhook/manifests.yaml` laid out exactly as `controller-gen webhook` writes it. What
 * controller-gen or kube-apiserver would refuse is an error at its marker, and then nothing is
 * returned. Without any webhook marker there is no file, as controller-gen writes none.
 */
import type { Diagnostic } from "../../source/diagnostics.js";
import { listSourceFiles } from "../../source/project-files.js";
import { ProjectSources } from "../../source/project-sources.js";
import { toYamlDocuments } from "../../util/yaml.js";
import type { GeneratedFile } from "../types.js";
import { collectWebhookMarkers } from "./collect.js";
import { buildConfigurations, type WebhookConfiguration } from "./configurations.js";
import { kubeProblems } from "./kube-checks.js";

export interface GenerateWebhooksOptions {
  /** The project root; every other path is relative to it. */
  projectDir: string;
  /** Folders (or files) scanned for markers; default `["src"]`. */
  paths?: readonly string[];
  /** Where the configurations are written; default `config/webhook/manifests.yaml`. */
  output?: string;
  /** The run's parsed sources, shared with the other generators; created when absent. */
  sources?: ProjectSources;
}

export interface GenerateWebhooksResult {
  /** The manifests file; empty without webhook markers, or when a marker has an error. */
  files: GeneratedFile[];
  /** Marker errors, `path:line:col` with 1-based positions. */
  diagnostics: Diagnostic[];
  /** Whether any `@webhook` marker was found (errors or not). */
  found: boolean;
  /** The configuration objects, mutating first (what `files` holds when there is no error). */
  configurations: WebhookConfiguration[];
}

export const DEFAULT_WEBHOOK_OUTPUT = "config/webhook/manifests.yaml";

export async function generateWebhooks(
  opts: GenerateWebhooksOptions,
): Promise<GenerateWebhooksResult> {
  const output = opts.output || DEFAULT_WEBHOOK_OUTPUT;
  const paths = listSourceFiles(opts.projectDir, opts.paths ?? ["src"]);
  if (paths.length === 0) return { files: [], diagnostics: [], found: false, configurations: [] };
  const sources = opts.sources ?? (await ProjectSources.create(opts.projectDir));
  const collected = collectWebhookMarkers(sources, paths);
  const built = buildConfigurations(collected.webhooks, collected.configurations);
  const diagnostics = [...collected.diagnostics, ...built.diagnostics];

  for (const { object, namedAt, positions } of built.configurations) {
    for (const problem of kubeProblems(object)) {
      const pos = problem.index === undefined ? namedAt : positions[problem.index];
      if (!pos) continue; // the default names are valid
      const where = problem.index === undefined ? "@webhookconfiguration" : "@webhook";
      const hint = problem.message.startsWith("name: Duplicate value")
        ? `; webhook names must be unique within one ${object.kind}, rename one (e.g. ${uniqueHint(object.webhooks[problem.index!]!.name)})`
        : "";
      diagnostics.push({
        severity: "error",
        ...pos,
        message: `${where}: kube-apiserver would refuse ${object.kind} ${object.metadata.name}: ${problem.message}${hint}`,
      });
    }
  }

  const configurations = built.configurations.map((c) => c.object);
  const hasErrors = diagnostics.some((d) => d.severity === "error");
  const files =
    hasErrors || configurations.length === 0
      ? []
      : [{ path: output, content: toYamlDocuments(configurations) }];
  return { files, diagnostics, found: collected.webhooks.length > 0, configurations };
}

/** A suggestion for a clashing name: `vcaptain-v1.kb.io` -> `vcaptain-v1-2.kb.io`. */
function uniqueHint(name: string): string {
  const dot = name.indexOf(".");
  return dot < 0 ? `${name}-2` : `${name.slice(0, dot)}-2${name.slice(dot)}`;
}
