/**
 * The scanned sources, read and parsed at most once per run. Parsing is syntax-only
 * (`typescript.createSourceFile`: no program, no type checker), so scanning a whole project stays in the
 * tens of milliseconds.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ts } from "ts-morph";
import { typescript } from "./typescript.js";

/** Source files by project-relative path, each read and parsed at most once per run. */
export class SourceCache {
  private readonly texts = new Map<string, string | undefined>();
  private readonly parsed = new Map<string, ts.SourceFile | undefined>();

  constructor(readonly projectDir: string) {}

  /** The file's text; undefined when it does not exist. Cheap: no parse. */
  text(path: string): string | undefined {
    if (this.texts.has(path)) return this.texts.get(path);
    const full = join(this.projectDir, path);
    const text =
      existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
    this.texts.set(path, text);
    return text;
  }

  /** The file's syntax tree (parent pointers set); undefined when it does not exist. */
  get(path: string): ts.SourceFile | undefined {
    if (this.parsed.has(path)) return this.parsed.get(path);
    const text = this.text(path);
    const file =
      text === undefined
        ? undefined
        : typescript.createSourceFile(
            path,
            text,
            typescript.ScriptTarget.Latest,
            true,
            typescript.ScriptKind.TS,
          );
    this.parsed.set(path, file);
    return file;
  }
}
