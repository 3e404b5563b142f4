/** Boolean flags read as pflag reads Kubebuilder's: bare, or with a value after `=`. */
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { parseBoolValue } from "../../src/cli/bool-flags.js";
import { OpgenCommand } from "../../src/cli/command.js";

function parse(args: string[]): Record<string, unknown> {
  let seen: Record<string, unknown> = {};
  const program = new OpgenCommand("opgen")
    .exitOverride()
    .configureOutput({ outputError: () => {} });
  program
    .command("api")
    .option("--kind <kind>", "kind")
    .option("--paths <dir...>", "folders")
    .option("--namespaced", "namespaced", true)
    .option("--force", "overwrite")
    .option("--no-gc", "no garbage collection")
    .action((opts) => {
      seen = opts;
    });
  program.parse(["api", ...args], { from: "user" });
  return seen;
}

function failure(args: string[]): string {
  try {
    parse(args);
  } catch (error) {
    expect(error).toBeInstanceOf(CommanderError);
    return (error as CommanderError).message;
  }
  throw new Error(`${args.join(" ")} was accepted`);
}

describe("boolean flags", () => {
  it("take their defaults when absent", () => {
    expect(parse([])).toEqual({ namespaced: true, gc: true });
  });

  it("are true when given bare", () => {
    expect(parse(["--force", "--namespaced"])).toMatchObject({ force: true, namespaced: true });
  });

  it.each([
    ["--namespaced=false", { namespaced: false }],
    ["--namespaced=true", { namespaced: true }],
    ["--force=false", { force: false }],
    ["--force=T", { force: true }],
    ["--force=0", { force: false }],
    ["--no-gc=true", { gc: false }],
    ["--no-gc=false", { gc: true }],
    ["--no-gc", { gc: false }],
  ])("read %s", (arg, expected) => {
    expect(parse([arg])).toMatchObject(expected);
  });

  it("let the last occurrence win, as pflag does", () => {
    expect(parse(["--namespaced=false", "--namespaced"])).toMatchObject({ namespaced: true });
    expect(parse(["--namespaced", "--namespaced=false"])).toMatchObject({ namespaced: false });
  });

  it("leave values of other flags alone, even when they look like a boolean flag", () => {
    expect(parse(["--kind", "--force", "--namespaced=false"])).toMatchObject({
      kind: "--force",
      namespaced: false,
    });
    expect(parse(["--paths", "a", "b", "--force"])).toMatchObject({
      paths: ["a", "b"],
      force: true,
    });
  });

  it("stop at --", () => {
    expect(failure(["--", "--force"])).toMatch(/too many arguments/);
  });

  it("refuse a value that is not a boolean, naming the spellings that work", () => {
    expect(failure(["--namespaced=maybe"])).toBe(
      "option '--namespaced' argument 'maybe' is invalid: expected true or false (--namespaced=true or --namespaced=false)",
    );
    expect(failure(["--force="])).toMatch(/argument '' is invalid/);
  });

  it("refuse a boolean written after a bare flag, showing the '=' spelling", () => {
    expect(failure(["--namespaced", "false"])).toBe(
      "unexpected argument 'false' after --namespaced: a boolean flag takes its value after '=' (--namespaced=false), as in Kubebuilder",
    );
  });

  it("accept strconv.ParseBool's spellings and no other", () => {
    for (const t of ["1", "t", "T", "TRUE", "true", "True"]) expect(parseBoolValue(t)).toBe(true);
    for (const f of ["0", "f", "F", "FALSE", "false", "False"])
      expect(parseBoolValue(f)).toBe(false);
    for (const x of ["yes", "no", "on", "tRUE", ""]) expect(parseBoolValue(x)).toBeUndefined();
  });
});
