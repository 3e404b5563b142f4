/**
 * The API server side of `opgen dev`: @opgen/envtest with the project's CRDs and, for a project
 * with webhooks, opgen dev's relay (webhook-relay.ts) as the endpoint the webhook configurations
 * and conversion CRDs call, and a private port for the operator's own webhook server behind it.
 * The operator connects with envtest's private kubeconfig; the user's appears once all serves.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import type { TestEnv } from "@opgen/envtest";
import { CliError } from "../util/errors.js";
import type { OperatorWebhookServer } from "./webhook-readiness.js";
import { type RelayOptions, WebhookRelay } from "./webhook-relay.js";
import type { DevWebhooks } from "./webhooks.js";

/** The local loop listens on loopback only. */
const LOOPBACK = "127.0.0.1";

export interface DevEnvOptions {
  root: string;
  simulate: boolean;
  port?: number;
  webhooks: DevWebhooks;
  relay: RelayOptions;
}

export interface DevEnv {
  env: TestEnv;
  /** Set when the project's webhooks are installed: the endpoint they call. */
  relay?: WebhookRelay;
  /** Where the operator's webhook server listens, with envtest's certificate in certDir. */
  operatorWebhooks?: OperatorWebhookServer & { certDir: string };
  stop(): Promise<void>;
}

export async function startDevEnv(options: DevEnvOptions): Promise<DevEnv> {
  const { webhooks } = options;
  const relay =
    webhooks.mode === "on"
      ? await WebhookRelay.listen(LOOPBACK, options.relay).catch((e: Error) => {
          throw new CliError(`cannot listen for webhook calls on ${LOOPBACK}: ${e.message}`);
        })
      : undefined;
  try {
    const { startTestEnv } = await import("@opgen/envtest");
    const crdDir = resolve(options.root, "config/crd/bases");
    const env = await startTestEnv({
      crdDirectoryPaths: existsSync(crdDir) ? [crdDir] : [],
      simulate: options.simulate,
      port: options.port,
      ...(relay && webhooks.mode === "on"
        ? {
            webhooks: {
              paths: webhooks.paths,
              localServingHost: relay.host,
              localServingPort: relay.port,
            },
          }
        : {}),
    }).catch((e: Error) => {
      throw new CliError(`envtest failed to start: ${startFailure(e, options.port)}`);
    });
    let operatorWebhooks: DevEnv["operatorWebhooks"];
    if (relay && env.webhook) {
      const { certDir, caBundle } = env.webhook;
      const port = await freeLocalPort("webhook server").catch(async (e) => {
        await env.stop();
        throw e;
      });
      operatorWebhooks = { host: LOOPBACK, port, certDir, caBundle };
      relay.relayTo(operatorWebhooks);
    }
    return {
      env,
      ...(relay ? { relay } : {}),
      ...(operatorWebhooks ? { operatorWebhooks } : {}),
      async stop() {
        await relay?.close();
        await env.stop();
      },
    };
  } catch (e) {
    await relay?.close();
    throw e;
  }
}

/** A port free on 127.0.0.1 now (the OS picks it; the operator binds it a moment later). */
export function freeLocalPort(purpose: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", (e) =>
      reject(
        new CliError(`cannot find a free local port for the operator's ${purpose}: ${e.message}`),
      ),
    );
    probe.listen(0, LOOPBACK, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** A start-up failure of the API server as the one line a user can act on. */
function startFailure(e: Error, port: number | undefined): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return `port ${port} is already in use; choose another --port or leave it out for a free one`;
  if (code === "EACCES" && e.message.startsWith("listen"))
    return `port ${port} needs privileges; choose a port above 1023`;
  return (e.message.split("\n")[0] ?? String(e)).trim();
}
