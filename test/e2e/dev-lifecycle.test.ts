/**
 * `opgen dev`'s lifecycle as a terminal drives it: Ctrl-C reaches every process of the terminal's
 * foreground group, so the test runs opgen dev in a group of its own and signals the group. The
 * operator is a real @opgen/runtime manager (the scaffolded main.ts with one ConfigMap controller,
 * built already), so no npm install is needed and the test stays quick.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, tempDir } from "../helpers/cli.js";
import { type Dev, startDev } from "../helpers/dev.js";

const RUNTIME = join(REPO_ROOT, "packages/runtime/dist/index.js");
// Start-up of envtest and the operator takes a second alone, several on a busy 2-core CI machine.
const SLOW = 60_000;

/** src/main.ts as scaffolded, plus what the test observes: signals received, readiness, a slow key. */
const MAIN = `
const { createManager, managerOptionsFromArgs, setupSignalHandler, kinds } = await import(${JSON.stringify(RUNTIME)});
for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => console.log("operator received " + s));
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "dev-lifecycle" });
mgr.controller(kinds.ConfigMap).complete({
  async reconcile(req) {
    if (req.name === "slow") {
      console.log("reconciling slow");
      // Ignores ctx.signal: the graceful shutdown waits for it.
      await new Promise((r) => setTimeout(r, 600_000));
    }
    return {};
  },
});
void mgr.elected.then(() => console.log("operator ready pid=" + process.pid));
await mgr.start(setupSignalHandler());
`;

function project(main = MAIN): string {
  const dir = tempDir("opgen-dev-");
  writeFileSync(
    join(dir, "PROJECT"),
    "domain: my.domain\nlayout:\n- typescript.opgen.io/v1\nprojectName: dev-lifecycle\nresources: []\nversion: '3'\n",
  );
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist/main.js"), main);
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(true));
  });
}

async function ready(dev: Dev): Promise<{ port: number; operatorPid: number }> {
  const [, port] = await dev.waitFor(/envtest ready at https:\/\/127\.0\.0\.1:(\d+) /);
  const [, pid] = await dev.waitFor(/operator ready pid=(\d+)/);
  return { port: Number(port), operatorPid: Number(pid) };
}

describe("opgen dev lifecycle", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "on %s to its process group: the operator gets one SIGTERM, drains, and opgen dev exits 0",
    async (signal) => {
      const dev = startDev(project());
      const { port, operatorPid } = await ready(dev);
      dev.signalGroup(signal);
      const result = await dev.proc;
      const out = dev.output();
      expect(result.exitCode, out).toBe(0);
      // The terminal's signal did not reach the operator; opgen dev's SIGTERM did, once.
      expect(out.match(/operator received \w+/g)).toEqual(["operator received SIGTERM"]);
      expect(out).toContain("Manager stopped");
      expect(out).not.toMatch(/^opgen: /m);
      expect(alive(operatorPid)).toBe(false);
      expect(await portClosed(port)).toBe(true);
    },
    SLOW,
  );

  it(
    "kills the operator and exits 130 on a second Ctrl-C during a slow shutdown",
    async () => {
      const dir = project();
      const dev = startDev(dir);
      const { port, operatorPid } = await ready(dev);
      await execa("kubectl", [
        "--kubeconfig",
        join(dir, "kc.yaml"),
        "create",
        "configmap",
        "slow",
        "-n",
        "default",
      ]);
      await dev.waitFor("reconciling slow");
      dev.signalGroup("SIGINT");
      await dev.waitFor("Stopping and waiting for non leader election runnables");
      dev.signalGroup("SIGINT");
      const result = await dev.proc;
      expect(result.exitCode, dev.output()).toBe(130);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "opgen: SIGINT: killed the operator before its graceful shutdown finished",
      );
      expect(alive(operatorPid)).toBe(false);
      expect(await portClosed(port)).toBe(true);
    },
    SLOW,
  );

  it(
    "exits 1 in one line when the operator does not handle SIGTERM",
    async () => {
      const dev = startDev(
        project('console.log("operator ready pid=" + process.pid); setInterval(() => {}, 1000);\n'),
      );
      const { operatorPid } = await ready(dev);
      dev.signalGroup("SIGINT");
      const result = await dev.proc;
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "opgen: the operator was ended by SIGTERM without handling it (it stops gracefully once setupSignalHandler() is installed); see its log above",
      );
      expect(alive(operatorPid)).toBe(false);
    },
    SLOW,
  );

  it("stops the API server and exits 1 in one line when the operator crashes", async () => {
    const dev = startDev(project('console.log("starting"); process.exit(3);\n'));
    const result = await dev.proc;
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe("opgen: the operator exited with code 3; see its log above");
  });

  describe("start-up failures exit 1 within seconds with one line", () => {
    let blocker: Server | undefined;
    afterEach(async () => {
      await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)));
      blocker = undefined;
    });

    it("a port in use", async () => {
      blocker = createServer();
      await new Promise<void>((r) => blocker!.listen(0, "127.0.0.1", r));
      const port = (blocker.address() as { port: number }).port;
      const result = await startDev(project(), {
        args: ["--no-build", "--kubeconfig", "kc.yaml", "--port", String(port)],
      }).proc;
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toBe(
        `opgen: envtest failed to start: port ${port} is already in use; choose another --port or leave it out for a free one`,
      );
    });

    it("a kubeconfig path that cannot be written", async () => {
      const dir = project();
      const result = await execa(
        "node",
        [CLI, "dev", "--no-build", "--kubeconfig", "missing/kc.yaml"],
        { cwd: dir, reject: false, timeout: 20_000 },
      );
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toBe(
        `opgen: cannot write the kubeconfig ${join(dir, "missing/kc.yaml")}: its folder does not exist; choose another --kubeconfig`,
      );
    });

    it("a CRD folder that does not parse", async () => {
      const dir = project();
      mkdirSync(join(dir, "config/crd/bases"), { recursive: true });
      writeFileSync(join(dir, "config/crd/bases/bad.yaml"), "kind: [unclosed\n");
      const result = await startDev(dir).proc;
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toMatch(
        /^opgen: envtest failed to start: \S+bad\.yaml: [^\n]+$/,
      );
    });

    it("a build that fails", async () => {
      const dir = project();
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({ name: "x", private: true, scripts: { build: "exit 3" } }),
      );
      const result = await execa("node", [CLI, "dev", "--kubeconfig", "kc.yaml"], {
        cwd: dir,
        reject: false,
        timeout: 20_000,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "opgen: npm run build failed (exit 3); fix the errors above and run opgen dev again",
      );
    });
  });
});
