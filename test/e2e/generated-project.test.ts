/**
 * The whole user path, end to end: `opgen init` (with npm install of the local packages), `create
 * api`, `npm run build` (manifests + tsc), `manifests --check`, `kubectl kustomize config/default`
 * and the project's own `npm test`; then the AppCluster tutorial (examples/appcluster-operator)
 * laid over the scaffold, tested, and run with `opgen dev` while the real kubectl drives it.
 */
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { CLI, REPO_ROOT, runCli, tempDir } from "../helpers/cli.js";

const dir = join(tempDir("opgen-e2e-"), "appcluster-operator");

async function sh(cmd: string, args: string[], env: Record<string, string> = {}) {
  const result = await execa(cmd, args, {
    cwd: dir,
    reject: false,
    all: true,
    env: { CI: "true", ...env },
  });
  if (result.exitCode !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed (${result.exitCode}):\n${result.all}`);
  return result;
}

describe("a generated project", () => {
  beforeAll(async () => {
    mkdirSync(dir);
    const init = await runCli(["init", "--domain", "my.domain"], dir);
    expect(init.exitCode, init.stderr).toBe(0);
    const api = await runCli(
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
      dir,
    );
    expect(api.exitCode, api.stderr).toBe(0);
  }, 240_000);

  it("builds: manifests are generated and the TypeScript compiles", async () => {
    await sh("npm", ["run", "build"]);
    const crd = readFileSync(join(dir, "config/crd/bases/demo.my.domain_appclusters.yaml"), "utf8");
    expect(crd).toContain("kind: CustomResourceDefinition");
    expect(crd).toContain("name: appclusters.demo.my.domain");
    const role = readFileSync(join(dir, "config/rbac/role.yaml"), "utf8");
    expect(role).toContain("appclusters/status");
    await sh("node", [CLI, "manifests", "--check"]);
  }, 120_000);

  it("renders with kubectl kustomize config/default", async () => {
    const { stdout } = await sh("kubectl", ["kustomize", "config/default"]);
    const kinds = parseAllDocuments(stdout).map((d) => {
      const o = d.toJS();
      return `${o.kind}/${o.metadata.name}`;
    });
    expect(kinds).toEqual(
      expect.arrayContaining([
        "Namespace/appcluster-operator-system",
        "CustomResourceDefinition/appclusters.demo.my.domain",
        "ServiceAccount/appcluster-operator-controller-manager",
        "ClusterRole/appcluster-operator-manager-role",
        "ClusterRoleBinding/appcluster-operator-manager-rolebinding",
        "Role/appcluster-operator-leader-election-role",
        "Deployment/appcluster-operator-controller-manager",
        "Service/appcluster-operator-controller-manager-metrics-service",
      ]),
    );
  });

  it("passes its own scaffolded test", async () => {
    const { all } = await sh("npm", ["test"]);
    expect(all).toMatch(/1 passed/);
  }, 120_000);

  describe("with the AppCluster tutorial laid over the scaffold", () => {
    beforeAll(async () => {
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/src"), join(dir, "src"), {
        recursive: true,
      });
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/test"), join(dir, "test"), {
        recursive: true,
      });
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/config"), join(dir, "config"), {
        recursive: true,
      });
      await sh("npm", ["run", "build"]);
    }, 120_000);

    it("generates the pods permission and the validation from the markers", () => {
      const role = readFileSync(join(dir, "config/rbac/role.yaml"), "utf8");
      expect(role).toMatch(/- ""\n {2}resources:\n {2}- pods\n/);
      const crd = readFileSync(
        join(dir, "config/crd/bases/demo.my.domain_appclusters.yaml"),
        "utf8",
      );
      const version = parse(crd).spec.versions[0];
      expect(version.schema.openAPIV3Schema.properties.spec.properties.size).toEqual({
        description: "size is the number of pods to run (the desired state).",
        format: "int32",
        minimum: 0,
        type: "integer",
      });
      expect(version.additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual([
        "Size",
        "Ready",
        "Age",
      ]);
    });

    it("passes the tutorial's tests", async () => {
      const { all } = await sh("npm", ["test"]);
      expect(all).toMatch(/3 passed/);
    }, 120_000);

    it("runs under opgen dev while kubectl drives it", async () => {
      const kubeconfig = join(dir, "envtest.kubeconfig");
      const dev = execa("node", [CLI, "dev", "--no-build", "--kubeconfig", kubeconfig], {
        cwd: dir,
        all: true,
        reject: false,
      });
      let output = "";
      dev.all!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      try {
        for (let i = 0; i < 300 && !output.includes("envtest ready"); i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(output).toContain("envtest ready");
        const env = { KUBECONFIG: kubeconfig };
        await sh("kubectl", ["apply", "-k", "config/samples"], env);
        await sh(
          "kubectl",
          [
            "wait",
            "--for=jsonpath={.status.ready}=2",
            "appclusters/appcluster-sample",
            "--timeout=60s",
          ],
          env,
        );
        const { stdout: pods } = await sh(
          "kubectl",
          ["get", "pods", "-l", "app=appcluster-sample", "-o", "name"],
          env,
        );
        expect(pods.trim().split("\n")).toHaveLength(2);
        const { stdout: table } = await sh("kubectl", ["get", "appclusters"], env);
        expect(table).toMatch(/^NAME\s+SIZE\s+READY\s+AGE\n/);
        expect(table).toMatch(/appcluster-sample\s+2\s+2\s+/);
      } finally {
        dev.kill("SIGINT");
        const result = await dev;
        // opgen dev exits 0 only if the operator drained and exited 0 on its SIGTERM.
        expect(result.exitCode, output).toBe(0);
        expect(output).toContain("Manager stopped");
      }
    }, 120_000);
  });
});
