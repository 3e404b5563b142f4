import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { LOG_LEVEL_ENV, logLevelFromEnv } from "../../src/log/logger.js";

describe("OPGEN_LOG_LEVEL", () => {
  const saved = process.env[LOG_LEVEL_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[LOG_LEVEL_ENV];
    else process.env[LOG_LEVEL_ENV] = saved;
  });

  it("reads the level, unset or empty meaning none, and names a bad value", () => {
    expect(logLevelFromEnv({})).toBeUndefined();
    expect(logLevelFromEnv({ OPGEN_LOG_LEVEL: "" })).toBeUndefined();
    expect(logLevelFromEnv({ OPGEN_LOG_LEVEL: "warn" })).toBe("warn");
    expect(() => logLevelFromEnv({ OPGEN_LOG_LEVEL: "verbose" })).toThrow(
      'OPGEN_LOG_LEVEL="verbose" is not a log level: use debug, info, warn or error',
    );
    expect(() => logLevelFromEnv({ OPGEN_LOG_LEVEL: "toString" })).toThrow(/not a log level/);
  });

  it("sets the level of a logger given none; an explicit level wins", () => {
    process.env[LOG_LEVEL_ENV] = "warn";
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    log.info("quiet");
    log.warn("shown");
    log.error("shown too");
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["shown", "shown too"]);

    const development = createLogger({ development: true, write: (l) => lines.push(l) });
    expect(development.enabled("debug")).toBe(false);

    process.env[LOG_LEVEL_ENV] = "debug";
    expect(createLogger({ write: () => {} }).enabled("debug")).toBe(true);
    expect(createLogger({ level: "error", write: () => {} }).enabled("warn")).toBe(false);
  });

  it("leaves the defaults alone when unset: info, debug in development", () => {
    delete process.env[LOG_LEVEL_ENV];
    expect(createLogger({ write: () => {} }).enabled("info")).toBe(true);
    expect(createLogger({ write: () => {} }).enabled("debug")).toBe(false);
    expect(createLogger({ development: true, write: () => {} }).enabled("debug")).toBe(true);
  });
});
