/**
 * Webhooks under `opgen dev`, the local loop without cert-manager: what the project serves
 * (config/webhook's configurations, config/crd/patches' conversion patches, PROJECT's `webhooks:`)
 * and the paths they call, and the operator flags that point its webhook server at the certificate
 * @opgen/envtest minted. The calls reach it through opgen dev's relay (webhook-relay.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ProjectConfig } from "../project/project-file.js";
import { CliError } from "../util/errors.js";
import type { WebhookEndpoint } from "./webhook-readiness.js";

/** What `opgen dev` does about webhooks. */
export type DevWebhooks =
  | { mode: "none" }
  /** ENABLE_WEBHOOKS=false: the scaffolded main.ts registers none, so none are installed. */
  | { mode: "disabled" }
  | {
      mode: "on";
      /** Handed to startTestEnv's `webhooks.paths` (Kubebuilder's config/webhook, config/crd/patches). */
      paths: string[];
      /** Names of the Mutating/ValidatingWebhookConfigurations installed. */
      configurations: string[];
      /** Names of the CRDs converted through the operator's /convert. */
      conversions: string[];
      /** The paths those call on the operator's webhook server. */
      endpoints: WebhookEndpoint[];
    };

const MANIFESTS = "config/webhook/manifests.yaml";

/**
 * Reads the project's webhook manifests before anything starts, so a file that does not parse is
 * one line and nothing is left running.
 */
export async function findDevWebhooks(
  root: string,
  project: ProjectConfig,
  env: NodeJS.ProcessEnv,
): Promise<DevWebhooks> {
  const declared = project.resources.filter((r) => r.webhooks);
  const manifests = join(root, MANIFESTS);
  const patchesDir = join(root, "config/crd/patches");
  const hasManifests = existsSync(manifests);
  const hasPatches = existsSync(patchesDir);
  if (declared.length === 0 && !hasManifests) return { mode: "none" };
  if (env.ENABLE_WEBHOOKS === "false") return { mode: "disabled" };
  const admission = declared.filter((r) => r.webhooks?.defaulting || r.webhooks?.validation);
  if (admission.length > 0 && !hasManifests) {
    throw new CliError(
      `PROJECT declares webhooks for ${admission.map((r) => `${r.kind} ${r.version}`).join(", ")} but ${MANIFESTS} does not exist: run opgen manifests (or drop --no-build) and opgen dev again`,
    );
  }
  const paths = [
    ...(hasManifests ? [join(root, "config/webhook")] : []),
    ...(hasPatches ? [patchesDir] : []),
  ];
  const { readConversionPatches, readWebhookManifests } = await import("@opgen/envtest");
  try {
    const manifests = readWebhookManifests(paths);
    const patches = readConversionPatches(paths);
    return {
      mode: "on",
      paths,
      configurations: manifests.map((o) => `${o.metadata?.name}`),
      conversions: [...patches.keys()],
      endpoints: endpointsOf(manifests, patches),
    };
  } catch (e) {
    throw new CliError(
      `cannot read the webhook manifests: ${firstLine(e)}; fix the file (or run opgen manifests) and run opgen dev again`,
    );
  }
}

type Manifest = { metadata?: { name?: string }; webhooks?: unknown };

/**
 * The path each webhook and conversion calls, as envtest rewrites their clientConfig for local
 * serving: a service's path, a URL's path, else `/` (admission) or `/convert` (conversion).
 */
function endpointsOf(
  manifests: readonly Manifest[],
  patches: ReadonlyMap<string, Record<string, unknown>>,
): WebhookEndpoint[] {
  const out = new Map<string, WebhookEndpoint>();
  const add = (clientConfig: unknown, fallback: string, what: string) => {
    const path = pathOf(clientConfig, fallback);
    if (!out.has(path)) out.set(path, { path, what });
  };
  for (const m of manifests) {
    for (const hook of Array.isArray(m.webhooks) ? m.webhooks : []) {
      const h = (hook ?? {}) as { name?: unknown; clientConfig?: unknown };
      add(h.clientConfig, "/", String(h.name ?? m.metadata?.name));
    }
  }
  for (const [crd, conversion] of patches) {
    const webhook = (conversion.webhook ?? {}) as { clientConfig?: unknown };
    if (conversion.strategy === "Webhook")
      add(webhook.clientConfig, "/convert", `conversion of ${crd}`);
  }
  return [...out.values()];
}

function pathOf(clientConfig: unknown, fallback: string): string {
  const c = (clientConfig ?? {}) as { service?: { path?: unknown }; url?: unknown };
  if (c.service) return typeof c.service.path === "string" && c.service.path ? c.service.path : "/";
  if (typeof c.url === "string") {
    try {
      return new URL(c.url).pathname;
    } catch {
      return fallback;
    }
  }
  return fallback;
}

/**
 * The flags that put the webhook server on envtest's certificate and port (Kubebuilder's
 * main.go flags), bound to the serving host only: a local loop must not listen on every
 * interface.
 */
export function webhookServerArgs(serving: {
  certDir: string;
  port: number;
  host: string;
}): string[] {
  return [
    "--webhook-cert-path",
    serving.certDir,
    "--webhook-port",
    String(serving.port),
    "--webhook-host",
    serving.host,
  ];
}

/** The line `opgen dev` prints once the operator's webhook server answers over TLS. */
export function webhooksReadyLine(
  url: string,
  webhooks: { configurations: string[]; conversions: string[] },
): string {
  const what = [
    ...webhooks.configurations,
    ...webhooks.conversions.map((crd) => `conversion of ${crd}`),
  ];
  return `webhooks ready at ${url}${what.length > 0 ? ` (${what.join(", ")})` : ""}\n`;
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return (message.split("\n")[0] ?? message).trim();
}
