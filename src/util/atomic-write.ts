/**
 * All-or-nothing file output. Every file is first written to a temporary sibling, and only when
 * all of them are written are they renamed into place, so a failure (disk full, permission, a bad
 * template) leaves the project exactly as it was.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CliError, fileSystemErrorMessage } from "./errors.js";

export interface FileToWrite {
  /** Path relative to `root`. */
  path: string;
  content: string;
  /** File mode, e.g. 0o755 for scripts. */
  mode?: number;
}

export function writeFilesAtomically(root: string, files: readonly FileToWrite[]): void {
  const suffix = `.opgen-tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const staged: { tmp: string; target: string }[] = [];
  const createdDirs: string[] = [];
  try {
    for (const file of files) {
      const target = join(root, file.path);
      const dir = dirname(target);
      const made = mkdirSync(dir, { recursive: true });
      if (made) createdDirs.push(made);
      const tmp = target + suffix;
      writeFileSync(tmp, file.content, { mode: file.mode ?? 0o644 });
      staged.push({ tmp, target });
    }
  } catch (error) {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    // Remove only the folders this call created, deepest first.
    for (const dir of createdDirs.reverse()) rmSync(dir, { recursive: true, force: true });
    // A failure on a temporary sibling is reported on the file the user knows.
    const e = error as NodeJS.ErrnoException;
    const path = e.path?.endsWith(suffix) ? e.path.slice(0, -suffix.length) : e.path;
    const message = fileSystemErrorMessage({ code: e.code, syscall: e.syscall, path }, root);
    if (message) throw new CliError(`${message}; nothing was written`);
    throw error;
  }
  for (const { tmp, target } of staged) renameSync(tmp, target);
}

/** Deletes files (relative to `root`); used after a successful write, e.g. `manifests --prune`. */
export function removeFiles(root: string, paths: readonly string[]): void {
  for (const path of paths) rmSync(join(root, path), { force: true });
}
