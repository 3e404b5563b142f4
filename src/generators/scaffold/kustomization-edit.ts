/**
 * Structured edits of kustomization.yaml files: add an entry to `resources` once, keeping the
 * user's comments, order and other fields as they are.
 */
import { isSeq, parseDocument, YAMLSeq } from "yaml";
import { CliError } from "../../util/errors.js";
import { yamlErrorLine } from "../../util/yaml-errors.js";

export interface AddResourceOptions {
  /** A comment written above the entry when it is added (e.g. to explain a group of entries). */
  comment?: string;
}

/**
 * Returns the kustomization text with `entry` in `resources` (appended when missing). Idempotent:
 * an entry already present leaves the text unchanged, byte for byte.
 */
export function addKustomizeResource(
  text: string,
  entry: string,
  file: string,
  options: AddResourceOptions = {},
): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new CliError(`${yamlErrorLine(file, doc.errors[0]!)}; fix it and run again`);
  }
  let resources = doc.get("resources", true);
  if (resources === undefined || resources === null) {
    resources = new YAMLSeq();
    doc.set("resources", resources);
  }
  if (!isSeq(resources)) {
    throw new CliError(`${file}: "resources" is not a list; fix it and run again`);
  }
  const seq = resources as YAMLSeq;
  const present = seq.items.some((item) => {
    const value = typeof item === "object" && item !== null && "value" in item ? item.value : item;
    return value === entry;
  });
  if (present) return text;
  seq.flow = false;
  const node = doc.createNode(entry);
  if (options.comment) node.commentBefore = options.comment;
  seq.items.push(node);
  return doc.toString({ indentSeq: false, lineWidth: 0 });
}
