/**
 * Golden RBAC output: each case under test/golden/rbac/ is a project whose `src/` holds `@rbac`
 * markers and whose `role.yaml` is what controller-gen writes for the same markers; opgen must
 * produce it byte for byte.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateRbac } from "../../src/generators/rbac/index.js";
import { planCreateApi } from "../../src/generators/scaffold/api-plan.js";
import { resolveDependencySpecs } from "../../src/generators/scaffold/context.js";
import { planInit } from "../../src/generators/scaffold/init-plan.js";
import { readProject } from "../../src/project/project-file.js";
import { CONTROLLER_GEN_FIXTURES } from "../helpers/fixtures.js";

const CASES = join(import.meta.dirname, "rbac");

async function generate(name: string) {
  return generateRbac({
    projectDir: join(CASES, name),
    paths: ["src"],
    roleName: "manager-role",
    output: "config/rbac/role.yaml",
  });
}

describe("role.yaml golden files", () => {
  it("controller-tools' 41 test markers give controller-gen's role.yaml byte for byte", async () => {
    const { files, diagnostics } = await generate("controller-gen");
    expect(diagnostics).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(["config/rbac/role.yaml"]);
    expect(files[0]!.content).toBe(
      readFileSync(join(CONTROLLER_GEN_FIXTURES, "rbac/role.yaml"), "utf8"),
    );
    expect(files[0]!.content).toBe(readFileSync(join(CASES, "controller-gen/role.yaml"), "utf8"));
  });

  it("seed 001's reconciler markers give the role its Kubebuilder build gives", async () => {
    const { files, diagnostics } = await generate("seed-001");
    expect(diagnostics).toEqual([]);
    expect(files[0]!.content).toBe(readFileSync(join(CASES, "seed-001/role.yaml"), "utf8"));
  });

  it("the scaffolded AppCluster controller gets the role Kubebuilder's scaffold gets, without warnings", async () => {
    // The real templates, not a copy of them: scaffold a project, then generate its role.
    const projectDir = mkdtempSync(join(tmpdir(), "opgen-rbac-scaffold-"));
    planInit({
      projectName: "demo",
      domain: "my.domain",
      owner: "The demo Authors",
      license: "apache2",
      multigroup: false,
      specs: resolveDependencySpecs(),
      emptyRole: { path: "config/rbac/role.yaml", content: "" },
    }).write(projectDir);
    planCreateApi(projectDir, readProject(projectDir), {
      group: "demo",
      version: "v1",
      kind: "AppCluster",
      plural: "appclusters",
      namespaced: true,
      resource: true,
      controller: true,
    }).write(projectDir);
    const { files, diagnostics, report } = await generateRbac({ projectDir, report: true });
    expect(diagnostics).toEqual([]);
    expect(files[0]!.content).toBe(readFileSync(join(CASES, "scaffold/role.yaml"), "utf8"));
    expect(report).toContain("reconciler AppClusterReconciler");
    expect(report).toMatch(/^ {4}reconciles {2}appclusters \(group demo\.my\.domain\) {2}ok$/m);
  });

  it("a project without markers gets an empty manager-role", async () => {
    const { files, diagnostics } = await generateRbac({
      projectDir: join(CASES, "seed-001"),
      paths: [],
      roleName: "manager-role",
      output: "config/rbac/role.yaml",
    });
    expect(diagnostics).toEqual([]);
    expect(files).toEqual([
      {
        path: "config/rbac/role.yaml",
        content: [
          "---",
          "apiVersion: rbac.authorization.k8s.io/v1",
          "kind: ClusterRole",
          "metadata:",
          "  name: manager-role",
          "rules: []",
          "",
        ].join("\n"),
      },
    ]);
  });
});
