/**
 * The webhook generator behind `opgen manifests`: reads the `@webhook` and
 * `@webhookconfiguration` markers of the project's sources and returns
 * `config/webhook/manifests.yaml` laid out exactly as `controller-gen webhook` writes it. What
 * controller-gen or kube-apiserver would refuse is an error at its marker, and then nothing is
 * returned. Without any webhook marker there is no file, as controller-gen writes none.
 */
import {
  defaultWebhookConfiguration,
  validateWebhookConfiguration,
} from "@opgen/apimachinery/admissionregistration";
import { type FieldError, fieldErrorString } from "@opgen/apimachinery/status";
import type { Diagnostic } from "../../source/diagnostics.js";
import { listSourceFiles } from "../../source/project-files.js";
import { ProjectSources } from "../../source/project-sources.js";
import { toYamlDocuments } from "../../util/yaml.js";
import type { GeneratedFile } from "../types.js";
import { collectWebhookMarkers } from "./collect.js";
import {
  buildConfigurations,
  type LocatedConfiguration,
  type WebhookConfiguration,
} from "./configurations.js";

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

  for (const located of built.configurations) diagnostics.push(...kubeDiagnostics(located));

  const configurations = built.configurations.map((c) => c.object);
  const hasErrors = diagnostics.some((d) => d.severity === "error");
  const files =
    hasErrors || configurations.length === 0
      ? []
      : [{ path: output, content: toYamlDocuments(configurations) }];
  return { files, diagnostics, found: collected.webhooks.length > 0, configurations };
}

/**
 * What kube-apiserver would refuse on create, each error at the marker it comes from: checked on
 * a defaulted copy (the server defaults before it validates), printed as kube prints it.
 */
function kubeDiagnostics({ object, namedAt, positions }: LocatedConfiguration): Diagnostic[] {
  const defaulted = structuredClone(object);
  defaultWebhookConfiguration(defaulted, object.kind);
  const out: Diagnostic[] = [];
  for (const error of validateWebhookConfiguration(defaulted)) {
    const index = webhookIndex(error);
    const pos = index === undefined ? namedAt : positions[index];
    if (!pos) continue; // the default configuration names are valid
    const hint =
      index !== undefined && error.type === "FieldValueDuplicate"
        ? `; webhook names must be unique within one ${object.kind}, rename one (e.g. ${uniqueHint(String(error.value))})`
        : "";
    out.push({
      severity: "error",
      ...pos,
      message: `${index === undefined ? "@webhookconfiguration" : "@webhook"}: kube-apiserver would refuse ${object.kind} ${object.metadata.name}: ${fieldErrorString(error)}${hint}`,
    });
  }
  return out;
}

/** The webhook an error's field path is in (`webhooks[2].name` -> 2); undefined for metadata. */
function webhookIndex(error: FieldError): number | undefined {
  const m = /^webhooks\[(\d+)\]/.exec(error.field);
  return m ? Number(m[1]) : undefined;
}

/** A suggestion for a clashing name: `vcaptain-v1.kb.io` -> `vcaptain-v1-2.kb.io`. */
function uniqueHint(name: string): string {
  const dot = name.indexOf(".");
  return dot < 0 ? `${name}-2` : `${name.slice(0, dot)}-2${name.slice(dot)}`;
}
