/**
 * Where opgen writes files, checked before anything is written: a folder where the file goes, a
 * file where a folder of its path must be, or a symbolic link to nothing is one line naming the
 * path and what to do. A link to a file is written through (the link stays), as Kubebuilder and
 * controller-gen write through links. Paths are relative to the project (or absolute, from
 * flags such as --output-dir).
 */
import { lstatSync, readlinkSync, realpathSync, type Stats, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

function stats(get: () => Stats): Stats | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** How a path is shown: relative to the project when inside it. */
export function shownPath(root: string, full: string): string {
  const rel = relative(root, full);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? full : rel.split(sep).join("/");
}

/**
 * The first folder of `full`'s path that is a file (or a link to one), when one is; with
 * `itself`, `full` too (a folder that was expected, such as a readdir's).
 */
export function fileInTheWay(full: string, itself = false): string | undefined {
  const parts = full.split(sep).filter(Boolean);
  for (let i = 1; i < parts.length + (itself ? 1 : 0); i++) {
    const part = `${sep}${parts.slice(0, i).join(sep)}`;
    const stat = stats(() => statSync(part));
    if (!stat) return undefined;
    if (!stat.isDirectory()) return part;
  }
  return undefined;
}

export interface PathProblem {
  /** The part of the path in the way: the file itself, or a folder of its path. */
  obstacle: string;
  message: string;
}

/** Why a file cannot be written at `path` (relative to `root`, or absolute), or undefined. */
export function outputPathProblem(root: string, path: string): PathProblem | undefined {
  const target = resolve(root, path);
  const show = (full: string) => shownPath(root, full);
  // From the file system's root down: the first part that does not exist ends the walk, as
  // every folder below it is made on the write.
  const parts = target.split(sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const full = `${sep}${parts.slice(0, i).join(sep)}`;
    const link = stats(() => lstatSync(full));
    if (!link) return undefined;
    const stat = link.isSymbolicLink() ? stats(() => statSync(full)) : link;
    if (!stat) {
      const which = full === target ? "it" : show(full);
      return {
        obstacle: full,
        message: `cannot write ${show(target)}: ${which} is a symbolic link to ${readlinkSync(full)}, which does not exist; create its target or remove the link, and run again`,
      };
    }
    if (i < parts.length && !stat.isDirectory()) {
      return {
        obstacle: full,
        message: `cannot write ${show(target)}: ${show(full)} is a file, not a folder; move it away (or write elsewhere) and run again`,
      };
    }
    if (i === parts.length && stat.isDirectory()) {
      return {
        obstacle: full,
        message: `cannot write ${show(target)}: it is a folder; move it away (or write elsewhere) and run again`,
      };
    }
    if (i === parts.length && !stat.isFile()) {
      return {
        obstacle: full,
        message: `cannot write ${show(target)}: it is not a regular file; move it away (or write elsewhere) and run again`,
      };
    }
  }
  return undefined;
}

/** The file a write of `path` replaces: the target of a link, else the path itself (absolute). */
export function writeTarget(root: string, path: string): string {
  const target = resolve(root, path);
  return stats(() => lstatSync(target))?.isSymbolicLink() ? realpathSync(target) : target;
}
