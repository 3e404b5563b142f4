/** Shared helpers for envtest's own tests: running the real kubectl against a test server. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import type { TestEnv } from "../src/index.js";

export const fixtures = join(import.meta.dirname, "fixtures");

/** Runs kubectl with the env's kubeconfig and a private discovery cache; never throws. */
export async function kubectl(env: TestEnv, args: string[], input?: string) {
  const cache = cacheDirs.get(env) ?? mkdtempSync(join(tmpdir(), "kubectl-cache-"));
  cacheDirs.set(env, cache);
  const r = await execa(
    "kubectl",
    ["--kubeconfig", env.kubeconfigPath, "--cache-dir", cache, ...args],
    {
      reject: false,
      ...(input !== undefined ? { input } : {}),
      timeout: 30_000,
      env: { KUBECTL_VERSION_CHECK: "false" },
    },
  );
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const cacheDirs = new WeakMap<TestEnv, string>();
