/**
 * controller-gen's `Generate` (controller-tools pkg/webhook/parser.go) over the collected
 * markers: each `@webhook` built into a MutatingWebhook or ValidatingWebhook, the webhooks of each
 * kind sorted by name (byte order; ties in file and source order, a total order where upstream's
 * unstable sort across packages is not), and one MutatingWebhookConfiguration then one
 * ValidatingWebhookConfiguration, each only when it has webhooks, named by
 * `@webhookconfiguration` or `mutating-webhook-configuration` / `validating-webhook-configuration`.
 */
import type { ParsedMarker, SourcePos } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import { compareGoStrings } from "../../util/go-strings.js";
import { buildWebhook, type WebhookObject } from "./webhook.js";

export const ADMISSION_API_VERSION = "admissionregistration.k8s.io/v1";

export interface WebhookConfiguration {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration";
  metadata: { name: string };
  webhooks: WebhookObject[];
}

/** A configuration with where each part came from, for messages. */
export interface LocatedConfiguration {
  object: WebhookConfiguration;
  /** The `@webhookconfiguration` marker that named it, if any. */
  namedAt?: SourcePos;
  /** The marker of each webhook, index for index. */
  positions: SourcePos[];
}

export interface BuiltConfigurations {
  configurations: LocatedConfiguration[];
  diagnostics: Diagnostic[];
}

const DEFAULT_NAMES = {
  mutating: "mutating-webhook-configuration",
  validating: "validating-webhook-configuration",
} as const;

function error(pos: SourcePos, label: string, message: string): Diagnostic {
  return {
    severity: "error",
    file: pos.file,
    line: pos.line,
    column: pos.column,
    message: `${label}: ${message}`,
  };
}

function comparePositions(a: SourcePos, b: SourcePos): number {
  return compareGoStrings(a.file, b.file) || a.line - b.line || a.column - b.column;
}

/** The configuration names; a second, different name for the same kind is an error. */
function configurationNames(markers: readonly ParsedMarker[], diagnostics: Diagnostic[]) {
  const named: Partial<Record<"mutating" | "validating", { name: string; pos: SourcePos }>> = {};
  for (const marker of [...markers].sort((a, b) => comparePositions(a.pos, b.pos))) {
    const kind = marker.args.mutating === true ? "mutating" : "validating";
    const name = String(marker.args.name ?? "") || DEFAULT_NAMES[kind];
    const earlier = named[kind];
    if (earlier && earlier.name !== name) {
      diagnostics.push(
        error(
          marker.pos,
          "@webhookconfiguration",
          `duplicate ${kind} configuration name ${name}: ${earlier.pos.file}:${earlier.pos.line} already names it ${earlier.name}; keep one @webhookconfiguration mutating=${kind === "mutating"}`,
        ),
      );
      continue;
    }
    named[kind] ??= { name, pos: marker.pos };
  }
  return named;
}

/**
 * Builds the configurations of `webhookMarkers` as controller-gen would write them; markers with
 * an error are reported and left out (the caller writes nothing when there are errors).
 */
export function buildConfigurations(
  webhookMarkers: readonly ParsedMarker[],
  configurationMarkers: readonly ParsedMarker[],
): BuiltConfigurations {
  const diagnostics: Diagnostic[] = [];
  const names = configurationNames(configurationMarkers, diagnostics);
  const built: Record<"mutating" | "validating", { webhook: WebhookObject; pos: SourcePos }[]> = {
    mutating: [],
    validating: [],
  };
  for (const marker of webhookMarkers) {
    const result = buildWebhook(marker.args);
    if (!result.ok) {
      for (const message of result.errors) diagnostics.push(error(marker.pos, "@webhook", message));
      continue;
    }
    const kind = result.value.mutating ? "mutating" : "validating";
    built[kind].push({ webhook: result.value.webhook, pos: marker.pos });
  }

  const configurations: LocatedConfiguration[] = [];
  for (const kind of ["mutating", "validating"] as const) {
    const hooks = built[kind].sort(
      (a, b) => compareGoStrings(a.webhook.name, b.webhook.name) || comparePositions(a.pos, b.pos),
    );
    if (!hooks.length) continue;
    const named = names[kind];
    configurations.push({
      object: {
        apiVersion: ADMISSION_API_VERSION,
        kind:
          kind === "mutating" ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration",
        metadata: { name: named?.name ?? DEFAULT_NAMES[kind] },
        webhooks: hooks.map((h) => h.webhook),
      },
      ...(named ? { namedAt: named.pos } : {}),
      positions: hooks.map((h) => h.pos),
    });
  }
  return { configurations, diagnostics };
}
