/** What every generator produces. */

/** A file a generator wants on disk; `path` is relative to the project root, POSIX separators. */
export interface GeneratedFile {
  path: string;
  content: string;
}
