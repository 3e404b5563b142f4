/**
 * User-facing failures. A `CliError` carries a one-line message that says what is wrong and how
 * to fix it; the CLI prints it without a stack trace and exits with `exitCode`.
 */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Several user errors reported together (marker errors of one run, for example). */
export class CliErrors extends CliError {
  readonly messages: readonly string[];

  constructor(messages: readonly string[], exitCode = 1) {
    super(messages.join("\n"), exitCode);
    this.name = "CliErrors";
    this.messages = messages;
  }
}
