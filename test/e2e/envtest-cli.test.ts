/** `opgen envtest` in the foreground: ready line, CRDs installed, kubectl works, clean exit on signals. */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, runCli, tempDir } from "../helpers/cli.js";
import { CONTROLLER_GEN_FIXTURES } from "../helpers/fixtures.js";

async function startEnvtest(dir: string, args: string[]) {
  const proc = execa("node", [CLI, "envtest", ...args], { cwd: dir, all: true, reject: false });
  let output = "";
  proc.all!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (let i = 0; i < 200 && !output.includes("ready"); i++)
    await new Promise((r) => setTimeout(r, 50));
  return { proc, output: () => output };
}

describe("opgen envtest", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "serves kubectl with the CRDs installed and exits 0 on %s",
    async (signal) => {
      const dir = tempDir();
      mkdirSync(join(dir, "crds"));
      copyFileSync(
        join(CONTROLLER_GEN_FIXTURES, "crd/bar.example.com_foos.yaml"),
        join(dir, "crds/foos.yaml"),
      );
      const { proc, output } = await startEnvtest(dir, [
        "--crd-dir",
        "crds",
        "--kubeconfig",
        "kc.yaml",
      ]);
      try {
        expect(output()).toMatch(/^envtest ready at https:\/\/127\.0\.0\.1:\d+ /m);
        const kubectl = await execa("kubectl", [
          "--kubeconfig",
          join(dir, "kc.yaml"),
          "get",
          "crd",
          "-o",
          "name",
        ]);
        expect(kubectl.stdout).toContain(
          "customresourcedefinition.apiextensions.k8s.io/foos.bar.example.com",
        );
      } finally {
        proc.kill(signal);
      }
      const result = await proc;
      expect(result.exitCode, output()).toBe(0);
    },
  );

  it("rejects a missing --crd-dir in one line", async () => {
    const result = await runCli(["envtest", "--crd-dir", "nope"], tempDir());
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toMatch(/^opgen: --crd-dir .*nope: no such file or directory$/);
  });

  it("exits 1 in one line when the kubeconfig cannot be written, releasing its port", async () => {
    const dir = tempDir();
    const result = await runCli(["envtest", "--kubeconfig", "missing/kc.yaml"], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      `opgen: envtest failed to start: cannot write the kubeconfig ${join(dir, "missing/kc.yaml")}: its folder does not exist; choose another path`,
    );
  });
});
