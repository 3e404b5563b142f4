/**
 * Webhooks served from the test process, as controller-runtime's `WebhookInstallOptions`
 * (`pkg/envtest/webhook.go`): a tiny CA and a serving certificate for the local host written to
 * a private directory (`tls.crt`, `tls.key`, 0600), a free port, and the webhook configurations
 * and conversion CRDs rewritten so the API server calls `https://<host>:<port><path>` trusting
 * that CA. `opgen dev` uses the same functions for the operator it runs.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import type { KubeConfig } from "@kubernetes/client-node";
import { issueCertificate, newSelfSignedCA } from "@opgen/apimachinery/certs";
import { deepClone, isObject, type JsonObject, type KubeObject } from "./api/types.js";
import { readManifestFiles } from "./crd/files.js";
import { applyObjects } from "./install.js";

export interface WebhookServingOptions {
  /** Files or directories of Mutating/ValidatingWebhookConfigurations (e.g. config/webhook). */
  paths?: string[];
  /** Where the webhook server listens (default 127.0.0.1). */
  localServingHost?: string;
  /** Its port (default: a free one). */
  localServingPort?: number;
}

/** Where the operator's webhook server must listen, and with which certificate. */
export interface WebhookServing {
  host: string;
  port: number;
  /** Holds `tls.crt` and `tls.key` (mode 0600). */
  certDir: string;
  /** The CA's PEM, as `caBundle` carries it (base64 in the objects). */
  caBundle: Buffer;
  /** `https://<host>:<port><path>`. */
  url(path: string): string;
  /** Removes certDir. */
  cleanup(): void;
}

/** What rewriting needs of a serving: `env.webhook` will do (e.g. to reinstall after a change). */
export type ServingTarget = Pick<WebhookServing, "caBundle" | "url">;

const WEBHOOK_KINDS = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"];

/**
 * A CA and a serving certificate for `host`, localhost, 127.0.0.1 and ::1 (controller-runtime's
 * `tinyca.go`), made fresh on each call.
 */
export function mintServingCertificate(host: string): {
  caPem: string;
  certPem: string;
  keyPem: string;
} {
  const ca = newSelfSignedCA(`opgen-envtest-webhook-ca-${randomBytes(4).toString("hex")}`);
  const serving = issueCertificate(ca, "serving", {
    commonName: host,
    hosts: ["localhost", host, "127.0.0.1", "::1"],
  });
  return { caPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem };
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Mints the certificates into a fresh directory and picks the port (nothing installed yet). */
export async function prepareWebhookServing(
  options: Omit<WebhookServingOptions, "paths"> = {},
): Promise<WebhookServing> {
  const host = options.localServingHost ?? "127.0.0.1";
  const port = options.localServingPort ?? (await freePort(host));
  const { caPem, certPem, keyPem } = mintServingCertificate(host);
  const certDir = mkdtempSync(join(tmpdir(), "envtest-serving-certs-"));
  writeFileSync(join(certDir, "tls.crt"), certPem, { mode: 0o600 });
  writeFileSync(join(certDir, "tls.key"), keyPem, { mode: 0o600 });
  const authority = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    host,
    port,
    certDir,
    caBundle: Buffer.from(caPem),
    url: (path) => `https://${authority}${path.startsWith("/") ? path : `/${path}`}`,
    cleanup: () => rmSync(certDir, { recursive: true, force: true }),
  };
}

/**
 * The CRD conversion patches under `paths` (Kubebuilder's `config/crd/patches/webhook_in_*.yaml`:
 * a CustomResourceDefinition with only a name and `spec.conversion`), by CRD name.
 */
export function readConversionPatches(paths: string[]): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  const docs = readManifestFiles(
    paths,
    (o) =>
      o.kind === "CustomResourceDefinition" &&
      isObject((o.spec as JsonObject | undefined)?.conversion),
    (p) => `webhook manifest path ${p} does not exist (run opgen manifests, or fix webhooks.paths)`,
  );
  for (const d of docs) {
    out.set(d.metadata?.name ?? "", (d.spec as JsonObject).conversion as JsonObject);
  }
  return out;
}

/** A CRD with its conversion patch applied (what kustomize does with the patch). */
export function withConversionPatch(crd: KubeObject, patches: Map<string, JsonObject>): KubeObject {
  const conversion = patches.get(crd.metadata?.name ?? "");
  if (!conversion) return crd;
  const out = deepClone(crd);
  out.spec = { ...((out.spec as JsonObject | undefined) ?? {}), conversion: deepClone(conversion) };
  return out;
}

/** The webhook configurations under `paths` (files or directories, multi-document YAML). */
export function readWebhookManifests(paths: string[]): KubeObject[] {
  return readManifestFiles(
    paths,
    (o) => WEBHOOK_KINDS.includes(String(o.kind)),
    (p) => `webhook manifest path ${p} does not exist (run opgen manifests, or fix webhooks.paths)`,
  );
}

/** A clientConfig pointing at the local server: service references become its URL. */
function localClientConfig(cc: unknown, serving: ServingTarget, fallbackPath: string): JsonObject {
  const c = (isObject(cc) ? cc : {}) as JsonObject;
  const service = isObject(c.service) ? (c.service as JsonObject) : undefined;
  let path = fallbackPath;
  if (service) path = typeof service.path === "string" ? service.path : "";
  else if (typeof c.url === "string") {
    try {
      path = new URL(c.url).pathname;
    } catch {
      // keep the fallback: validation reports the bad URL of the original anyway
    }
  }
  return { url: serving.url(path), caBundle: serving.caBundle.toString("base64") };
}

/**
 * The object as installed for local serving: every webhook's clientConfig (and a CRD's conversion
 * webhook) points at the local server and trusts its CA. Other objects are returned unchanged.
 */
export function rewriteForLocalServing(obj: KubeObject, serving: ServingTarget): KubeObject {
  const out = deepClone(obj);
  if (WEBHOOK_KINDS.includes(String(out.kind))) {
    for (const h of (Array.isArray(out.webhooks) ? out.webhooks : []) as JsonObject[]) {
      if (isObject(h)) h.clientConfig = localClientConfig(h.clientConfig, serving, "/");
    }
  } else if (out.kind === "CustomResourceDefinition") {
    const conversion = (out.spec as JsonObject | undefined)?.conversion as JsonObject | undefined;
    if (conversion?.strategy === "Webhook" && isObject(conversion.webhook)) {
      const w = conversion.webhook as JsonObject;
      w.clientConfig = localClientConfig(w.clientConfig, serving, "/convert");
    }
  }
  return out;
}

/**
 * Creates (or replaces) the webhook configurations found under `paths`, rewritten for local
 * serving, through any API server (`opgen dev`, an existing cluster).
 */
export async function installWebhookManifests(
  kubeconfig: KubeConfig,
  paths: string[],
  serving: ServingTarget,
): Promise<KubeObject[]> {
  const objects = readWebhookManifests(paths).map((o) => rewriteForLocalServing(o, serving));
  await applyObjects(kubeconfig, objects);
  return objects;
}

/**
 * Resolves once the webhook server completes a TLS handshake trusting the serving CA (the TLS
 * dial loop of Kubebuilder's webhook suite); rejects after `timeoutMs` naming the address.
 */
export async function waitForWebhookServer(
  serving: Pick<WebhookServing, "host" | "port" | "caBundle" | "url">,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      await new Promise<void>((resolve, reject) => {
        const s = connect({
          host: serving.host,
          port: serving.port,
          ca: serving.caBundle.toString("utf8"),
          ...(isIP(serving.host) ? {} : { servername: serving.host }),
        });
        s.setTimeout(1000, () => s.destroy(new Error("handshake timed out")));
        s.once("secureConnect", () => {
          s.end();
          resolve();
        });
        s.once("error", reject);
      });
      return;
    } catch (e) {
      last = (e as Error).message;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error(
    `webhook server at ${serving.url("/")} did not accept TLS connections within ${timeoutMs} ms (${last}); start it with env.webhook's certDir and port`,
  );
}
