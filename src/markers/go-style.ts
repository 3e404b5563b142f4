/**
 * controller-gen markers pasted as Go `//` line comments (`// +kubebuilder:rbac:...`): opgen reads
 * only JSDoc, so such a line would silently do nothing. Each generator asks for its own marker
 * names and says what the line fails to do and how the JSDoc form reads.
 */
import type { Diagnostic } from "../source/diagnostics.js";
import { LineMap } from "./jsdoc.js";

export interface GoStyleMarkerRule {
  /** The marker names after `+kubebuilder:`, a regular expression source (`webhook(?:configuration)?`). */
  names: string;
  /** The text every such line contains (a cheap pre-check), e.g. `+kubebuilder:rbac:`. */
  literal: string;
  /** The warning for one line, given the marker name and its arguments as written. */
  message: (name: string, args: string) => string;
}

/** One warning per Go-style marker line of `text`, at the `//`. */
export function goStyleMarkerWarnings(
  path: string,
  text: string,
  rule: GoStyleMarkerRule,
): Diagnostic[] {
  if (!text.includes(rule.literal)) return [];
  const pattern = new RegExp(`^([ \\t]*\\/\\/[ \\t]*)\\+kubebuilder:(${rule.names}):(.*)$`, "gm");
  const lines = new LineMap(path, text);
  const found: Diagnostic[] = [];
  for (const match of text.matchAll(pattern)) {
    const pos = lines.position(match.index + match[1]!.length);
    found.push({
      severity: "warning",
      file: path,
      line: pos.line,
      column: pos.column,
      message: rule.message(match[2]!, match[3]!),
    });
  }
  return found;
}
