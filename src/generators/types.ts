/** Shapes shared by every generator: what a generator produces and how it reports problems. */

/** A file a generator wants on disk; `path` is relative to the project root, POSIX separators. */
export interface GeneratedFile {
  path: string;
  content: string;
}

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
