/**
 * `setupSignalHandler` (controller-runtime's SetupSignalHandler): an AbortSignal aborted on the
 * first SIGTERM or SIGINT, starting a graceful shutdown; a second signal exits at once with code 1.
 */
let installed: AbortSignal | undefined;

export function setupSignalHandler(): AbortSignal {
  // Registering twice would make one signal count as two.
  if (installed) return installed;
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) process.exit(1);
    ac.abort(new Error(`received ${sig}`));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  installed = ac.signal;
  return ac.signal;
}
