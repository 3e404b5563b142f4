/** The CLI's start-up stays light: --help and --version load no heavy dependency. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, tempDir } from "../helpers/cli.js";

async function importsOf(
  args: string[],
): Promise<{ urls: string[]; stdout: string; exitCode: number }> {
  const trace = join(tempDir(), "imports.txt");
  const result = await execa(
    "node",
    ["--import", join(REPO_ROOT, "test/helpers/trace-imports.mjs"), CLI, ...args],
    {
      env: { OPGEN_TRACE_IMPORTS: trace },
      reject: false,
    },
  );
  const urls = readFileSync(trace, "utf8").trim().split("\n");
  return { urls, stdout: result.stdout, exitCode: result.exitCode ?? -1 };
}

const HEAVY = [
  "ts-morph",
  "typescript",
  "handlebars",
  "@kubernetes/client-node",
  "yaml",
  "@opgen/envtest",
  "execa",
];

describe("CLI start-up", () => {
  it.each([["--help"], ["--version"], ["create", "--help"], ["completion", "bash"]])(
    "opgen %s loads none of the heavy dependencies",
    async (...args) => {
      const { urls, exitCode } = await importsOf(args);
      expect(exitCode).toBe(0);
      expect(urls.some((u) => u.includes("/commander/"))).toBe(true); // the trace works
      for (const heavy of HEAVY) {
        expect(
          urls.filter((u) => u.includes(`/node_modules/${heavy}/`)),
          heavy,
        ).toEqual([]);
      }
    },
  );

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    const { stdout } = await importsOf(["--version"]);
    expect(stdout.trim()).toBe(pkg.version);
  });
});
