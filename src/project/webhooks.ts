/**
 * The `webhooks:` entry of a PROJECT resource: reading it back, and merging a `create webhook` run
 * into it with Kubebuilder's rules (pkg/model/resource/webhooks.go `Update`): booleans OR-ed,
 * spokes unioned, custom paths replaced only when given, webhookVersion always v1.
 */
import { CliError } from "../util/errors.js";
import type { ProjectResource, ProjectWebhooks } from "./project-file.js";

/** What one `opgen create webhook` run asks for. */
export interface WebhookRequest {
  defaulting: boolean;
  validation: boolean;
  conversion: boolean;
  spoke: string[];
  defaultingPath?: string;
  validationPath?: string;
}

export const WEBHOOK_VERSION = "v1";

/** The resource's webhooks as recorded, checked for shape (a hand-edited PROJECT may be wrong). */
export function readWebhooks(
  resource: ProjectResource,
  source = "PROJECT",
): ProjectWebhooks | undefined {
  const raw = resource.webhooks as unknown;
  if (raw === undefined || raw === null) return undefined;
  const where = `${source}: webhooks of ${resource.group}/${resource.version}, Kind ${resource.kind}`;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new CliError(`${where} is not a mapping; fix PROJECT and run again`);
  }
  const w = raw as Record<string, unknown>;
  for (const key of ["conversion", "defaulting", "validation"]) {
    if (w[key] !== undefined && typeof w[key] !== "boolean") {
      throw new CliError(`${where}: "${key}" must be true or false; fix PROJECT and run again`);
    }
  }
  for (const key of ["defaultingPath", "validationPath"]) {
    if (w[key] !== undefined && typeof w[key] !== "string") {
      throw new CliError(`${where}: "${key}" must be a string; fix PROJECT and run again`);
    }
  }
  if (
    w.spoke !== undefined &&
    !(Array.isArray(w.spoke) && w.spoke.every((s) => typeof s === "string"))
  ) {
    throw new CliError(`${where}: "spoke" must be a list of versions; fix PROJECT and run again`);
  }
  const version = w.webhookVersion ?? WEBHOOK_VERSION;
  if (version !== WEBHOOK_VERSION) {
    throw new CliError(
      `${where}: webhookVersion ${JSON.stringify(version)} is not supported (only v1); fix PROJECT and run again`,
    );
  }
  return normalize({
    conversion: w.conversion as boolean | undefined,
    defaulting: w.defaulting as boolean | undefined,
    defaultingPath: w.defaultingPath as string | undefined,
    spoke: w.spoke as string[] | undefined,
    validation: w.validation as boolean | undefined,
    validationPath: w.validationPath as string | undefined,
    webhookVersion: WEBHOOK_VERSION,
  });
}

/**
 * The webhook types of `request` the resource has already ("defaulting", "validation",
 * "conversion"), in that order: without --force, each one refuses the run.
 */
export function existingWebhookTypes(
  current: ProjectWebhooks | undefined,
  request: WebhookRequest,
): ("defaulting" | "validation" | "conversion")[] {
  if (!current) return [];
  const out: ("defaulting" | "validation" | "conversion")[] = [];
  if (request.defaulting && current.defaulting) out.push("defaulting");
  if (request.validation && current.validation) out.push("validation");
  if (request.conversion && current.conversion) out.push("conversion");
  return out;
}

/** Kubebuilder's merge of a run into the recorded webhooks. */
export function mergeWebhooks(
  current: ProjectWebhooks | undefined,
  request: WebhookRequest,
): ProjectWebhooks {
  const spoke = [...(current?.spoke ?? [])];
  for (const s of request.spoke) if (!spoke.includes(s)) spoke.push(s);
  return normalize({
    conversion: (current?.conversion ?? false) || request.conversion,
    defaulting: (current?.defaulting ?? false) || request.defaulting,
    defaultingPath: request.defaultingPath ?? current?.defaultingPath,
    spoke,
    validation: (current?.validation ?? false) || request.validation,
    validationPath: request.validationPath ?? current?.validationPath,
    webhookVersion: WEBHOOK_VERSION,
  });
}

/** Drops false and empty values, as Kubebuilder's PROJECT leaves them out. */
function normalize(w: ProjectWebhooks): ProjectWebhooks {
  const out: ProjectWebhooks = { webhookVersion: WEBHOOK_VERSION };
  if (w.conversion) out.conversion = true;
  if (w.defaulting) out.defaulting = true;
  if (w.defaultingPath) out.defaultingPath = w.defaultingPath;
  if (w.spoke && w.spoke.length > 0) out.spoke = [...w.spoke];
  if (w.validation) out.validation = true;
  if (w.validationPath) out.validationPath = w.validationPath;
  return out;
}
