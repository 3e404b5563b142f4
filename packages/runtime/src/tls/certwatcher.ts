/**
 * controller-runtime's certwatcher: holds the serving certificate and key read from files and
 * reloads them when they change, so a rotated certificate (cert-manager renewing the Secret behind
 * a volume) is served on the next TLS handshake without a restart. Changes are noticed through
 * fs.watch on the folders (a Secret volume swaps a `..data` symlink, so the folder is watched,
 * not the files) and by polling every `intervalMs` in case events are missed. A pair that does not
 * load (half written, key not matching) is logged and the previous one kept. The metrics and the
 * webhook server both serve through it.
 */
import { type FSWatcher, readFileSync, watch } from "node:fs";
import { dirname } from "node:path";
import tls from "node:tls";
import type { Logger } from "../log/logger.js";

export interface CertPair {
  cert: Buffer;
  key: Buffer;
}

/** Which server's certificate, for error messages: its name and the flags that choose the files. */
export interface CertPurpose {
  /** e.g. "metrics" or "webhook". */
  server: string;
  /** e.g. "--metrics-cert-path, --metrics-cert-name and --metrics-cert-key". */
  flags: string;
  /** What to do when a file does not exist (default: check the flags). */
  missing?: string;
}

const defaultPurpose: CertPurpose = {
  server: "metrics",
  flags: "--metrics-cert-path, --metrics-cert-name and --metrics-cert-key",
};

export interface CertWatcherOptions {
  log: Logger;
  purpose?: CertPurpose;
  /** Called with each new valid pair. */
  onChange(pair: CertPair): void;
  /** Polling period (default 10 000 ms, as controller-runtime). */
  intervalMs?: number;
}

/** Reads and checks a pair; throws one line naming the files. */
export function readCertPair(
  certPath: string,
  keyPath: string,
  purpose: CertPurpose = defaultPurpose,
): CertPair {
  let pair: CertPair;
  try {
    pair = { cert: readFileSync(certPath), key: readFileSync(keyPath) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT" && purpose.missing) {
      throw new Error(
        `the ${purpose.server} certificate ${e.path} does not exist: ${purpose.missing}`,
      );
    }
    throw new Error(
      `cannot read the ${purpose.server} certificate: ${e.message}; check ${purpose.flags}`,
    );
  }
  try {
    tls.createSecureContext(pair); // parses both and checks that the key matches the certificate
  } catch (err) {
    throw new Error(
      `invalid ${purpose.server} certificate ${certPath} / key ${keyPath}: ${(err as Error).message}`,
    );
  }
  return pair;
}

export class CertWatcher {
  private current: CertPair;
  private watchers: FSWatcher[] = [];
  private timer?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;
  private lastError = "";

  /** Reads the pair at once: a missing or invalid certificate fails start, as in Go. */
  constructor(
    private readonly certPath: string,
    private readonly keyPath: string,
    private readonly opts: CertWatcherOptions,
  ) {
    this.current = readCertPair(certPath, keyPath, opts.purpose);
  }

  get pair(): CertPair {
    return this.current;
  }

  start(): void {
    const onEvent = () => {
      clearTimeout(this.debounce);
      // Writers replace cert and key one after the other: look once both have landed.
      this.debounce = setTimeout(() => this.check(), 50);
      this.debounce.unref();
    };
    for (const dir of new Set([dirname(this.certPath), dirname(this.keyPath)])) {
      try {
        const w = watch(dir, { persistent: false }, onEvent);
        w.on("error", () => w.close()); // the poll still notices changes
        this.watchers.push(w);
      } catch {
        // Some filesystems offer no events; polling covers them.
      }
    }
    this.timer = setInterval(() => this.check(), this.opts.intervalMs ?? 10_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.debounce);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }

  /** Reloads the pair if the files changed. */
  check(): void {
    let next: CertPair;
    try {
      next = readCertPair(this.certPath, this.keyPath, this.opts.purpose);
    } catch (err) {
      const msg = (err as Error).message;
      if (msg !== this.lastError) this.opts.log.error("failed to reload certificate", err);
      this.lastError = msg;
      return;
    }
    this.lastError = "";
    if (next.cert.equals(this.current.cert) && next.key.equals(this.current.key)) return;
    this.current = next;
    this.opts.log.info("Updated current TLS certificate", { cert: this.certPath });
    this.opts.onChange(next);
  }
}
