import { describe, expect, it } from "vitest";
import { createLogger, FlagError, managerOptionsFromArgs } from "../../src/index.js";

const parse = (args: string[]) => managerOptionsFromArgs(args, { exitOnError: false });

describe("managerOptionsFromArgs", () => {
  it("applies kubebuilder's defaults", () => {
    expect(parse([])).toEqual({
      metricsBindAddress: "0",
      metricsSecure: true,
      healthProbeBindAddress: ":8081",
      leaderElection: false,
    });
  });

  it("parses value and boolean flags in Go's forms", () => {
    expect(
      parse([
        "--metrics-bind-address=0",
        "-health-probe-bind-address",
        "127.0.0.1:9000",
        "--leader-elect",
        "--kubeconfig",
        "/tmp/kc",
        "--zap-devel=true",
        "--log-level=debug",
      ]),
    ).toEqual({
      metricsBindAddress: "0",
      metricsSecure: true,
      healthProbeBindAddress: "127.0.0.1:9000",
      leaderElection: true,
      kubeconfig: "/tmp/kc",
      development: true,
      logLevel: "debug",
    });
    expect(parse(["--leader-elect=false"]).leaderElection).toBe(false);
  });

  it("rejects unknown flags, missing values and bad values with one line", () => {
    expect(() => parse(["--bogus"])).toThrow(FlagError);
    expect(() => parse(["--bogus"])).toThrow(/^flag provided but not defined: -bogus/);
    expect(() => parse(["--kubeconfig"])).toThrow(/needs an argument/);
    expect(() => parse(["--log-level=loud"])).toThrow(/invalid value/);
    expect(() => parse(["--leader-elect=maybe"])).toThrow(/invalid boolean/);
    expect(() => parse(["stray"])).toThrow(/unexpected argument/);
  });
});

describe("logger", () => {
  const at = () => new Date("2026-01-01T00:00:00Z");

  it("writes one JSON object per line with context and redacts secrets", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), now: at })
      .withName("ctrl")
      .withValues({ controller: "c" });
    log.info("started", { workers: 2, token: "abc", password: "p" });
    log.debug("hidden");
    log.error("failed", new Error("boom"));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string)).toEqual({
      level: "info",
      ts: "2026-01-01T00:00:00.000Z",
      msg: "started",
      logger: "ctrl",
      controller: "c",
      workers: 2,
      token: "[redacted]",
      password: "[redacted]",
    });
    expect(JSON.parse(lines[1] as string)).toMatchObject({
      level: "error",
      msg: "failed",
      error: "boom",
    });
  });

  it("writes readable lines in development mode at debug level", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), now: at, development: true });
    log.debug("reconciling", { name: "x", n: 1 });
    expect(lines).toEqual(['2026-01-01T00:00:00.000Z\tDEBUG\treconciling\tname="x" n=1']);
  });

  it("honours the level", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), level: "warn" });
    log.info("no");
    log.warn("yes");
    expect(lines).toHaveLength(1);
    expect(log.enabled("info")).toBe(false);
  });
});
