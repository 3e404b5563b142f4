/**
 * Reading a file of the project (PROJECT, main.ts, a kustomization, a generated file to compare
 * with): undefined when there is none, and a folder, a dangling link or an unreadable file is a
 * one-line CliError naming it and what to do (Node's own error for reading a folder names no
 * path, and reads as an internal error).
 */
import { lstatSync, readFileSync, readlinkSync, type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import { CliError, fileSystemErrorMessage } from "./errors.js";
import { fileInTheWay, shownPath } from "./output-paths.js";

function stats(get: () => Stats): Stats | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

export function readProjectFile(root: string, path: string): string | undefined {
  const full = resolve(root, path);
  const show = shownPath(root, full);
  const link = stats(() => lstatSync(full));
  if (!link) {
    const blocker = fileInTheWay(full);
    if (blocker) {
      throw new CliError(
        `cannot read ${show}: ${shownPath(root, blocker)} is a file, not a folder; move it away and run again`,
      );
    }
    return undefined;
  }
  const stat = link.isSymbolicLink() ? stats(() => statSync(full)) : link;
  if (!stat) {
    throw new CliError(
      `cannot read ${show}: it is a symbolic link to ${readlinkSync(full)}, which does not exist; create its target or remove the link, and run again`,
    );
  }
  if (stat.isDirectory()) {
    throw new CliError(
      `cannot read ${show}: it is a folder, where opgen expects a file; move the folder away and run again`,
    );
  }
  try {
    return readFileSync(full, "utf8");
  } catch (error) {
    const message = fileSystemErrorMessage(error, root);
    if (message) throw new CliError(message);
    throw error;
  }
}
