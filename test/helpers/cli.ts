/** Runs the built CLI (dist/) as a user would, and snapshots folders to prove nothing changed. */
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll } from "vitest";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(REPO_ROOT, "bin", "opgen.js");

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const result = await execa("node", [CLI, ...args], {
    cwd,
    reject: false,
    env: { OPGEN_DEBUG: "", ...env },
  });
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

// Temp folders of the test file, removed after it (a day of runs left thousands behind).
const tempDirs = new Set<string>();
// Registered on the importing test file: vitest ends its workers without an "exit" event.
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
});

/** A new temp folder, removed after the test file that made it. */
export function tempDir(prefix = "opgen-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/**
 * path → sha256 of every file below `root` (skipping node_modules), a symbolic link → its target,
 * to compare before and after.
 */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (entry === "node_modules") continue;
      const full = join(dir, entry);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[relative(root, full)] = `-> ${readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full);
      else
        out[relative(root, full)] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk(root);
  return out;
}

/**
 * `cmd args` in `cwd` (CI=true and `env` added); a non-zero exit throws with everything it printed,
 * so a failing step of an end-to-end test shows why.
 */
export async function runOrThrow(
  cwd: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
) {
  const result = await execa(cmd, args, {
    cwd,
    reject: false,
    all: true,
    env: { CI: "true", ...env },
  });
  if (result.exitCode !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed (${result.exitCode}):\n${result.all}`);
  return result;
}

/**
 * `opgen init --domain my.domain` (with its npm install) and `create api` of demo/v1 AppCluster in
 * the new folder `dir`: the project most end-to-end tests start from.
 */
export async function scaffoldAppCluster(dir: string): Promise<void> {
  mkdirSync(dir);
  for (const args of [
    ["init", "--domain", "my.domain"],
    ["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
  ]) {
    const r = await runCli(args, dir);
    if (r.exitCode !== 0)
      throw new Error(`opgen ${args.join(" ")} failed (${r.exitCode}):\n${r.stderr}`);
  }
}
