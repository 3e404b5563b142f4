/**
 * `opgen dev` reloads: a change under src/ rebuilds the project, applies the regenerated CRDs and
 * restarts the operator; a failed build keeps the running operator. The project's build is a
 * copy of src/main.js to dist/ (so no npm install), its operator the scaffolded main.ts on the
 * built runtime, and a CRD file the build rewrites from src/crd.yaml as `opgen manifests` would.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";
import { startDev } from "../helpers/dev.js";

const RUNTIME = join(REPO_ROOT, "packages/runtime/dist/index.js");

const main = (version: string) => `
const { createManager, managerOptionsFromArgs, setupSignalHandler, kinds } = await import(${JSON.stringify(RUNTIME)});
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "dev-reload" });
mgr.controller(kinds.ConfigMap).complete({ async reconcile() { return {}; } });
void mgr.elected.then(() => console.log("operator ready pid=" + process.pid + " version=${version}"));
await mgr.start(setupSignalHandler());
`;

const crd = (props: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gizmos.dev.example.com }
spec:
  group: dev.example.com
  scope: Namespaced
  names: { plural: gizmos, kind: Gizmo }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { ${props} } }
`;

// The build: src/main.js to dist/, src/crd.yaml to config/crd/bases; "fail" in main.js fails it.
const BUILD = `
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
const src = readFileSync("src/main.js", "utf8");
if (src.includes("fail")) { console.error("build.mjs: src/main.js does not compile"); process.exit(1); }
mkdirSync("dist", { recursive: true });
writeFileSync("dist/main.js", src);
mkdirSync("config/crd/bases", { recursive: true });
writeFileSync("config/crd/bases/gizmos.yaml", readFileSync("src/crd.yaml", "utf8"));
`;

function project(): string {
  const dir = tempDir("opgen-dev-reload-");
  writeFileSync(
    join(dir, "PROJECT"),
    "domain: my.domain\nlayout:\n- typescript.opgen.io/v1\nprojectName: dev-reload\nresources: []\nversion: '3'\n",
  );
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "dev-reload", private: true, scripts: { build: "node build.mjs" } }),
  );
  writeFileSync(join(dir, "build.mjs"), BUILD);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/main.js"), main("1"));
  writeFileSync(join(dir, "src/crd.yaml"), crd("size: { type: integer }"));
  return dir;
}

describe("opgen dev reload", () => {
  it("rebuilds, applies the regenerated CRDs and restarts the operator on a change; keeps it when the build fails", async () => {
    const dir = project();
    const dev = startDev(dir, { args: ["--kubeconfig", "kc.yaml"], timeoutMs: 45_000 });
    const waitFor = (re: RegExp, from = 0) => dev.waitFor(re, { from });
    await waitFor(/watching src\//);
    const [, pid1] = await waitFor(/operator ready pid=(\d+) version=1/);
    const gizmo = (tier: string) =>
      `apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata: { name: g }\nspec: { tier: ${tier} }\n`;
    const strict = await execa(
      "kubectl",
      ["--kubeconfig", join(dir, "kc.yaml"), "create", "-f", "-"],
      { input: gizmo("web"), reject: false },
    );
    expect(strict.stderr).toMatch(/unknown field "spec\.tier"/);

    // A change: new operator code and a CRD field, applied without restarting the API server.
    let mark = dev.output().length;
    writeFileSync(
      join(dir, "src/crd.yaml"),
      crd("size: { type: integer }, tier: { type: string }"),
    );
    writeFileSync(join(dir, "src/main.js"), main("2"));
    await waitFor(/reloaded: the operator restarted with the new build/, mark);
    const [, pid2] = await waitFor(/operator ready pid=(\d+) version=2/, mark);
    expect(pid2).not.toBe(pid1);
    const created = await execa(
      "kubectl",
      ["--kubeconfig", join(dir, "kc.yaml"), "create", "-f", "-"],
      { input: gizmo("web"), reject: false },
    );
    expect(created.exitCode, created.stderr).toBe(0);

    // A build that fails keeps the running operator.
    mark = dev.output().length;
    writeFileSync(join(dir, "src/main.js"), `${main("3")}\n// fail\n`);
    await waitFor(/opgen: npm run build failed: the running operator keeps running/, mark);
    expect(dev.output().slice(mark)).not.toMatch(/operator ready/);
    expect(() => process.kill(Number(pid2), 0)).not.toThrow();

    dev.signalGroup("SIGINT");
    const result = await dev.proc;
    expect(result.exitCode, dev.output()).toBe(0);
  }, 120_000);
});
