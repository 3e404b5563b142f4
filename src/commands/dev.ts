/**
 * `opgen dev`: the embedded default. Builds the operator, starts @opgen/envtest with the project's
 * CRDs installed, writes a kubeconfig for kubectl, and runs the operator against it. The first
 * Ctrl-C (or SIGTERM) stops the operator with one SIGTERM, waits for its graceful shutdown, stops
 * the API server and exits 0; a second one kills the operator and exits 130. A project with
 * webhooks gets them served by the operator on a certificate envtest mints, with the configurations
 * and CRD conversion installed pointing at it (src/dev/webhooks.ts). While it runs, a change under
 * src/ rebuilds the project (`npm run build`, which regenerates the manifests), applies the
 * regenerated CRDs and webhook configurations to the API server and restarts the operator; a
 * failed build or a refused manifest keeps the running operator.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { ChangeWatch } from "../dev/change-watch.js";
import { OperatorProcess } from "../dev/operator-process.js";
import { listenForStopSignals, signalExitCode } from "../dev/stop-signals.js";
import { announceWebhooksWhenServed, findDevWebhooks, webhookServerArgs } from "../dev/webhooks.js";
import { readProject } from "../project/project-file.js";
import { CliError } from "../util/errors.js";
import { type Step, seconds, startStep } from "../util/progress.js";

export interface DevFlags {
  kubeconfig: string;
  port?: number;
  simulate: boolean;
  build: boolean;
  /** Rebuild and restart the operator when src/ changes (only when building). */
  watch?: boolean;
}

/**
 * How long the operator may take to exit after SIGTERM: the runtime's graceful-shutdown timeout
 * (30 s), the event flush (2 s) and the lease release (up to 2 × 5 s), with a margin.
 */
export const OPERATOR_STOP_GRACE_MS = 45_000;

/** How long the operator may take to serve its webhooks before opgen dev says they do not answer. */
const WEBHOOK_READY_WAIT_MS = 60_000;

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

  // The operator serves its secure metrics on a free local port (envtest's admin token may scrape).
  const metricsPort = await freeLocalPort();
  const { startTestEnv } = await import("@opgen/envtest");
  const kubeconfigPath = resolve(root, flags.kubeconfig);
  const crdDir = resolve(root, "config/crd/bases");
  const env = await startTestEnv({
    crdDirectoryPaths: existsSync(crdDir) ? [crdDir] : [],
    simulate: flags.simulate,
    port: flags.port,
    kubeconfigPath,
    ...(webhooks.mode === "on" ? { webhooks: { paths: webhooks.paths } } : {}),
  }).catch((e: Error) => {
    throw new CliError(`envtest failed to start: ${startFailure(e, flags.port)}`);
  });
  process.stdout.write(
    `envtest ready at ${env.url} (${project.projectName}: CRDs installed)\n` +
      `kubectl: export KUBECONFIG=${kubeconfigPath}\n` +
      (webhooks.mode === "disabled" ? "webhooks: not installed (ENABLE_WEBHOOKS=false)\n" : "") +
      `metrics: curl -k -H "Authorization: Bearer $(kubectl --kubeconfig '${kubeconfigPath}' config view --raw -o jsonpath='{.users[0].user.token}')" https://127.0.0.1:${metricsPort}/metrics\n`,
  );

  const serving = webhooks.mode === "on" ? env.webhook : undefined;
  const signals = listenForStopSignals();
  const startOperator = () =>
    new OperatorProcess(
      entry,
      [
        "--kubeconfig",
        kubeconfigPath,
        "--metrics-bind-address",
        `127.0.0.1:${metricsPort}`,
        "--health-probe-bind-address",
        "0",
        "--zap-devel",
        ...(serving ? webhookServerArgs(serving) : []),
      ],
      { cwd: root, env: { ...process.env, NODE_ENV: "development" } },
    );
  let operator = startOperator();
  let graceTimer: NodeJS.Timeout | undefined;
  let stopWaiting = new AbortController();
  const announce = () => {
    if (serving && webhooks.mode === "on") {
      void announceWebhooksWhenServed(serving, webhooks, WEBHOOK_READY_WAIT_MS, stopWaiting.signal);
    }
  };
  announce();
  const srcDir = resolve(root, "src");
  const changes =
    flags.build && flags.watch !== false && existsSync(srcDir)
      ? new ChangeWatch(srcDir)
      : undefined;
  if (changes) process.stdout.write("watching src/: a change rebuilds and restarts the operator\n");

  /** Rebuilds, applies the manifests and restarts the operator; "signal" when stopped meanwhile. */
  const reload = async (): Promise<"done" | "kept" | "signal"> => {
    const build = buildOperator(root, "src/ changed: rebuilding (npm run build)");
    const built = await Promise.race([
      build.result.then((r) => r.exitCode),
      signals.first.then(() => "signal" as const),
    ]);
    if (built === "signal") {
      build.kill();
      return "signal";
    }
    if (built !== 0) {
      process.stderr.write(
        "opgen: npm run build failed: the running operator keeps running; fix the errors above and save again\n",
      );
      return "kept";
    }
    try {
      await env.reinstall();
    } catch (e) {
      process.stderr.write(
        `opgen: the regenerated manifests were refused (${(e as Error).message.split("\n")[0]}): the running operator keeps running; fix them and save again\n`,
      );
      return "kept";
    }
    if (operator.running) {
      operator.terminate();
      const end = await Promise.race([
        operator.exited.then(() => "exited" as const),
        signals.first.then(() => "signal" as const),
        new Promise<"timeout">((r) => {
          graceTimer = setTimeout(() => r("timeout"), OPERATOR_STOP_GRACE_MS);
        }),
      ]);
      clearTimeout(graceTimer);
      if (end === "signal") return "signal";
      if (end === "timeout") {
        operator.kill();
        await operator.exited;
      }
    }
    stopWaiting.abort();
    stopWaiting = new AbortController();
    operator = startOperator();
    announce();
    process.stdout.write("reloaded: the operator restarted with the new build\n");
    return "done";
  };

  try {
    for (;;) {
      const first = await Promise.race([
        operator.exited.then((exit) => ({ kind: "exit" as const, exit })),
        signals.first.then((signal) => ({ kind: "signal" as const, signal })),
        ...(changes ? [changes.next().then(() => ({ kind: "change" as const }))] : []),
      ]);
      if (first.kind === "change") {
        await reload();
        continue;
      }
      if (first.kind === "exit") {
        const exit = first.exit;
        if (exit.error) throw new CliError(`could not start the operator: ${exit.error.message}`);
        if (exit.code === 0) return;
        if (changes) {
          // While watching, a crash waits for a fix rather than ending the session.
          process.stderr.write(
            `opgen: the operator exited with ${describeExit(exit)}; see its log above. Waiting for changes in src/ (Ctrl-C to stop)\n`,
          );
          const next = await Promise.race([
            changes.next().then(() => "change" as const),
            signals.first.then(() => "signal" as const),
          ]);
          if (next === "signal") return;
          await reload();
          continue;
        }
        throw new CliError(`the operator exited with ${describeExit(exit)}; see its log above`);
      }
      await stopOnSignal(first.signal);
      return;
    }
  } finally {
    changes?.close();
    stopWaiting.abort();
    clearTimeout(graceTimer);
    operator.kill();
    await env.stop();
    signals.dispose();
  }

  /** The first Ctrl-C or SIGTERM: one SIGTERM to the operator, a bounded wait, exit 0. */
  async function stopOnSignal(signal: NodeJS.Signals): Promise<void> {
    process.stderr.write(
      `\n${signal}: stopping the operator and the API server (${signal} again to kill the operator)...\n`,
    );
    if (!operator.running) return;
    operator.terminate();
    const end = await Promise.race([
      operator.exited.then((exit) => ({ kind: "exited" as const, exit })),
      signals.second.then((again) => ({ kind: "forced" as const, again })),
      new Promise<{ kind: "timeout" }>((r) => {
        graceTimer = setTimeout(() => r({ kind: "timeout" }), OPERATOR_STOP_GRACE_MS);
      }),
    ]);
    if (end.kind === "forced") {
      operator.kill();
      await operator.exited;
      throw new CliError(
        `${end.again}: killed the operator before its graceful shutdown finished`,
        signalExitCode(end.again),
      );
    }
    if (end.kind === "timeout") {
      operator.kill();
      await operator.exited;
      throw new CliError(
        `the operator did not exit within ${OPERATOR_STOP_GRACE_MS / 1000} s of SIGTERM and was killed; make its reconciles return when ctx.signal aborts`,
      );
    }
    // On Ctrl-C the operator gets one SIGTERM and must drain and exit 0, as it would in a Pod.
    if (end.exit.signal === "SIGTERM") {
      throw new CliError(
        "the operator was ended by SIGTERM without handling it (it stops gracefully once setupSignalHandler() is installed); see its log above",
      );
    }
    if (end.exit.code !== 0) {
      throw new CliError(
        `the operator did not shut down cleanly on SIGTERM (${describeExit(end.exit)}); see its log above`,
      );
    }
  }
}

/** A port free on 127.0.0.1 now (the OS picks it; the operator binds it a moment later). */
function freeLocalPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", (e) =>
      reject(
        new CliError(`cannot find a free local port for the operator's metrics: ${e.message}`),
      ),
    );
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal}`;
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

/**
 * `npm run build` with a progress line instead of npm's stream: what the build said is shown
 * when it fails (the compiler's errors) or when it says more than npm's own "> script" header
 * (warnings from `opgen manifests`, such as a stale sample).
 */
function buildOperator(root: string, label: string): Step {
  const step = startStep(label, "npm", ["run", "build"], { cwd: root });
  return {
    kill: step.kill,
    result: step.result.then((r) => {
      const said = r.output
        .split("\n")
        .filter((l) => l.trim() !== "" && !l.startsWith("> "))
        .join("\n");
      if (said !== "") process.stderr.write(`${said}\n`);
      if (r.exitCode === 0) process.stderr.write(`Built the operator in ${seconds(r)}\n`);
      return r;
    }),
  };
}
