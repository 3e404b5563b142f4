// CLI rows: start-up (`opgen --help` next to bare `node -e 0`), scaffolding (`init` + `create api`),
// and the scaffolded project's own `npm test`.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { row, run, timeIt } from "./lib.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const cli = join(repo, "bin", "opgen.js");

export async function run_({ quick }) {
  const rows = [];
  const runs = quick ? 5 : 15;

  const bare = await timeIt(() => run("node", ["-e", "0"]), { runs });
  const help = await timeIt(() => run("node", [cli, "--help"]), { runs });
  rows.push(
    row("cli.help", "ms", help, {
      peer: "node -e 0",
      peerValue: Math.round(bare.median * 10) / 10,
    }),
  );

  const scratch = mkdtempSync(join(tmpdir(), "opgen-bench-"));
  let n = 0;
  const init = await timeIt(
    () => {
      const dir = join(scratch, `p${n++}`);
      mkdirSync(dir);
      run("node", [cli, "init", "--skip-install", "--project-name", "bench"], { cwd: dir });
      run(
        "node",
        [cli, "create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
        { cwd: dir },
      );
    },
    { runs: quick ? 3 : 5 },
  );
  rows.push(row("cli.init", "ms", init, { note: "init --skip-install + create api" }));

  // The scaffolded project's default test, after one npm install (not timed).
  const project = join(scratch, "generated");
  mkdirSync(project);
  run("node", [cli, "init", "--project-name", "generated"], { cwd: project });
  run(
    "node",
    [cli, "create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
    { cwd: project },
  );
  const test = await timeIt(() => run("npm", ["test", "--silent"], { cwd: project }), {
    runs: quick ? 1 : 3,
    warmup: 1,
  });
  rows.push(
    row("generated.test", "ms", test, {
      note: "npm test of a scaffolded project (manifests + vitest)",
    }),
  );

  rmSync(scratch, { recursive: true, force: true });
  return rows;
}

export { run_ as run };
