/**
 * Webhooks under `opgen dev`, the local loop without cert-manager: what the project serves
 * (config/webhook's configurations, config/crd/patches' conversion patches, PROJECT's `webhooks:`),
 * the operator flags that point its webhook server at the certificate @opgen/envtest minted, and
 * the wait for that server to answer, so `opgen dev` can say when webhooks are ready.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ProjectConfig } from "../project/project-file.js";
import { CliError } from "../util/errors.js";

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
  let configurations: string[];
  let conversions: string[];
  try {
    configurations = readWebhookManifests(paths).map((o) => `${o.metadata?.name}`);
    conversions = [...readConversionPatches(paths).keys()];
  } catch (e) {
    throw new CliError(
      `cannot read the webhook manifests: ${firstLine(e)}; fix the file (or run opgen manifests) and run opgen dev again`,
    );
  }
  return { mode: "on", paths, configurations, conversions };
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

export interface ServingEndpoint {
  host: string;
  port: number;
  caBundle: Buffer;
  url(path: string): string;
}

/**
 * Resolves true once the webhook server completes a TLS handshake trusting the CA, false when
 * `timeoutMs` passes or `signal` aborts first. Short dials (envtest's waitForWebhookServer), so
 * nothing keeps opgen dev alive for long after an abort.
 */
export async function webhookServerAnswers(
  serving: ServingEndpoint,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const { waitForWebhookServer } = await import("@opgen/envtest");
  const deadline = Date.now() + timeoutMs;
  while (!signal.aborted && Date.now() < deadline) {
    try {
      await waitForWebhookServer(serving, 250);
      return true;
    } catch {
      // not listening yet: dial again until the deadline
    }
  }
  return false;
}

/**
 * Prints the ready line once the operator's webhook server answers, or one line saying it does not
 * after `timeoutMs` (opgen dev keeps running: the operator may still be starting, and its log
 * says why); nothing once `signal` aborts (opgen dev is stopping).
 */
export async function announceWebhooksWhenServed(
  serving: ServingEndpoint,
  webhooks: { configurations: string[]; conversions: string[] },
  timeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  const up = await webhookServerAnswers(serving, timeoutMs, signal);
  if (signal.aborted) return;
  const url = serving.url("/").replace(/\/$/, "");
  if (up) process.stdout.write(webhooksReadyLine(url, webhooks));
  else
    process.stderr.write(
      `opgen: the operator's webhook server does not answer at ${url} after ${timeoutMs / 1000} s, so webhook calls fail: call the setup<Kind>WebhookWithManager(mgr) functions in src/main.ts and see the operator's log above\n`,
    );
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return (message.split("\n")[0] ?? message).trim();
}
