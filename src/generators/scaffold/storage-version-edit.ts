/**
 * The `@storageversion` marker on a kind's root type, added by `create webhook --conversion` to the
 * hub as Kubebuilder's TypesUpdater adds `// +kubebuilder:storageversion`: the hub is the version
 * the API server stores.
 */
import { type JSDoc, Project, type SourceFile } from "ts-morph";
import { CliError } from "../../util/errors.js";

const MARKER = /@(?:kubebuilder:)?storageversion\b/;

function rootType(source: SourceFile, kind: string) {
  return source.getInterface(kind) ?? source.getClass(kind) ?? source.getTypeAlias(kind);
}

function load(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  return project.createSourceFile("types.ts", text);
}

/** True when the JSDoc of `kind`'s root type carries `@storageversion`. */
export function hasStorageVersion(text: string, kind: string): boolean {
  const node = rootType(load(text), kind);
  return node?.getJsDocs().some((d: JSDoc) => MARKER.test(d.getText())) ?? false;
}

/** Returns the types file with `@storageversion` in the JSDoc of `kind` (unchanged if it is there). */
export function addStorageVersion(text: string, file: string, kind: string): string {
  const source = load(text);
  const node = rootType(source, kind);
  if (!node) {
    throw new CliError(
      `${file}: no interface ${kind} to mark @storageversion; restore the root type of ${kind} and run again`,
    );
  }
  const docs = node.getJsDocs();
  if (docs.some((d) => MARKER.test(d.getText()))) return text;
  const doc = docs.at(-1);
  if (!doc) {
    const start = node.getStart();
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    return `${text.slice(0, lineStart)}${indent}/** @storageversion */\n${text.slice(lineStart)}`;
  }
  const docText = doc.getText();
  const start = doc.getStart();
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  if (!docText.includes("\n")) {
    // `/** text */` becomes a block with the marker on its own line.
    const inner = docText.slice(3, -2).trim();
    const block = `/**\n${indent} * ${inner}\n${indent} * @storageversion\n${indent} */`;
    return text.slice(0, start) + block + text.slice(doc.getEnd());
  }
  const closing = start + docText.lastIndexOf("\n");
  return `${text.slice(0, closing)}\n${indent} * @storageversion${text.slice(closing)}`;
}
