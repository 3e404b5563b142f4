/**
 * `opgen dev` runs the operator with secure metrics on a local port and prints how to scrape them
 * with envtest's admin token: the printed command (real kubectl and curl) gets the Prometheus text,
 * and a scrape without the token is refused. The operator is the scaffolded main.ts on the built
 * @opgen/runtime, so no npm install is needed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, tempDir } from "../helpers/cli.js";

const RUNTIME = join(REPO_ROOT, "packages/runtime/dist/index.js");

const MAIN = `
const { createManager, managerOptionsFromArgs, setupSignalHandler } = await import(${JSON.stringify(RUNTIME)});
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "dev-metrics" });
void mgr.elected.then(() => console.log("operator ready"));
await mgr.start(setupSignalHandler());
`;

function project(): string {
  const dir = tempDir("opgen-dev-metrics-");
  writeFileSync(
    join(dir, "PROJECT"),
    "domain: my.domain\nlayout:\n- typescript.opgen.io/v1\nprojectName: dev-metrics\nresources: []\nversion: '3'\n",
  );
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist/main.js"), MAIN);
  return dir;
}

const started: Array<{ pid?: number }> = [];
afterEach(() => {
  for (const p of started.splice(0)) {
    try {
      if (p.pid) process.kill(-p.pid, "SIGKILL");
    } catch {}
  }
});

describe("opgen dev metrics", () => {
  it("prints a scrape command that works with envtest's admin token; no token is refused", async () => {
    const dir = project();
    const proc = execa("node", [CLI, "dev", "--no-build", "--kubeconfig", "kc.yaml"], {
      cwd: dir,
      all: true,
      reject: false,
      detached: true,
      env: { OPGEN_DEBUG: "" },
    });
    started.push(proc);
    let output = "";
    proc.all.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const waitFor = async (re: RegExp) => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        const m = output.match(re);
        if (m) return m;
        if (proc.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no ${re} in the output of opgen dev:\n${output}`);
    };
    const [, command, port] = await waitFor(
      /^metrics: (curl .* https:\/\/127\.0\.0\.1:(\d+)\/metrics)$/m,
    );
    await waitFor(/operator ready/);
    await waitFor(/Serving metrics server/);

    const scraped = await execa("bash", ["-c", `${command} --fail --silent --show-error`], {
      cwd: dir,
      reject: false,
    });
    expect(scraped.stderr).toBe("");
    expect(scraped.exitCode).toBe(0);
    expect(scraped.stdout).toContain("# TYPE rest_client_requests_total counter");
    // The printed command does not carry the token itself: it reads it from the kubeconfig.
    expect(command).toContain("config view --raw");

    const anonymous = await execa(
      "curl",
      ["-k", "--silent", "--write-out", "%{http_code}", `https://127.0.0.1:${port}/metrics`],
      { reject: false },
    );
    expect(anonymous.stdout).toBe("Unauthorized\n401");

    process.kill(-(proc.pid as number), "SIGINT");
    const result = await proc;
    expect(result.exitCode, output).toBe(0);
  });
});
