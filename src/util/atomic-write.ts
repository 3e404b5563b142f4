/**
 * All-or-nothing file output. Every target is first checked (`output-paths.ts`: a folder in the
 * way, a file where a folder must be, a dangling link), then every file is written to a temporary
 * sibling, and only when all of them are written are they renamed into place, so a failure (disk
 * full, permission, a bad template) leaves the project exactly as it was.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError, CliErrors, fileSystemErrorMessage } from "./errors.js";
import { outputPathProblem, shownPath, writeTarget } from "./output-paths.js";

export interface FileToWrite {
  /** Path relative to `root` (or absolute). */
  path: string;
  content: string;
  /** File mode, e.g. 0o755 for scripts. */
  mode?: number;
}

/** Throws, one line per path, when a file cannot be written at one of `paths`. */
export function checkOutputPaths(root: string, paths: readonly string[]): void {
  // One line per obstacle: a folder in the way of several outputs is named once.
  const problems = new Map<string, string>();
  for (const path of paths) {
    const problem = outputPathProblem(root, path);
    if (problem && !problems.has(problem.obstacle)) problems.set(problem.obstacle, problem.message);
  }
  if (problems.size) {
    throw new CliErrors([...problems.values()].map((p) => `${p}; nothing was written`));
  }
}

export function writeFilesAtomically(root: string, files: readonly FileToWrite[]): void {
  checkOutputPaths(
    root,
    files.map((f) => f.path),
  );
  const suffix = `.opgen-tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const staged: { tmp: string; target: string }[] = [];
  const createdDirs: string[] = [];
  try {
    for (const file of files) {
      const target = writeTarget(root, file.path);
      const made = mkdirSync(dirname(target), { recursive: true });
      if (made) createdDirs.push(made);
      const tmp = target + suffix;
      writeFileSync(tmp, file.content, { mode: file.mode ?? 0o644 });
      staged.push({ tmp, target });
    }
  } catch (error) {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    // Remove only the folders this call created, deepest first.
    for (const dir of createdDirs.reverse()) rmSync(dir, { recursive: true, force: true });
    throw failure(root, error, suffix, "nothing was written");
  }
  for (const [i, { tmp, target }] of staged.entries()) {
    try {
      renameSync(tmp, target);
    } catch (error) {
      for (const rest of staged.slice(i)) rmSync(rest.tmp, { force: true });
      const done = staged.slice(0, i).map((s) => shownPath(root, s.target));
      throw failure(
        root,
        error,
        suffix,
        done.length
          ? `only ${done.join(", ")} ${done.length === 1 ? "was" : "were"} written`
          : "nothing was written",
      );
    }
  }
}

/** A file-system failure as one line on the file the user knows (not its temporary sibling). */
function failure(root: string, error: unknown, suffix: string, outcome: string): unknown {
  const e = error as NodeJS.ErrnoException;
  const strip = (p: string | undefined) => (p?.endsWith(suffix) ? p.slice(0, -suffix.length) : p);
  const message = fileSystemErrorMessage(
    { code: e.code, syscall: e.syscall, path: strip(e.path) },
    root,
  );
  return message ? new CliError(`${message}; ${outcome}`) : error;
}

/** Deletes files (relative to `root`); used after a successful write, e.g. `manifests --prune`. */
export function removeFiles(root: string, paths: readonly string[]): void {
  for (const path of paths) rmSync(resolve(root, path), { force: true });
}
