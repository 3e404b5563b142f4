import { afterEach, describe, expect, it, vi } from "vitest";
import { seconds, startStep } from "../../src/util/progress.js";

describe("startStep", () => {
  const writes: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    writes.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });

  it("announces the step once on a log and keeps the command's output instead of streaming it", async () => {
    capture();
    const step = startStep(
      "Doing it",
      process.execPath,
      ["-e", "console.log('out'); console.error('err')"],
      {
        cwd: process.cwd(),
      },
    );
    const result = await step.result;
    expect(writes).toEqual(["Doing it...\n"]);
    expect(result.exitCode).toBe(0);
    expect(result.output.split("\n").sort()).toEqual(["err", "out"]);
    expect(seconds(result)).toMatch(/^\d+\.\ds$/);
  });

  it("reports a failing command's exit code with its output", async () => {
    capture();
    const result = await startStep(
      "Failing",
      process.execPath,
      ["-e", "console.error('no'); process.exit(3)"],
      {
        cwd: process.cwd(),
      },
    ).result;
    expect(result.exitCode).toBe(3);
    expect(result.output).toBe("no");
    expect(result.startError).toBeUndefined();
  });

  it("says why a command that cannot start did not run", async () => {
    capture();
    const result = await startStep("Missing", "opgen-no-such-command", [], { cwd: process.cwd() })
      .result;
    expect(result.exitCode).toBeUndefined();
    expect(result.startError).toMatch(/ENOENT|not found/);
  });

  it("stops a running step when killed", async () => {
    capture();
    const step = startStep("Long", process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      cwd: process.cwd(),
    });
    step.kill();
    const result = await step.result;
    expect(result.exitCode).toBeUndefined();
    expect(result.signal).toBe("SIGTERM");
  });
});
