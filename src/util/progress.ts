/**
 * A long step (npm install, npm run build) run as a child process with its output kept, not
 * streamed: a terminal sees one spinner line with the elapsed seconds, a log sees one line when
 * the step starts, and the output is shown only when the step fails, where it explains why.
 */
import { execa } from "execa";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface StepResult {
  /** undefined when the process ended by a signal or could not start. */
  exitCode: number | undefined;
  signal: string | undefined;
  /** stdout and stderr interleaved. */
  output: string;
  seconds: number;
  /** Why it could not run at all (command not found, ...), when it could not. */
  startError: string | undefined;
}

export interface Step {
  result: Promise<StepResult>;
  kill(): void;
}

export function startStep(
  label: string,
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Step {
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let frame = 0;
  const elapsed = () => (Date.now() - started) / 1000;
  const timer = tty
    ? setInterval(() => {
        process.stderr.write(
          `\r${FRAMES[frame++ % FRAMES.length]} ${label}... ${Math.round(elapsed())}s`,
        );
      }, 100)
    : undefined;
  if (!tty) process.stderr.write(`${label}...\n`);
  const child = execa(command, args, {
    cwd: options.cwd,
    all: true,
    reject: false,
    env: options.env,
  });
  const result = child.then((r) => {
    if (timer) {
      clearInterval(timer);
      process.stderr.write("\r\x1b[2K");
    }
    return {
      exitCode: r.exitCode,
      signal: r.signal,
      output: r.all ?? "",
      seconds: elapsed(),
      startError: r.exitCode === undefined && !r.signal ? r.shortMessage : undefined,
    };
  });
  return { result, kill: () => child.kill() };
}

/** "4.2s": how a finished step reports its time. */
export function seconds(result: StepResult): string {
  return `${result.seconds.toFixed(1)}s`;
}
