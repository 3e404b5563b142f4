// The operator image: a fresh scaffold (init + create api) run as the Dockerfile ships it, the
// bundle (`npm run bundle` → dist/bundle/, alone in a folder without node_modules, `node
// --enable-source-maps main.mjs`), next to the unbundled operator the image shipped before
// (`node dist/main.js` with the production dependency tree):
//   image.shipped      bytes of the app payload of the final stage (the Node base image excluded);
//                      unbundled: package.json + dist/ + every production package, as
//                      `npm prune --omit=dev` leaves them (workspace links counted as npm packs them)
//   image.ready        process spawn → /readyz answers 200
//   image.reconcileN   process spawn → N existing AppClusters all Available=True
//   image.rss          RSS of the operator once those N are reconciled
// Each run gets a fresh envtest (in a child process) so both operators do the same work.
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEnvtestChild } from "./envtest-child.js";
import { round, row, run, summarize } from "./lib.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const cli = join(repo, "bin", "opgen.js");
const rt = await import(join(repo, "packages/runtime/dist/index.js"));

const AppCluster = rt.defineKind({
  group: "demo.my.domain",
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

export async function run_({ quick }) {
  const scratch = mkdtempSync(join(tmpdir(), "opgen-bench-image-"));
  try {
    // --quick skips tsc and the unbundled operator's runs (about 10 s of a ~25 s module, most
    // of the rest being init's npm install): its size row then leaves dist/ out (tens of KB).
    const project = scaffold(scratch, { tsc: !quick });
    // The final stage's folder, outside the project: no node_modules above it.
    const app = join(scratch, "app");
    cpSync(join(project, "dist", "bundle"), app, { recursive: true });
    const bundled = { cwd: app, args: ["--enable-source-maps", "main.mjs"] };
    const unbundled = { cwd: project, args: ["dist/main.js"] };

    const bundleBytes = treeBytes(app);
    const unbundledBytes =
      statSync(join(project, "package.json")).size +
      treeBytes(join(project, "dist"), ["bundle"]) +
      productionTreeBytes(project);
    const mib = (b) => round(b / 2 ** 20);
    const rows = [
      {
        name: "image.shipped",
        value: mib(bundleBytes),
        unit: "MiB",
        peer: quick ? "production node_modules" : "dist + production node_modules",
        peerValue: mib(unbundledBytes),
        ratio: round(bundleBytes / unbundledBytes, 2),
        note: "final-stage app payload (Node base image excluded); target ≤ 15 MB",
      },
    ];

    const n = quick ? 100 : 1000;
    const runs = quick ? 1 : 5;
    const operators = quick ? [bundled] : [bundled, unbundled];
    const figures = operators.map(() => ({ ready: [], done: [], rss: [] }));
    const crds = join(project, "config", "crd", "bases");
    // Alternating runs spread the shared machine's noise over both.
    for (let i = 0; i < runs; i++) {
      for (const [k, operator] of operators.entries()) {
        const r = await measure(operator, crds, n);
        figures[k].ready.push(r.ready);
        figures[k].done.push(r.done);
        figures[k].rss.push(r.rss / 2 ** 20);
      }
    }
    const pair = (name, unit, key, note) => {
      const [ours, theirs] = figures;
      if (!theirs)
        return row(name, unit, summarize(ours[key]), {
          note: `${note} (quick: bundle only, 1 run)`,
        });
      return row(name, unit, summarize(ours[key]), {
        peer: "unbundled (node dist/main.js)",
        peerValue: round(summarize(theirs[key]).median),
        note,
      });
    };
    rows.push(
      pair("image.ready", "ms", "ready", "spawn → /readyz 200"),
      pair("image.reconcileN", "ms", "done", `spawn → ${n} AppClusters Available=True`),
      pair("image.rss", "MiB", "rss", `RSS after reconciling ${n} AppClusters`),
    );
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export { run_ as run };

/** init (with npm install), create api, manifests, tsc (dist/) and the bundle (dist/bundle/). */
function scaffold(scratch, { tsc }) {
  const project = join(scratch, "operator");
  mkdirSync(project);
  run("node", [cli, "init", "--domain", "my.domain", "--project-name", "operator"], {
    cwd: project,
  });
  run(
    "node",
    [cli, "create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
    {
      cwd: project,
    },
  );
  run("node", [cli, "manifests"], { cwd: project });
  if (tsc) run("npx", ["tsc", "-p", "tsconfig.json"], { cwd: project });
  run("node", ["scripts/bundle.mjs"], { cwd: project });
  return project;
}

/** Bytes of every file under `dir`, skipping the entries named in `skip` at its top level. */
function treeBytes(dir, skip = []) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.includes(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/**
 * Bytes of the production dependency tree: the packages reached from the project's
 * `dependencies` through theirs (plus the installed optional and peer dependencies),
 * resolved as Node does and counted once per name and version. A package's own nested node_modules is left to
 * the resolution; a workspace link (opgen's packages from a checkout) counts what npm would pack
 * (its `files`, package.json, README and LICENSE), as a registry install would hold.
 */
function productionTreeBytes(project) {
  const seen = new Set();
  let total = 0;
  const visit = (fromDir, name, optional) => {
    const dir = resolvePackage(fromDir, name);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} is not installed (needed from ${fromDir})`);
    }
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    // Once per name@version: from a checkout the linked packages resolve their dependencies in
    // the checkout's node_modules, a second copy of what the project holds; npm dedupes them.
    const id = `${pkg.name}@${pkg.version}`;
    if (seen.has(id)) return;
    seen.add(id);
    total += dir.includes("/node_modules/")
      ? treeBytes(dir, ["node_modules"])
      : packedBytes(dir, pkg);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dir, dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dir, dep, true);
    // npm installs peers; one that is absent is not in the tree either way.
    for (const dep of Object.keys(pkg.peerDependencies ?? {})) visit(dir, dep, true);
  };
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(project, dep, false);
  return total;
}

/** The real folder of package `name` as Node resolves it from `fromDir`, or undefined. */
function resolvePackage(fromDir, name) {
  for (let dir = fromDir; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name, "package.json");
    if (existsSync(candidate)) return realpathSync(dirname(candidate));
  }
  return undefined;
}

function packedBytes(dir, pkg) {
  let total = statSync(join(dir, "package.json")).size;
  for (const entry of readdirSync(dir))
    if (/^(readme|licen[cs]e|notice)/i.test(entry)) total += statSync(join(dir, entry)).size;
  for (const entry of pkg.files ?? []) {
    const full = join(dir, entry);
    if (!existsSync(full)) continue;
    total += statSync(full).isDirectory() ? treeBytes(full) : statSync(full).size;
  }
  return total;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `fn` over `items` with `concurrency` in flight. */
async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** One run on a fresh envtest: N AppClusters created, the operator spawned and watched. */
async function measure(operator, crds, n) {
  const server = await startEnvtestChild([crds]);
  const client = rt.createManager({
    kubeconfig: server.kc,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    logger: rt.nullLogger,
  }).apiReader;
  let child;
  try {
    await pool(
      Array.from({ length: n }, (_, i) => i),
      32,
      (i) =>
        client.create({
          apiVersion: "demo.my.domain/v1",
          kind: "AppCluster",
          metadata: { name: `app-${i}`, namespace: "default" },
          spec: {},
        }),
    );
    const port = await freePort();
    let output = "";
    const started = performance.now();
    child = spawn(
      process.execPath,
      [...operator.args, `--health-probe-bind-address=127.0.0.1:${port}`],
      {
        cwd: operator.cwd,
        env: { PATH: process.env.PATH, NODE_ENV: "production", KUBECONFIG: server.kubeconfigPath },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const keep = (d) => {
      output = (output + d).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const alive = () => child.exitCode === null && child.signalCode === null;
    const deadline = Date.now() + 120_000;
    const check = (what) => {
      if (!alive()) throw new Error(`operator exited before ${what}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`operator not ${what} after 120 s:\n${output}`);
    };
    let ready;
    while (ready === undefined) {
      check("ready");
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) ready = performance.now() - started;
      else await new Promise((r) => setTimeout(r, 5));
    }
    let done;
    while (done === undefined) {
      check("done reconciling");
      const items = await client.list(AppCluster, { namespace: "default", uncached: true });
      const available = items.filter((o) =>
        o.status?.conditions?.some((c) => c.type === "Available" && c.status === "True"),
      ).length;
      if (available === n) done = performance.now() - started;
      else await new Promise((r) => setTimeout(r, 20));
    }
    const rss =
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) * 1024;
    child.kill("SIGTERM");
    await exited;
    return { ready, done, rss };
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run_({ quick: process.argv.includes("--quick") });
  console.log(JSON.stringify(rows, null, 2));
}
