/**
 * A file plan: every file a scaffolding command will create or change, built in memory first.
 * Conflicts (a new file that already exists) are found before anything is written, and the plan
 * is then written all at once, so a failing command leaves the project untouched.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFilesAtomically } from "../../util/atomic-write.js";
import { CliError } from "../../util/errors.js";
import { readProjectFile } from "../../util/read-file.js";

export interface PlannedFile {
  path: string;
  content: string;
  /** "create" refuses to overwrite; "update" replaces an existing file (an edit at an insertion point). */
  action: "create" | "update";
  mode?: number;
}

export class FilePlan {
  private readonly files = new Map<string, PlannedFile>();

  create(path: string, content: string, mode?: number): void {
    if (this.files.has(path)) throw new Error(`file plan: ${path} planned twice`);
    this.files.set(path, { path, content, action: "create", mode });
  }

  update(path: string, content: string): void {
    const existing = this.files.get(path);
    this.files.set(path, { path, content, action: existing?.action ?? "update" });
  }

  get(path: string): PlannedFile | undefined {
    return this.files.get(path);
  }

  list(): PlannedFile[] {
    return [...this.files.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The files to create that exist already, sorted. */
  clashes(root: string): string[] {
    return this.list()
      .filter((f) => f.action === "create" && existsSync(join(root, f.path)))
      .map((f) => f.path);
  }

  /** Throws (writing nothing) when a file to create exists already. */
  checkConflicts(root: string): void {
    const clashes = this.clashes(root);
    if (clashes.length > 0) {
      throw new CliError(
        `refusing to overwrite existing ${clashes.length === 1 ? "file" : "files"}: ${clashes.join(", ")} (move ${clashes.length === 1 ? "it" : "them"} away and run again)`,
      );
    }
  }

  /**
   * `--force`: every file to create that exists is overwritten instead (Kubebuilder's
   * `IfExistsAction = OverwriteFile`); a file that already holds the planned text is left out.
   */
  overwriteExisting(root: string): void {
    const clashes = new Set(this.clashes(root));
    for (const planned of this.list()) {
      if (planned.action === "create" && !clashes.has(planned.path)) continue;
      if (sameText(join(root, planned.path), planned.content)) this.files.delete(planned.path);
      else this.files.set(planned.path, { ...planned, action: "update" });
    }
  }

  write(root: string): void {
    this.checkConflicts(root);
    writeFilesAtomically(root, this.list());
  }
}

function sameText(file: string, content: string): boolean {
  return existsSync(file) && lstatSync(file).isFile() && readFileSync(file, "utf8") === content;
}

/** A file of the scaffold a command edits (main.ts, a kustomization): its text, or a one-line error. */
export function readScaffoldFile(root: string, path: string): string {
  const text = readProjectFile(root, path);
  if (text === undefined) {
    throw new CliError(
      `${path} is missing: it is part of the scaffold (restore it from \`opgen init\`)`,
    );
  }
  return text;
}
