/**
 * Runs `npm install` in a new project with a progress indicator on stderr, keeping npm's output
 * to show it when the install fails instead of hiding it.
 */
import { CliError } from "./errors.js";
import { seconds, startStep } from "./progress.js";

export async function npmInstall(cwd: string): Promise<void> {
  const result = await startStep(
    "Installing dependencies (npm install)",
    "npm",
    ["install", "--no-audit", "--no-fund"],
    { cwd, env: { npm_config_loglevel: "error" } },
  ).result;
  if (result.exitCode !== 0) {
    const lines = result.output.split("\n").filter((l) => l.trim() !== "");
    process.stderr.write(`${lines.slice(-20).join("\n")}\n`);
    // npm's first error line that says what went wrong (not its code/path/log-file lines).
    const why =
      lines.find(
        (l) =>
          /^npm (error|ERR!) /.test(l) &&
          !/^npm (error|ERR!) (code|syscall|path|errno|A complete log)\b/.test(l) &&
          l.replace(/^npm (error|ERR!)\s*/, "").trim() !== "",
      ) ??
      lines.at(-1) ??
      result.startError ??
      "unknown error";
    throw new CliError(
      `npm install failed in ${cwd} (exit ${result.exitCode ?? result.signal ?? "?"}): ${why.trim()}; the project was written, fix the problem and run \`npm install\` there`,
    );
  }
  process.stderr.write(`Installed dependencies in ${seconds(result)}\n`);
}
