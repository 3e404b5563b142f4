import { CliError } from "../util/errors.js";

// Placeholder until this command lands; replaced by its implementation.
export async function runCreateApi(..._args: unknown[]): Promise<void> {
  throw new CliError("this command is not implemented yet");
}
