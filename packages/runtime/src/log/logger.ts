/**
 * A small structured logger: one JSON object per line in production (what log pipelines parse),
 * a readable single line in development (zap's development encoder). Loggers carry key/value
 * context (`withValues`), like logr. Every line goes through `redact` (redact.ts): credentials are
 * replaced at any depth (keys naming them, Secret data, header values, bearer tokens in text), so
 * a careless `log.info("cfg", { token })` or `log.info("got", { secret })` does not leak them.
 */
import { redactFields, scrubString } from "./redact.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  /** Logs `err` (message and, in development, stack) with the message. */
  error(msg: string, err?: unknown, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  withValues(fields: LogFields): Logger;
  /** A logger whose `logger` name gets `.name` appended. */
  withName(name: string): Logger;
  enabled(level: LogLevel): boolean;
}

/**
 * The environment variable that sets the level of a logger given none (`OPGEN_LOG_LEVEL=debug`):
 * the manager's `--log-level` flag or `logLevel` option wins over it. Generated projects' tests
 * set it to `warn` unless it is already set (vitest.config.ts).
 */
export const LOG_LEVEL_ENV = "OPGEN_LOG_LEVEL";

/** The level named by OPGEN_LOG_LEVEL, if set; a value that is no level is an error naming it. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel | undefined {
  const value = env[LOG_LEVEL_ENV];
  if (value === undefined || value === "") return undefined;
  if (Object.hasOwn(order, value)) return value as LogLevel;
  throw new Error(
    `${LOG_LEVEL_ENV}=${JSON.stringify(value)} is not a log level: use debug, info, warn or error`,
  );
}

export interface LoggerOptions {
  /** Default: OPGEN_LOG_LEVEL, else debug in development and info otherwise. */
  level?: LogLevel;
  /** Human-readable lines instead of JSON (the `--zap-devel` mode). */
  development?: boolean;
  /** Where lines go; defaults to stderr, as zap does. */
  write?: (line: string) => void;
  name?: string;
  now?: () => Date;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return new StructuredLogger(
    {
      level: opts.level ?? logLevelFromEnv() ?? (opts.development ? "debug" : "info"),
      development: opts.development ?? false,
      write: opts.write ?? ((line) => process.stderr.write(`${line}\n`)),
      now: opts.now ?? (() => new Date()),
    },
    opts.name ?? "",
    {},
  );
}

/** A logger that drops everything (for tests and libraries given no logger). */
export const nullLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  withValues() {
    return nullLogger;
  },
  withName() {
    return nullLogger;
  },
  enabled() {
    return false;
  },
};

interface Sink {
  level: LogLevel;
  development: boolean;
  write: (line: string) => void;
  now: () => Date;
}

class StructuredLogger implements Logger {
  constructor(
    private readonly sink: Sink,
    private readonly name: string,
    private readonly fields: LogFields,
  ) {}

  enabled(level: LogLevel): boolean {
    return order[level] >= order[this.sink.level];
  }

  debug(msg: string, fields?: LogFields): void {
    this.log("debug", msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.log("info", msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.log("warn", msg, fields);
  }

  error(msg: string, err?: unknown, fields?: LogFields): void {
    if (!this.enabled("error")) return;
    const extra: LogFields = { ...fields };
    if (err !== undefined) {
      // Strings here are scrubbed with the rest of the line (a token in a message is redacted).
      extra.error =
        err instanceof Error ? err.message : typeof err === "object" && err ? err : String(err);
      if (this.sink.development && err instanceof Error && err.stack) extra.stacktrace = err.stack;
    }
    this.log("error", msg, extra);
  }

  withValues(fields: LogFields): Logger {
    return new StructuredLogger(this.sink, this.name, { ...this.fields, ...fields });
  }

  withName(name: string): Logger {
    return new StructuredLogger(this.sink, this.name ? `${this.name}.${name}` : name, this.fields);
  }

  private log(level: LogLevel, msg: string, fields?: LogFields): void {
    if (!this.enabled(level)) return;
    const all = redactFields({ ...this.fields, ...fields });
    const text = scrubString(msg);
    const ts = this.sink.now().toISOString();
    if (this.sink.development) {
      const kv = Object.entries(all)
        .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : safeJson(v)}`)
        .join(" ");
      const name = this.name ? `\t${this.name}` : "";
      this.sink.write(`${ts}\t${level.toUpperCase()}${name}\t${text}${kv ? `\t${kv}` : ""}`);
      return;
    }
    const record: LogFields = { level, ts, msg: text };
    if (this.name) record.logger = this.name;
    this.sink.write(safeJson({ ...record, ...all }));
  }
}

function safeJson(v: unknown): string {
  try {
    return (
      JSON.stringify(v, (_k, val) => (typeof val === "bigint" ? val.toString() : val)) ?? "null"
    );
  } catch {
    return JSON.stringify(String(v));
  }
}
