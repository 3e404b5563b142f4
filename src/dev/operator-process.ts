/**
 * The operator as `opgen dev` runs it: `node dist/main.js` in a process group of its own, so the
 * terminal's Ctrl-C (sent to the terminal's foreground group) reaches only opgen dev, which then
 * stops the operator with a single SIGTERM, as the kubelet stops a container. Whatever is left of
 * the group once the operator exits, or when opgen dev exits, is killed, as a container's
 * processes die with it.
 */
import { type ChildProcess, spawn } from "node:child_process";

export interface OperatorExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error?: Error;
}

export interface OperatorOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export class OperatorProcess {
  /** Resolves once the operator has exited (never rejects). */
  readonly exited: Promise<OperatorExit>;
  private readonly child: ChildProcess;
  private done = false;
  private terminated = false;
  // Covers every way opgen dev ends without a signal it handles (an exception, process.exit).
  private readonly killOnExit = () => this.kill();

  constructor(entry: string, args: readonly string[], opts: OperatorOptions) {
    this.child = spawn(process.execPath, [entry, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      // Its own process group (and session); stdin stays with opgen dev, output goes to the terminal.
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
    });
    process.on("exit", this.killOnExit);
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        this.finish();
        resolve({ code: null, signal: null, error });
      });
      this.child.once("exit", (code, signal) => {
        this.finish();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.done;
  }

  /** Sends SIGTERM to the operator process, once: its own handler starts the graceful shutdown. */
  terminate(): void {
    if (this.done || this.terminated || this.child.pid === undefined) return;
    this.terminated = true;
    signalProcess(this.child.pid, "SIGTERM");
  }

  /** SIGKILL to the whole process group: the operator and anything it started. */
  kill(): void {
    if (!this.done) this.killGroup();
  }

  private killGroup(): void {
    if (this.child.pid !== undefined) signalProcess(-this.child.pid, "SIGKILL");
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    process.off("exit", this.killOnExit);
    // Children the operator left behind must not outlive it (once, before the id can be reused).
    this.killGroup();
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (e) {
    // ESRCH: already gone, which is what we wanted.
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
}
