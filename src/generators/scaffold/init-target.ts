/**
 * What `opgen init` accepts in the folder it scaffolds into. People start a repository before they
 * scaffold (`git init`, a README, a LICENSE, a .gitignore), so, like Kubebuilder's `checkDir`
 * (pkg/plugins/golang/v4/init.go), those are kept; any other file could clash with the project or
 * mean the folder already holds one, so it blocks the scaffold.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The scaffold's own files that a folder may already hold, and what happens to them. */
export const KEPT_README = /^readme(\.[^.]+)?$/i;
export const MERGED_IGNORE_FILES = [".gitignore", ".dockerignore"] as const;

/**
 * Legal and project notes: LICENSE, LICENCE, COPYING, NOTICE, AUTHORS, README, CHANGELOG, ... (any
 * case, with an optional suffix such as `.txt` or `-MIT`), and, as in Kubebuilder, any all-capital
 * name except PROJECT, which opgen writes itself.
 */
const LEGAL_FILE =
  /^(LICEN[CS]E|COPYING|NOTICE|AUTHORS|CONTRIBUTORS|PATENTS|README|CHANGELOG|CHANGES)([.-].*)?$/i;
const ALL_CAPITALS = /^[A-Z]+$/;

export function isAcceptedFile(name: string): boolean {
  if (name.startsWith(".")) return true;
  if (name.toLowerCase().endsWith(".md")) return true;
  if (name === "PROJECT") return false;
  return LEGAL_FILE.test(name) || ALL_CAPITALS.test(name);
}

/** Installed and built folders: named as one blocker, never listed file by file. */
const OPAQUE_FOLDERS = new Set(["node_modules", "dist"]);

/**
 * Every file below `root` that `opgen init` cannot scaffold next to, as sorted relative paths.
 * Dot-folders (.git, .github, .vscode) are not looked into: they are the user's tooling, and a
 * scaffold file inside one (.github/workflows/ci.yml) is caught by the file plan's own conflict
 * check. Other folders are looked into, so a `docs/` of Markdown is fine but `src/index.ts` is not;
 * `node_modules/` and `dist/` are blockers as a whole.
 */
export function findInitBlockers(root: string): string[] {
  const blockers: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir)) {
      const rel = prefix + name;
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        if (OPAQUE_FOLDERS.has(name)) blockers.push(`${rel}/`);
        else if (!name.startsWith(".")) walk(full, `${rel}/`);
      } else if (!isAcceptedFile(name)) {
        blockers.push(rel);
      }
    }
  };
  walk(root, "");
  return blockers.sort();
}

/** The user's top-level README, if any: the scaffold then keeps it and writes none of its own. */
export function findReadme(root: string): string | undefined {
  return readdirSync(root)
    .filter((name) => KEPT_README.test(name) && lstatSync(join(root, name)).isFile())
    .sort()[0];
}

/** The text of `root/path` when it is a regular file, else undefined. */
export function readExisting(root: string, path: string): string | undefined {
  try {
    if (!lstatSync(join(root, path)).isFile()) return undefined;
    return readFileSync(join(root, path), "utf8");
  } catch {
    return undefined;
  }
}

const patterns = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

/**
 * The user's ignore file with the scaffold's patterns added at the end, or undefined when nothing
 * is missing. In .gitignore and .dockerignore the last matching pattern wins, so appended lines
 * take effect. Without negations the order of the scaffold's patterns does not matter and only the
 * missing ones are appended; with a negation (the .dockerignore allow-list: `*`, then
 * `!package.json`, ...) order matters, so the whole list is appended unless the file already ends
 * with it.
 */
export function mergeIgnoreFile(existing: string, scaffold: string): string | undefined {
  const ours = patterns(scaffold);
  const theirs = patterns(existing);
  let missing: string[];
  if (ours.some((line) => line.startsWith("!"))) {
    const tail = theirs.slice(-ours.length);
    const endsWithOurs = tail.length === ours.length && tail.every((line, i) => line === ours[i]);
    missing = endsWithOurs ? [] : ours;
  } else {
    const present = new Set(theirs);
    missing = ours.filter((line) => !present.has(line));
  }
  if (missing.length === 0) return undefined;
  const kept = existing === "" ? "" : `${existing.replace(/[\r\n]*$/, "")}\n\n`;
  return `${kept}# Added by opgen init\n${missing.join("\n")}\n`;
}
