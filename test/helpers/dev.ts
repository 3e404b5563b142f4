/**
 * `opgen dev` as the end-to-end tests drive it: in a process group of its own (so a test can
 * signal the group as a terminal's Ctrl-C does), its output collected, and waits for a line of
 * it without fixed sleeps. Every run is killed (the whole group) after each test.
 */
import { existsSync } from "node:fs";
import { execa, type ResultPromise } from "execa";
import { afterEach } from "vitest";
import { CLI } from "./cli.js";

export interface Dev {
  proc: ResultPromise<{ all: true; reject: false; detached: true }>;
  output(): string;
  /** The first match of `text` in the output (after offset `from`); throws when opgen dev ends. */
  waitFor(
    text: string | RegExp,
    opts?: { timeoutMs?: number; from?: number },
  ): Promise<RegExpMatchArray>;
  /** Resolves once `path` exists (opgen dev writes it by a rename); throws when opgen dev ends. */
  waitForFile(path: string, opts?: { timeoutMs?: number }): Promise<void>;
  /** Signals opgen dev's whole process group, as the terminal does on Ctrl-C. */
  signalGroup(signal: NodeJS.Signals): void;
}

export interface DevOptions {
  /** Arguments after `opgen dev` (default: `--no-build --kubeconfig kc.yaml`). */
  args?: string[];
  env?: Record<string, string>;
  /** How long waitFor waits by default. */
  timeoutMs?: number;
}

const running: Dev[] = [];
afterEach(() => {
  for (const d of running.splice(0)) {
    try {
      if (d.proc.pid) process.kill(-d.proc.pid, "SIGKILL");
    } catch {}
  }
});

export function startDev(dir: string, opts: DevOptions = {}): Dev {
  const args = opts.args ?? ["--no-build", "--kubeconfig", "kc.yaml"];
  const proc = execa("node", [CLI, "dev", ...args], {
    cwd: dir,
    all: true,
    reject: false,
    detached: true,
    env: { OPGEN_DEBUG: "", ...opts.env },
  });
  let output = "";
  proc.all.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const dev: Dev = {
    proc,
    output: () => output,
    async waitFor(text, { timeoutMs = opts.timeoutMs ?? 40_000, from = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = output.slice(from);
        const m =
          typeof text === "string" ? (seen.includes(text) ? [text] : null) : seen.match(text);
        if (m) return m as RegExpMatchArray;
        if (proc.exitCode !== null || Date.now() > deadline)
          throw new Error(`no ${String(text)} in the output of opgen dev:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async waitForFile(path, { timeoutMs = opts.timeoutMs ?? 40_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (!existsSync(path)) {
        if (proc.exitCode !== null || Date.now() > deadline)
          throw new Error(`no ${path} from opgen dev:\n${output}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    signalGroup(signal) {
      process.kill(-(proc.pid as number), signal);
    },
  };
  running.push(dev);
  return dev;
}
