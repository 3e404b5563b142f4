// envtest in a child process (as a real API server would be, so its CPU is not the measured
// process's): resolves with a loaded KubeConfig, the kubeconfig path and a stop function.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Starts envtest with the CRDs under `crdDirectoryPaths` installed. */
export async function startEnvtestChild(crdDirectoryPaths) {
  const envtest = join(root, "packages/envtest/dist/index.js");
  const script = `
    const { startTestEnv } = await import(${JSON.stringify(envtest)});
    const env = await startTestEnv({ crdDirectoryPaths: ${JSON.stringify(crdDirectoryPaths)} });
    process.stdout.write(JSON.stringify({ kubeconfigPath: env.kubeconfigPath }) + "\\n");
    process.stdin.resume();
    process.stdin.on("end", async () => { await env.stop(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise((resolve, reject) => {
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`envtest child exited with ${code}`)));
  });
  const { kubeconfigPath } = JSON.parse(line);
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return {
    kc,
    kubeconfigPath,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.stdin.end();
      }),
  };
}
