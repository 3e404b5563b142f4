/**
 * `opgen dev`: the embedded default. Builds the operator, starts @opgen/envtest with the project's
 * CRDs installed, writes a kubeconfig for kubectl, and runs the operator against it until
 * SIGINT/SIGTERM, then stops both cleanly.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { execa } from "execa";
import { readProject } from "../project/project-file.js";
import { CliError } from "../util/errors.js";

export interface DevFlags {
  kubeconfig: string;
  port?: number;
  simulate: boolean;
  build: boolean;
}

export async function runDev(flags: DevFlags, cwd = process.cwd()): Promise<void> {
  const root = resolve(cwd);
  const project = readProject(root);
  if (flags.build) {
    process.stderr.write("Building the operator (npm run build)...\n");
    const build = await execa("npm", ["run", "build"], {
      cwd: root,
      stdio: "inherit",
      reject: false,
    });
    if (build.exitCode !== 0) {
      throw new CliError(
        `npm run build failed (exit ${build.exitCode}); fix the errors above and run opgen dev again`,
      );
    }
  }
  const entry = resolve(root, "dist/main.js");
  if (!existsSync(entry)) {
    throw new CliError(
      `${entry} does not exist: build the operator first (npm run build) or drop --no-build`,
    );
  }

  const { startTestEnv } = await import("@opgen/envtest");
  const kubeconfigPath = resolve(root, flags.kubeconfig);
  const crdDir = resolve(root, "config/crd/bases");
  const env = await startTestEnv({
    crdDirectoryPaths: existsSync(crdDir) ? [crdDir] : [],
    simulate: flags.simulate,
    port: flags.port,
    kubeconfigPath,
  });
  process.stdout.write(
    `envtest ready at ${env.url} (${project.projectName}: CRDs installed)\n` +
      `kubectl: export KUBECONFIG=${kubeconfigPath}\n`,
  );

  const operator = execa(
    "node",
    [
      entry,
      "--kubeconfig",
      kubeconfigPath,
      "--metrics-bind-address",
      "0",
      "--health-probe-bind-address",
      "0",
      "--zap-devel",
    ],
    { cwd: root, stdio: "inherit", reject: false, env: { NODE_ENV: "development" } },
  );
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping the operator and the API server...\n`);
    operator.kill("SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const result = await operator;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  await env.stop();
  if (result.exitCode !== 0) {
    // On Ctrl-C the operator gets SIGTERM and must drain and exit 0, as it would in a Pod.
    throw new CliError(
      stopping
        ? `the operator did not shut down cleanly on SIGTERM (exit ${result.exitCode ?? result.signal}); see its log above`
        : `the operator exited with code ${result.exitCode ?? result.signal}; see its log above`,
    );
  }
}
