/**
 * The scaffold README's "Run against a cluster" commands, run as written (bash, npm, kubectl) by a
 * user whose `~/.kube/config` points at a cluster: here `opgen envtest`, with HOME a temp folder.
 * Without webhooks the first block runs the operator; once `opgen create webhook` added some, the
 * same command stops in one line naming the missing certificate (no stack trace), and the second
 * block (ENABLE_WEBHOOKS=false) runs it. The project links the repository's node_modules, and
 * `opgen` on PATH is this checkout's CLI, so no npm install is needed.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, runCli, tempDir } from "../helpers/cli.js";

const SLOW = 180_000;

/** The ```sh blocks of a README section, one array of command lines per block. */
function shellBlocks(readme: string, heading: string): string[][] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" in the README`);
  const rest = readme.slice(start + heading.length + 5);
  const section = rest.slice(0, rest.search(/\n## |$/));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? "").split("\n").filter((l) => l.trim() !== ""),
  );
}

interface Running {
  proc: ResultPromise<{ all: true; reject: false; detached: true }>;
  output(): string;
  waitFor(text: string, from?: number): Promise<void>;
  stop(): Promise<void>;
}

describe("the scaffold README's 'Run against a cluster' commands", () => {
  const root = tempDir("opgen-readme-");
  const dir = join(root, "cluster-run");
  const home = join(root, "home");
  const env = {
    HOME: home,
    // The operator's default certificate folder is under the temp folder: make it one of ours.
    TMPDIR: join(root, "tmp"),
    PATH: `${join(root, "bin")}:${process.env.PATH}`,
    OPGEN_DEBUG: "",
  };
  const started: Running[] = [];
  let cluster: Running | undefined;

  /** A long-running command in a process group of its own, its output collected. */
  function start(line: string): Running {
    const proc = execa("bash", ["-c", line], {
      cwd: dir,
      env,
      all: true,
      reject: false,
      detached: true,
    });
    let output = "";
    let ended = false;
    void proc.then(() => {
      ended = true;
    });
    proc.all.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const running: Running = {
      proc,
      output: () => output,
      async waitFor(text, from = 0) {
        const deadline = Date.now() + 60_000;
        while (!output.slice(from).includes(text)) {
          if (ended || Date.now() > deadline)
            throw new Error(`no ${text} in the output of ${line}:\n${output}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async stop() {
        if (!ended && proc.pid) {
          try {
            process.kill(-proc.pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
        await proc;
      },
    };
    started.push(running);
    return running;
  }

  const sh = (line: string) =>
    execa("bash", ["-c", line], { cwd: dir, env, all: true, reject: false });
  const kubectl = (args: string[], input?: string) =>
    execa("kubectl", args, { cwd: dir, env, reject: false, ...(input ? { input } : {}) });
  const appCluster = (name: string) =>
    JSON.stringify({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name, namespace: "default" },
      spec: {},
    });
  // The README's `npm start` line as written, with the health probes off: their fixed :8081 would
  // make the test depend on what else the machine runs.
  const withoutProbes = (line: string) => `${line} --health-probe-bind-address=0`;

  beforeAll(async () => {
    for (const d of [dir, join(home, ".kube"), join(root, "tmp"), join(root, "bin")]) {
      mkdirSync(d, { recursive: true });
    }
    writeFileSync(join(root, "bin/opgen"), `#!/bin/sh\nexec node ${JSON.stringify(CLI)} "$@"\n`);
    chmodSync(join(root, "bin/opgen"), 0o755);
    for (const args of [
      ["init", "--domain", "my.domain", "--license", "none", "--skip-install"],
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
    ]) {
      const result = await runCli(args, dir);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    // The cluster of ~/.kube/config.
    cluster = start(`exec node ${JSON.stringify(CLI)} envtest --kubeconfig ~/.kube/config`);
    await cluster.waitFor("envtest ready at");
  }, 120_000);

  afterEach(async () => {
    for (const r of started.splice(0)) if (r !== cluster) await r.stop();
    if (cluster) started.push(cluster);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it(
    "install the CRDs and run the operator; with webhooks it needs ENABLE_WEBHOOKS=false, and says so in one line",
    async () => {
      const blocks = shellBlocks(
        readFileSync(join(dir, "README.md"), "utf8"),
        "Run against a cluster",
      );
      expect(blocks).toHaveLength(2);
      const [[build, installCrds, run] = [], [runWithoutWebhooks] = []] = blocks;
      expect(build).toMatch(/^npm run build\b/);
      expect(installCrds).toMatch(/^npm run install-crds\b/);
      expect(run).toBe("npm start -- --kubeconfig ~/.kube/config");
      expect(runWithoutWebhooks).toBe(
        "ENABLE_WEBHOOKS=false npm start -- --kubeconfig ~/.kube/config",
      );

      for (const line of [build, installCrds] as string[]) {
        const result = await sh(line);
        expect(result.exitCode, result.all).toBe(0);
      }
      expect((await kubectl(["get", "crd", "appclusters.demo.my.domain"])).exitCode).toBe(0);

      // No webhooks yet: the operator runs and reconciles.
      let operator = start(withoutProbes(run as string));
      await operator.waitFor('"msg":"Starting workers"');
      expect((await kubectl(["create", "-f", "-"], appCluster("plain"))).exitCode).toBe(0);
      await operator.waitFor('"msg":"reconciling AppCluster"');
      await operator.stop();
      expect(operator.output()).toContain('"msg":"Manager stopped"');

      const webhook = await runCli(
        [
          "create",
          "webhook",
          "--group",
          "demo",
          "--version",
          "v1",
          "--kind",
          "AppCluster",
          "--defaulting",
          "--programmatic-validation",
        ],
        dir,
      );
      expect(webhook.exitCode, webhook.stderr).toBe(0);
      const rebuilt = await sh(build as string);
      expect(rebuilt.exitCode, rebuilt.all).toBe(0);

      // With webhooks and no certificate: one error line naming the file and the ways out.
      const refused = await sh(withoutProbes(run as string));
      expect(refused.exitCode).not.toBe(0);
      const operatorLines = refused
        .all!.split("\n")
        .filter((l) => l.trim() !== "" && !/^(npm (error|ERR!)|> )/.test(l));
      expect(operatorLines.filter((l) => /^\s+at |Error:|node:internal/.test(l))).toEqual([]);
      const last = JSON.parse(operatorLines.at(-1) as string);
      expect(last).toMatchObject({ level: "error", msg: "problem running manager" });
      expect(last.error).toBe(
        `the webhook certificate ${join(root, "tmp/k8s-webhook-server/serving-certs/tls.crt")} does not exist: in a cluster, cert-manager issues it into that folder (config/default with its [CERTMANAGER] parts, npm run deploy); outside a cluster, start the operator with ENABLE_WEBHOOKS=false (opgen dev serves the webhooks with a certificate of its own) or point --webhook-cert-path at a folder with tls.crt and tls.key`,
      );

      // The README's second block runs it without them.
      operator = start(withoutProbes(runWithoutWebhooks as string));
      await operator.waitFor('"msg":"Starting workers"');
      expect((await kubectl(["create", "-f", "-"], appCluster("local"))).exitCode).toBe(0);
      await operator.waitFor('"name":"local"');
      await operator.stop();
      expect(operator.output()).toContain('"msg":"Manager stopped"');
      expect(operator.output()).not.toContain("Registering webhook");
    },
    SLOW,
  );
});
