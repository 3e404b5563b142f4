import { resolve } from "node:path";
import { fileInTheWay } from "./output-paths.js";

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

/** What each error code means, and what to do about it. */
const FS_REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied; check the permissions of the file and its folders",
  EPERM: "operation not permitted; check the permissions of the file and its folders",
  EROFS: "the file system is read-only; write to another folder",
  ENOSPC: "no space left on the device; free some space and run again",
  EDQUOT: "disk quota exceeded; free some space and run again",
  ENOTDIR: "a part of the path is a file, not a folder; move that file away",
  EISDIR: "it is a folder, not a file; move the folder away",
  ENOENT: "no such file or folder",
  EEXIST: "it already exists",
  ELOOP: "too many symbolic links (a link cycle?); fix the links",
  ENAMETOOLONG: "the name is too long; choose a shorter path",
  EMFILE: "too many open files; raise the limit (ulimit -n) and run again",
  EBUSY: "the file is busy; close what holds it and run again",
};

/**
 * A file-system failure (a Node error with a `code` and a `path`) as one line naming the path,
 * the reason and what to do, or undefined for any other error: such conditions are the user's
 * machine, not an internal error.
 */
export function fileSystemErrorMessage(error: unknown, cwd = process.cwd()): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  if (!e || typeof e.code !== "string" || typeof e.path !== "string") return undefined;
  const shown = (p: string) => (p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p);
  const what = e.syscall ? `${e.syscall.replace(/sync$/i, "")} ` : "";
  // "A part of the path is a file": which part, when it can be found.
  const blocker = e.code === "ENOTDIR" ? fileInTheWay(resolve(cwd, e.path), true) : undefined;
  const reason = blocker
    ? `${shown(blocker)} is a file, not a folder; move it away`
    : (FS_REASONS[e.code] ?? e.code);
  return `cannot ${what}${shown(e.path)}: ${reason}`;
}
