/**
 * The signals that end `opgen dev`: the first SIGINT, SIGTERM or SIGHUP (the terminal closing)
 * asks for a graceful stop, any further one for an immediate one. Handling them all keeps Node
 * from dying on its default action, which would skip the exit handler that kills the operator.
 */
import { constants } from "node:os";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export interface StopSignals {
  /** Resolves with the first signal. */
  readonly first: Promise<NodeJS.Signals>;
  /** Resolves with the second signal. */
  readonly second: Promise<NodeJS.Signals>;
  /** Removes the handlers. */
  dispose(): void;
}

export function listenForStopSignals(): StopSignals {
  let count = 0;
  let onFirst!: (s: NodeJS.Signals) => void;
  let onSecond!: (s: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((r) => {
    onFirst = r;
  });
  const second = new Promise<NodeJS.Signals>((r) => {
    onSecond = r;
  });
  const handler = (signal: NodeJS.Signals) => {
    count++;
    if (count === 1) onFirst(signal);
    else if (count === 2) onSecond(signal);
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return {
    first,
    second,
    dispose: () => {
      for (const s of STOP_SIGNALS) process.off(s, handler);
    },
  };
}

/** The shell's exit code for a process ended by `signal` (130 for SIGINT). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
