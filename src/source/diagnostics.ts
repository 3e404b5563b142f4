/**
 * A problem found in a user's source file, positioned (`file:line:col`), as every command reports
 * them: the marker parser, the generators and the scaffold's edits alike.
 */

export type Severity = "error" | "warning";

/** A problem found in a source file; line and column are 1-based. */
export interface Diagnostic {
  severity: Severity;
  file: string;
  line: number;
  column: number;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity === "warning" ? "warning: " : ""}${d.message}`;
}
