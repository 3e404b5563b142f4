/**
 * Runs `npm install` in a new project with a progress indicator on stderr, keeping npm's output
 * to show it when the install fails instead of hiding it.
 */
import { execa } from "execa";
import { CliError } from "./errors.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export async function npmInstall(cwd: string): Promise<void> {
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let frame = 0;
  const label = "Installing dependencies (npm install)";
  const timer = tty
    ? setInterval(() => {
        const secs = Math.round((Date.now() - started) / 1000);
        process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}... ${secs}s`);
      }, 100)
    : undefined;
  if (!tty) process.stderr.write(`${label}...\n`);
  const result = await execa("npm", ["install", "--no-audit", "--no-fund"], {
    cwd,
    all: true,
    reject: false,
    env: { npm_config_loglevel: "error" },
  });
  if (timer) {
    clearInterval(timer);
    process.stderr.write("\r\x1b[2K");
  }
  if (result.exitCode !== 0 || result.failed) {
    const lines = (result.all ?? "").split("\n").filter((l) => l.trim() !== "");
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
      result.shortMessage ??
      "unknown error";
    throw new CliError(
      `npm install failed in ${cwd} (exit ${result.exitCode ?? "?"}): ${why.trim()}; the project was written, fix the problem and run \`npm install\` there`,
    );
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`Installed dependencies in ${secs}s\n`);
}
