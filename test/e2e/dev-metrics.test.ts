/**
 * `opgen dev` runs the operator with secure metrics on a local port and prints how to scrape them
 * with envtest's admin token: the printed command (real kubectl and curl) gets the Prometheus text,
 * and a scrape without the token is refused. The operator is the scaffolded main.ts on the built
 * @opgen/runtime, so no npm install is needed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";
import { startDev } from "../helpers/dev.js";

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

describe("opgen dev metrics", () => {
  it("prints a scrape command that works with envtest's admin token; no token is refused", async () => {
    const dir = project();
    const dev = startDev(dir, { timeoutMs: 30_000 });
    const [, command, port] = await dev.waitFor(
      /^metrics: (curl .* https:\/\/127\.0\.0\.1:(\d+)\/metrics)$/m,
    );
    await dev.waitFor(/operator ready/);
    await dev.waitFor(/Serving metrics server/);

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

    dev.signalGroup("SIGINT");
    const result = await dev.proc;
    expect(result.exitCode, dev.output()).toBe(0);
  });
});
