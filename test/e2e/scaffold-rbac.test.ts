/**
 * The scaffold's own test proves its RBAC: the controller test runs the manager as the operator's
 * ServiceAccount bound only to config/rbac/role.yaml (what `opgen manifests` makes of the @rbac
 * markers) on envtest with RBAC on. It passes as scaffolded, quietly (operator logs at warn, more
 * with OPGEN_LOG_LEVEL), and removing a marker the controller needs fails `npm test` at once with
 * kube's 403 naming the verb and resource.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { scaffoldAppCluster, tempDir } from "../helpers/cli.js";

const dir = join(tempDir("opgen-rbac-"), "rbac-demo");
const controllerFile = join(dir, "src/controllers/appcluster.controller.ts");
const identity = 'User "system:serviceaccount:rbac-demo-system:rbac-demo-controller-manager"';
let scaffolded = "";

async function npmTest(env: Record<string, string> = {}) {
  const result = await execa("npm", ["test"], {
    cwd: dir,
    reject: false,
    all: true,
    env: { CI: "true", ...env },
  });
  return { exitCode: result.exitCode, all: stripVTControlCharacters(result.all ?? "") };
}

/** The controller with `marker` (a whole @rbac line) replaced by `replacement` lines. */
function editMarker(marker: string, replacement: string[]): void {
  const line = ` * ${marker}\n`;
  expect(scaffolded).toContain(line);
  writeFileSync(
    controllerFile,
    scaffolded.replace(line, replacement.map((r) => ` * ${r}\n`).join("")),
  );
}

describe("a scaffolded project's RBAC, proven by its own test", () => {
  beforeAll(async () => {
    await scaffoldAppCluster(dir);
    scaffolded = readFileSync(controllerFile, "utf8");
  }, 240_000);

  afterEach(() => {
    writeFileSync(controllerFile, scaffolded);
  });

  it("passes as scaffolded, with the operator's info logs silenced", async () => {
    const { exitCode, all } = await npmTest();
    expect(exitCode, all).toBe(0);
    expect(all).toMatch(/Tests {2}1 passed \(1\)/);
    // The manager logs "Starting workers" at info: not shown at the default warn.
    expect(all).not.toContain("Starting workers");
  }, 120_000);

  it("shows the operator's logs with OPGEN_LOG_LEVEL=debug", async () => {
    const { exitCode, all } = await npmTest({ OPGEN_LOG_LEVEL: "debug" });
    expect(exitCode, all).toBe(0);
    expect(all).toContain("Starting workers");
    expect(all).toContain("reconciling AppCluster");
  }, 120_000);

  it("fails naming update on appclusters/status when the status marker is gone", async () => {
    editMarker(
      "@rbac groups=demo.my.domain,resources=appclusters/status,verbs=get;update;patch",
      [],
    );
    const { exitCode, all } = await npmTest();
    expect(exitCode, all).not.toBe(0);
    expect(all).toContain(
      `appclusters.demo.my.domain "appcluster-sample" is forbidden: ${identity} cannot update resource "appclusters/status" in API group "demo.my.domain" in the namespace "default"`,
    );
    expect(all).toMatch(/Tests {2}1 failed \(1\)/);
    // It fails on the 403 itself, not on eventually's timeout.
    expect(all).not.toContain("still failing after");
  }, 120_000);

  it("fails naming list on appclusters when list and watch are gone", async () => {
    editMarker(
      "@rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch;create;update;patch;delete",
      ["@rbac groups=demo.my.domain,resources=appclusters,verbs=get;create;update;patch;delete"],
    );
    const { exitCode, all } = await npmTest();
    expect(exitCode, all).not.toBe(0);
    expect(all).toContain(
      `appclusters.demo.my.domain is forbidden: ${identity} cannot list resource "appclusters" in API group "demo.my.domain" at the cluster scope`,
    );
    expect(all).not.toContain("still failing after");
  }, 120_000);
});
