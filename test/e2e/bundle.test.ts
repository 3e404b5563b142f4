/**
 * The operator image without Docker: a fresh scaffold is bundled (`npm run bundle`), the files
 * its Dockerfile's final stage COPYs are laid out in an empty folder exactly as the Dockerfile
 * says (parsed from it, so the two cannot drift), and that folder, with no node_modules, is run
 * with the Dockerfile's ENTRYPOINT and ENV against envtest until it reconciles the sample.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join, posix } from "node:path";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runOrThrow, scaffoldAppCluster, tempDir } from "../helpers/cli.js";

/** The spec target of issue 17: what the final stage adds on top of the Node base image. */
const SHIPPED_LIMIT_BYTES = 15_000_000;

const dir = join(tempDir("opgen-bundle-"), "bundled-operator");

interface Stage {
  name?: string;
  workdir: string;
  env: Record<string, string>;
  copies: { from?: string; src: string; dest: string }[];
  entrypoint?: string[];
}

/** The stages of a Dockerfile, with what this test needs of each (ARGs are not expanded). */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.replace(/\\\n/g, " ").split("\n");
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [instruction = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    const stage = stages.at(-1);
    switch (instruction.toUpperCase()) {
      case "FROM": {
        const as = /\s+AS\s+(\S+)$/i.exec(args);
        stages.push({ name: as?.[1], workdir: "/", env: {}, copies: [] });
        break;
      }
      case "WORKDIR":
        if (stage) stage.workdir = posix.resolve(stage.workdir, args);
        break;
      case "ENV": {
        const [key, ...value] = args.split("=");
        if (stage && key) stage.env[key] = value.join("=");
        break;
      }
      case "COPY": {
        const words = args.split(/\s+/);
        const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
        const paths = words.filter((w) => !w.startsWith("--"));
        const dest = paths.pop() ?? "";
        for (const src of paths) stage?.copies.push({ from, src, dest });
        break;
      }
      case "ENTRYPOINT":
        if (stage) stage.entrypoint = JSON.parse(args) as string[];
        break;
    }
  }
  return stages;
}

function dirBytes(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).size;
  return readdirSync(path).reduce((total, entry) => total + dirBytes(join(path, entry)), 0);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  runOrThrow(dir, cmd, args, env);

describe("the bundled operator image", () => {
  const app = join(tempDir("opgen-image-"), "app");
  let final: Stage;
  let env: TestEnv | undefined;
  let operator: ResultPromise | undefined;
  let output = "";

  beforeAll(async () => {
    await scaffoldAppCluster(dir);
    await sh("npm", ["run", "manifests"]);
    await sh("npm", ["run", "bundle"]);

    // The final stage's files, copied as Docker would: a build-stage path maps to the same
    // path in the project (the build stage copies the project into its WORKDIR and bundles
    // there); a folder's contents land in the destination.
    const stages = parseDockerfile(readFileSync(join(dir, "Dockerfile"), "utf8"));
    final = stages.at(-1) as Stage;
    mkdirSync(app, { recursive: true });
    for (const copy of final.copies) {
      const source = stages.find((s) => s.name === copy.from);
      const relative = source ? posix.relative(source.workdir, copy.src) : copy.src;
      expect(relative.startsWith(".."), `${copy.src} is outside ${source?.workdir}`).toBe(false);
      const target = join(app, posix.resolve(final.workdir, copy.dest).slice(final.workdir.length));
      cpSync(join(dir, relative), target, { recursive: true });
    }
  }, 300_000);

  afterAll(async () => {
    operator?.kill("SIGKILL");
    await env?.stop();
  });

  it("ships one bundled module with its source map and license notices, no node_modules", () => {
    const files = readdirSync(app).sort();
    expect(files).toEqual(["THIRD-PARTY-NOTICES.txt", "assets", "main.mjs", "main.mjs.map"]);
    // Node resolves bare specifiers through every parent's node_modules: none may be reachable.
    for (let d = app; d !== dirname(d); d = dirname(d))
      expect(existsSync(join(d, "node_modules")), join(d, "node_modules")).toBe(false);

    const bundle = readFileSync(join(app, "main.mjs"), "utf8");
    expect(bundle).toMatch(/^\/\/# sourceMappingURL=main\.mjs\.map$/m);
    // keepNames: class names survive for logs and stack traces.
    expect(bundle).toContain('"AppClusterReconciler"');
    const map = JSON.parse(readFileSync(join(app, "main.mjs.map"), "utf8"));
    expect(map.sources).toEqual(
      expect.arrayContaining([
        "../../src/main.ts",
        "../../src/controllers/appcluster.controller.ts",
      ]),
    );

    // Every bundled package with its license text: client-node's Apache-2.0, ws's MIT.
    const notices = readFileSync(join(app, "THIRD-PARTY-NOTICES.txt"), "utf8");
    expect(notices).toMatch(/^@kubernetes\/client-node@1\.4\.0 \(Apache-2\.0\)$/m);
    expect(notices).toContain("Apache License\n                           Version 2.0");
    expect(notices).toMatch(/^ws@\S+ \(MIT\)$/m);
    expect(notices).toContain("Permission is hereby granted, free of charge");
    expect(notices).toMatch(/^@opgen\/runtime@\S+ \(Apache-2\.0\)$/m);
  });

  it(`ships at most ${SHIPPED_LIMIT_BYTES / 1e6} MB`, () => {
    expect(dirBytes(app)).toBeLessThanOrEqual(SHIPPED_LIMIT_BYTES);
  });

  it("names @opgen/runtime's TypeScript in a stack trace from inside it", async () => {
    // The packages ship source maps (sources inlined) and esbuild composes them into the
    // bundle's map, so a frame in the runtime reads src/*.ts, not the runtime's compiled dist/.
    const map = JSON.parse(readFileSync(join(app, "main.mjs.map"), "utf8")) as {
      sources: string[];
    };
    const runtimeSources = map.sources.filter((s) => /(packages|@opgen)\/runtime\//.test(s));
    expect(runtimeSources.length).toBeGreaterThan(0);
    expect(runtimeSources.filter((s) => !/\/runtime\/src\/.+\.ts$/.test(s))).toEqual([]);

    // A bind address the runtime refuses: it throws from the manager's start, main.ts logs it
    // ("problem running manager") and exits 1; in development (--zap-devel) the line carries
    // the stack, which Node maps through the bundle's map (the ENTRYPOINT's --enable-source-maps).
    const kubeconfig = join(tempDir("opgen-bundle-kubeconfig-"), "config");
    writeFileSync(
      kubeconfig,
      "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n" +
        "contexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n" +
        "users:\n- name: u\n  user:\n    token: t\ncurrent-context: c\n",
    );
    const [, ...args] = final.entrypoint ?? [];
    const run = await execa(
      process.execPath,
      [...args, "--metrics-bind-address=nonsense", "--zap-devel"],
      {
        cwd: app,
        extendEnv: false,
        env: { ...final.env, KUBECONFIG: kubeconfig },
        all: true,
        reject: false,
      },
    );
    expect(run.exitCode, run.all).toBe(1);
    const logged = (run.all ?? "").split("\n").find((l) => l.includes("problem running manager"));
    const field = logged?.match(/\bstacktrace=("(?:[^"\\]|\\.)*")/)?.[1];
    expect(field, run.all).toBeDefined();
    const stack = JSON.parse(field as string) as string;
    expect(stack).toContain('Error: invalid bind address "nonsense"');
    const frames = stack.split("\n").filter((l) => /^\s+at /.test(l));
    expect(frames[0], stack).toMatch(
      /^\s+at parseBindAddress \(\S*\/runtime\/src\/healthz\/server\.ts:\d+:\d+\)$/,
    );
    expect(frames.filter((f) => /\/runtime\/dist\//.test(f))).toEqual([]);
    expect(frames.some((f) => /\/runtime\/src\/manager\/manager\.ts:\d+:\d+\)$/.test(f))).toBe(
      true,
    );
  });

  it("starts from that folder alone and reconciles the sample on envtest", async () => {
    env = await startTestEnv({ crdDirectoryPaths: [join(dir, "config/crd/bases")] });
    const [node, ...args] = final.entrypoint ?? [];
    expect(node).toBe("/nodejs/bin/node");
    const probe = await freePort();
    operator = execa(
      process.execPath,
      [...args, `--health-probe-bind-address=127.0.0.1:${probe}`],
      {
        cwd: app,
        // Only the image's environment (and the cluster): no NODE_PATH or npm variables.
        extendEnv: false,
        env: { ...final.env, KUBECONFIG: env.kubeconfigPath },
        all: true,
        reject: false,
      },
    );
    operator.all?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    let ready = false;
    for (let i = 0; i < 300 && !ready && operator.exitCode === null; i++) {
      ready = await fetch(`http://127.0.0.1:${probe}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready, output).toBe(true);

    const kubectl = { KUBECONFIG: env.kubeconfigPath };
    const sample = join(dir, "config/samples/demo_v1_appcluster.yaml");
    const name = parse(readFileSync(sample, "utf8")).metadata.name as string;
    await sh("kubectl", ["apply", "-f", sample], kubectl);
    const wait = await execa(
      "kubectl",
      ["wait", `appcluster/${name}`, "--for=condition=Available=True", "--timeout=60s"],
      { cwd: dir, reject: false, all: true, env: kubectl },
    );
    expect(wait.exitCode, `${wait.all}\noperator:\n${output}`).toBe(0);

    // SIGTERM, as the kubelet stops a pod: drains and exits 0.
    operator.kill("SIGTERM");
    const exit = await operator;
    expect(exit.exitCode, output).toBe(0);
    expect(output).not.toMatch(/"level":"error"/);
  }, 120_000);
});
