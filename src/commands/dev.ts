/**
 * `opgen dev`: the embedded default. Builds the operator, starts @opgen/envtest with the project's
 * CRDs installed and runs the operator against it; the kubeconfig for kubectl is written, and
 * "ready" printed, only once the API server, the CRDs and, for a project with webhooks, the
 * operator's webhook server and the configurations calling it all serve. The first Ctrl-C (or
 * SIGTERM) stops the operator with one SIGTERM, waits for its graceful shutdown, stops the API
 * server and exits 0; a second one kills the operator and exits 130. Webhooks are served by the
 * operator on a certificate envtest mints, behind opgen dev's relay (src/dev/webhook-relay.ts),
 * which the configurations and CRD conversion call and which holds calls while the operator
 * restarts. While it runs, a change under src/ rebuilds the project (`npm run build`, which
 * regenerates the manifests), applies the regenerated CRDs and webhook configurations to the API
 * server and restarts the operator; a failed build or a refused manifest keeps the running operator.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { buildOperator } from "../dev/build-operator.js";
import { freeLocalPort, startDevEnv } from "../dev/dev-env.js";
import { DevSession } from "../dev/dev-session.js";
import { claimKubeconfigPath } from "../dev/kubeconfig-file.js";
import { findDevWebhooks } from "../dev/webhooks.js";
import { readProject } from "../project/project-file.js";
import { CliError } from "../util/errors.js";

export interface DevFlags {
  kubeconfig: string;
  port?: number;
  simulate: boolean;
  build: boolean;
  /** Rebuild and restart the operator when src/ changes (only when building). */
  watch?: boolean;
}

/** How long a webhook call waits for the operator's webhook server while the operator restarts. */
export const WEBHOOK_HOLD_MS = 10_000;

export async function runDev(flags: DevFlags, cwd = process.cwd()): Promise<void> {
  const root = resolve(cwd);
  const project = readProject(root);
  if (flags.build) {
    const build = await buildOperator(root, "Building the operator (npm run build)").result;
    if (build.exitCode !== 0) {
      throw new CliError(
        `npm run build failed (exit ${build.exitCode ?? build.signal}); fix the errors above and run opgen dev again`,
      );
    }
  }
  const entry = resolve(root, "dist/main.js");
  if (!existsSync(entry)) {
    throw new CliError(
      `${entry} does not exist: build the operator first (npm run build) or drop --no-build`,
    );
  }

  // Before anything starts: a webhook manifest that does not parse leaves nothing running.
  const webhooks = await findDevWebhooks(root, project, process.env);
  const kubeconfigPath = resolve(root, flags.kubeconfig);
  claimKubeconfigPath(kubeconfigPath);

  // The operator serves its secure metrics on a free local port (envtest's admin token may scrape).
  const metricsPort = await freeLocalPort("metrics");
  const dev = await startDevEnv({
    root,
    simulate: flags.simulate,
    port: flags.port,
    webhooks,
    relay: {
      holdMs: WEBHOOK_HOLD_MS,
      onHold: (path) =>
        process.stdout.write(
          `webhooks: a call to ${path} waits for the operator's webhook server (up to ${WEBHOOK_HOLD_MS / 1000} s)\n`,
        ),
    },
  });
  const srcDir = resolve(root, "src");
  const watch = flags.build && flags.watch !== false && existsSync(srcDir);
  let session: DevSession;
  try {
    session = new DevSession({
      root,
      entry,
      projectName: project.projectName,
      webhooks,
      dev,
      kubeconfigPath,
      metricsPort,
      ...(watch ? { watchDir: srcDir } : {}),
    });
  } catch (e) {
    await dev.stop();
    throw e;
  }
  await session.run();
}
