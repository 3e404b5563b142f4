/**
 * One `opgen dev` session once the API server runs: the operator process, the wait until it serves
 * its webhooks (then the kubeconfig appears and "ready" is printed, or "reloaded" after a reload),
 * reloads on changes under src/, a crash while watching (calls fail at once until a fix is saved),
 * and the stop on Ctrl-C: one SIGTERM to the operator, a bounded wait, exit 0; a second Ctrl-C
 * kills it and exits 130.
 */

import { readProject } from "../project/project-file.js";
import { CliError } from "../util/errors.js";
import { buildOperator } from "./build-operator.js";
import { ChangeWatch } from "./change-watch.js";
import type { DevEnv } from "./dev-env.js";
import { publishKubeconfig } from "./kubeconfig-file.js";
import { type OperatorExit, OperatorProcess } from "./operator-process.js";
import { listenForStopSignals, signalExitCode } from "./stop-signals.js";
import { type Readiness, webhooksServed } from "./webhook-readiness.js";
import {
  type DevWebhooks,
  findDevWebhooks,
  webhookServerArgs,
  webhooksReadyLine,
} from "./webhooks.js";

/**
 * How long the operator may take to exit after SIGTERM: the runtime's graceful-shutdown timeout
 * (30 s), the event flush (2 s) and the lease release (up to 2 × 5 s), with a margin.
 */
export const OPERATOR_STOP_GRACE_MS = 45_000;

/** How long the operator may take to serve its webhooks before opgen dev says they do not answer. */
export const WEBHOOK_READY_WAIT_MS = 60_000;

export interface DevSessionOptions {
  root: string;
  /** dist/main.js */
  entry: string;
  projectName: string;
  webhooks: DevWebhooks;
  dev: DevEnv;
  /** Where kubectl's kubeconfig appears once everything serves. */
  kubeconfigPath: string;
  metricsPort: number;
  /** Watch this folder (src/) and reload on changes. */
  watchDir?: string;
}

type SessionEvent =
  | { kind: "exit"; exit: OperatorExit }
  | { kind: "signal"; signal: NodeJS.Signals }
  | { kind: "change" }
  | { kind: "ready"; ready: Readiness; of: Promise<Readiness> };

export class DevSession {
  private readonly signals = listenForStopSignals();
  private readonly stopping = new AbortController();
  private readonly changes?: ChangeWatch;
  private webhooks: DevWebhooks;
  private operator: OperatorProcess;
  private readiness?: Promise<Readiness>;
  private published = false;
  private graceTimer?: NodeJS.Timeout;

  constructor(private readonly o: DevSessionOptions) {
    this.webhooks = o.webhooks;
    if (o.watchDir) this.changes = new ChangeWatch(o.watchDir);
    this.operator = this.startOperator();
    if (this.changes) {
      process.stdout.write("watching src/: a change rebuilds and restarts the operator\n");
    }
  }

  /** Runs until the operator exits, a signal stops the session, or start-up fails. */
  async run(): Promise<void> {
    try {
      for (;;) {
        const event = await this.next();
        if (event.kind === "ready") {
          // A wait that ended for a process replaced meanwhile is not this one's.
          if (event.of !== this.readiness) continue;
          this.readiness = undefined;
          this.onReady(event.ready);
        } else if (event.kind === "change") await this.reload();
        else if (event.kind === "signal") return await this.stopOnSignal(event.signal);
        else if ((await this.onExit(event.exit)) === "end") return;
      }
    } finally {
      this.changes?.close();
      this.stopping.abort();
      clearTimeout(this.graceTimer);
      this.operator.kill();
      await this.o.dev.stop();
      this.signals.dispose();
    }
  }

  private next(): Promise<SessionEvent> {
    const { operator, readiness, changes, signals } = this;
    return Promise.race<SessionEvent>([
      operator.exited.then((exit) => ({ kind: "exit", exit })),
      signals.first.then((signal) => ({ kind: "signal", signal })),
      ...(changes ? [changes.next().then((): SessionEvent => ({ kind: "change" }))] : []),
      ...(readiness
        ? [readiness.then((ready): SessionEvent => ({ kind: "ready", ready, of: readiness }))]
        : []),
    ]);
  }

  private startOperator(): OperatorProcess {
    const { dev, entry, root, metricsPort } = this.o;
    dev.relay?.operatorStarting();
    const operator = new OperatorProcess(
      entry,
      [
        // envtest's private kubeconfig: kubectl's appears only once everything serves.
        "--kubeconfig",
        dev.env.kubeconfigPath,
        "--metrics-bind-address",
        `127.0.0.1:${metricsPort}`,
        "--health-probe-bind-address",
        "0",
        "--zap-devel",
        ...(dev.operatorWebhooks ? webhookServerArgs(dev.operatorWebhooks) : []),
      ],
      { cwd: root, env: { ...process.env, NODE_ENV: "development" } },
    );
    this.readiness = this.readinessOf(operator);
    return operator;
  }

  /** Resolves once `operator` serves every webhook the installed configurations call. */
  private readinessOf(operator: OperatorProcess): Promise<Readiness> {
    const server = this.o.dev.operatorWebhooks;
    if (!server || this.webhooks.mode !== "on") return Promise.resolve({ kind: "ready" });
    const gone = new AbortController();
    void operator.exited.then(() => gone.abort());
    return webhooksServed(
      server,
      this.webhooks.endpoints,
      WEBHOOK_READY_WAIT_MS,
      AbortSignal.any([gone.signal, this.stopping.signal]),
    );
  }

  /** The kubeconfig and the ready lines the first time, "reloaded" after that. */
  private onReady(ready: Readiness): void {
    if (ready.kind === "aborted") return;
    if (ready.kind === "failed") {
      if (!this.published) throw new CliError(ready.message);
      process.stderr.write(`opgen: ${ready.message}\n`);
      return;
    }
    if (this.published) {
      process.stdout.write("reloaded: the operator restarted with the new build\n");
      return;
    }
    publishKubeconfig(this.o.dev.env.kubeconfigPath, this.o.kubeconfigPath);
    this.published = true;
    process.stdout.write(this.readyLines());
  }

  private readyLines(): string {
    const { dev, projectName, kubeconfigPath, metricsPort } = this.o;
    const { relay } = dev;
    const webhooks = this.webhooks;
    return (
      `envtest ready at ${dev.env.url} (${projectName}: CRDs installed)\n` +
      (relay && webhooks.mode === "on"
        ? webhooksReadyLine(`https://${relay.host}:${relay.port}`, webhooks)
        : "") +
      (webhooks.mode === "disabled" ? "webhooks: not installed (ENABLE_WEBHOOKS=false)\n" : "") +
      `kubectl: export KUBECONFIG=${kubeconfigPath}\n` +
      `metrics: curl -k -H "Authorization: Bearer $(kubectl --kubeconfig '${kubeconfigPath}' config view --raw -o jsonpath='{.users[0].user.token}')" https://127.0.0.1:${metricsPort}/metrics\n`
    );
  }

  /** The operator exited by itself: "end" the session, or go on once a fix was saved. */
  private async onExit(exit: OperatorExit): Promise<"end" | "go on"> {
    if (exit.error) throw new CliError(`could not start the operator: ${exit.error.message}`);
    if (exit.code === 0) return "end";
    if (!this.changes) {
      throw new CliError(`the operator exited with ${describeExit(exit)}; see its log above`);
    }
    // While watching, a crash waits for a fix rather than ending the session.
    this.o.dev.relay?.operatorDown(
      `opgen dev: the operator exited with ${describeExit(exit)}; fix it and save to restart it (its log is in the output of opgen dev)`,
    );
    process.stderr.write(
      `opgen: the operator exited with ${describeExit(exit)}; see its log above. Waiting for changes in src/ (Ctrl-C to stop)\n`,
    );
    const next = await Promise.race([
      this.changes.next().then(() => "change" as const),
      this.signals.first.then(() => "signal" as const),
    ]);
    if (next === "signal") return "end";
    await this.reload();
    return "go on";
  }

  /** Rebuilds, applies the manifests and restarts the operator; keeps it when either fails. */
  private async reload(): Promise<void> {
    const build = buildOperator(this.o.root, "src/ changed: rebuilding (npm run build)");
    const built = await Promise.race([
      build.result.then((r) => r.exitCode),
      this.signals.first.then(() => "signal" as const),
    ]);
    if (built === "signal") {
      build.kill();
      return;
    }
    if (built !== 0) {
      process.stderr.write(
        "opgen: npm run build failed: the running operator keeps running; fix the errors above and save again\n",
      );
      return;
    }
    try {
      await this.o.dev.env.reinstall();
      this.webhooks = await rereadWebhooks(this.o.root, this.webhooks);
    } catch (e) {
      process.stderr.write(
        `opgen: the regenerated manifests were refused (${(e as Error).message.split("\n")[0]}): the running operator keeps running; fix them and save again\n`,
      );
      return;
    }
    // From the old process's SIGTERM until the new one serves, the relay holds webhook calls.
    if (this.operator.running && (await this.stopForReload()) === "signal") return;
    this.operator = this.startOperator();
  }

  /** One SIGTERM and a bounded wait for the old process (killed after the grace period). */
  private async stopForReload(): Promise<"stopped" | "signal"> {
    this.operator.terminate();
    const end = await Promise.race([
      this.operator.exited.then(() => "exited" as const),
      this.signals.first.then(() => "signal" as const),
      new Promise<"timeout">((r) => {
        this.graceTimer = setTimeout(() => r("timeout"), OPERATOR_STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(this.graceTimer);
    if (end === "signal") return "signal";
    if (end === "timeout") {
      this.operator.kill();
      await this.operator.exited;
    }
    return "stopped";
  }

  /** The first Ctrl-C or SIGTERM: one SIGTERM to the operator, a bounded wait, exit 0. */
  private async stopOnSignal(signal: NodeJS.Signals): Promise<void> {
    process.stderr.write(
      `\n${signal}: stopping the operator and the API server (${signal} again to kill the operator)...\n`,
    );
    const operator = this.operator;
    if (!operator.running) return;
    operator.terminate();
    const end = await Promise.race([
      operator.exited.then((exit) => ({ kind: "exited" as const, exit })),
      this.signals.second.then((again) => ({ kind: "forced" as const, again })),
      new Promise<{ kind: "timeout" }>((r) => {
        this.graceTimer = setTimeout(() => r({ kind: "timeout" }), OPERATOR_STOP_GRACE_MS);
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

/**
 * The webhooks after a rebuild: their paths may have changed. Webhooks that appear in a project
 * started without them need a new session (envtest was started without a serving certificate).
 */
async function rereadWebhooks(root: string, current: DevWebhooks): Promise<DevWebhooks> {
  const next = await findDevWebhooks(root, readProject(root), process.env);
  if (next.mode === "on" && current.mode !== "on") {
    process.stderr.write(
      "opgen: the project has webhooks now: stop opgen dev and start it again to serve them\n",
    );
  }
  return next.mode === "on" && current.mode === "on" ? next : current;
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal}`;
}
