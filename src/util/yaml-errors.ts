/**
 * YAML parse errors as one line. The yaml library's messages end with " at line L, column C:" and
 * a code frame of several lines; opgen reports `file:line:col: not valid YAML: <reason>` instead,
 * as it reports source errors.
 */
import type { YAMLError } from "yaml";

const POSITION = / at line (\d+), column (\d+):?$/;

/** The library's reason alone: the first line, without its " at line L, column C:". */
export function yamlReason(error: Error): string {
  return (error.message.split("\n")[0] ?? "").replace(POSITION, "");
}

/** `file:line:col: not valid YAML: <reason>` for a parse error of `file`. */
export function yamlErrorLine(file: string, error: YAMLError | Error): string {
  const pos = (error as YAMLError).linePos?.[0];
  const at = pos ? `${file}:${pos.line}:${pos.col}` : file;
  return `${at}: not valid YAML: ${yamlReason(error)}`;
}

/**
 * A message that quotes a YAML error as `<file>: <reason> at line L, column C:` followed by the
 * code frame (how @opgen/envtest reports a manifest that does not parse), rewritten as one line
 * with `<file>:L:C: not valid YAML: <reason>` (the file relative to `cwd` when under it); any
 * other message is returned as it is.
 */
export function oneLineYamlMessage(message: string, cwd = process.cwd()): string {
  const [first = "", ...rest] = message.split("\n");
  const match = /^(.*?)([^\s:][^:]*\.(?:ya?ml|json)): (.+) at line (\d+), column (\d+):$/.exec(
    first,
  );
  if (!match || rest.length === 0) return message;
  const [, prefix, path = "", reason, line, col] = match;
  const file = path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
  return `${prefix}${file}:${line}:${col}: not valid YAML: ${reason}`;
}
