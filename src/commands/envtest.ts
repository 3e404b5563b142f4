/**
 * `opgen envtest`: runs the embedded Kubernetes API server in the foreground, installs the
 * project's CRDs, writes a kubeconfig for kubectl, prints one `ready` line and exits 0 on
 * SIGINT/SIGTERM.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "../util/errors.js";

export interface EnvtestCommandOptions {
  crdDir?: string[];
  kubeconfig: string;
  port?: number;
  gc: boolean;
  simulate?: boolean;
  auth: "none" | "rbac";
}

export async function runEnvtest(opts: EnvtestCommandOptions): Promise<void> {
  const crdDirs = (opts.crdDir ?? []).map((d) => resolve(d));
  for (const d of crdDirs) {
    if (!existsSync(d)) throw new CliError(`--crd-dir ${d}: no such file or directory`);
  }
  const { startTestEnv } = await import("@opgen/envtest");
  const kubeconfigPath = resolve(opts.kubeconfig);
  const env = await startTestEnv({
    crdDirectoryPaths: crdDirs,
    kubeconfigPath,
    gc: opts.gc,
    simulate: opts.simulate ?? false,
    auth: opts.auth,
    ...(opts.port !== undefined ? { port: opts.port } : {}),
  }).catch((e: Error) => {
    throw new CliError(`envtest failed to start: ${e.message}`);
  });
  process.stdout.write(
    `envtest ready at ${env.url} (kubeconfig: ${kubeconfigPath}; try: kubectl --kubeconfig ${kubeconfigPath} get ns)\n`,
  );
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await env.stop();
}
