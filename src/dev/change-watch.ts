/**
 * The operator's sources as `opgen dev` watches them for a reload: `src/`, recursively; the
 * writes of one save (editors write, rename and touch) are debounced into one change.
 */
import { type FSWatcher, watch } from "node:fs";

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json)$/;

export class ChangeWatch {
  private readonly watcher: FSWatcher;
  private timer: NodeJS.Timeout | undefined;
  private pending = false;
  private wake: (() => void) | undefined;

  constructor(dir: string, debounceMs = 300) {
    this.watcher = watch(dir, { recursive: true }, (_event, file) => {
      if (file && !SOURCE.test(String(file))) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.pending = true;
        this.wake?.();
      }, debounceMs);
    });
    // A folder removed under the watcher ends watching; the running operator stays.
    this.watcher.on("error", () => this.close());
  }

  /** Resolves at the next change, at once if one came since the last change was taken. */
  next(): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        this.pending = false;
        resolve();
      };
    });
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher.close();
  }
}
