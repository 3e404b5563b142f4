/**
 * The kubeconfig `opgen dev` hands to kubectl. The operator runs on envtest's private copy; this
 * one appears (atomically, owner-only) only once everything it leads to serves, so a script that
 * waits for the file can use it at once. A file left by an earlier session points at a server
 * that is gone: it is removed at start, after checking that the path can be written at all.
 */
import { chmodSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { CliError } from "../util/errors.js";

/** Fails in one line when `path` cannot be written; removes a kubeconfig left there. */
export function claimKubeconfigPath(path: string): void {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw cannotWrite(path, { code: "EISDIR" } as NodeJS.ErrnoException);
  }
  const probe = temporarySibling(path);
  try {
    writeFileSync(probe, "", { mode: 0o600, flag: "wx" });
  } catch (e) {
    throw cannotWrite(path, e as NodeJS.ErrnoException);
  } finally {
    rmSync(probe, { force: true });
  }
  rmSync(path, { force: true });
}

/** Copies the kubeconfig at `from` to `path` in one rename, mode 0600. */
export function publishKubeconfig(from: string, path: string): void {
  const tmp = temporarySibling(path);
  try {
    writeFileSync(tmp, readFileSync(from), { mode: 0o600, flag: "wx" });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw cannotWrite(path, e as NodeJS.ErrnoException);
  }
}

function temporarySibling(path: string): string {
  return `${path}.${process.pid}.${Date.now()}.tmp`;
}

function cannotWrite(path: string, e: NodeJS.ErrnoException): CliError {
  const why =
    e.code === "ENOENT"
      ? "its folder does not exist"
      : e.code === "EACCES" || e.code === "EPERM" || e.code === "EROFS"
        ? "its folder is not writable"
        : e.code === "EISDIR"
          ? "it is a folder"
          : e.message;
  return new CliError(`cannot write the kubeconfig ${path}: ${why}; choose another --kubeconfig`);
}
