/**
 * The scaffold's scripts/build-installer.mjs on a small project of its own (the scaffold's
 * config/manager and a config/default over it), with the real kubectl: the image edit of
 * config/manager/kustomization.yaml as `kustomize edit set image controller=$IMG` makes it, the
 * render written to dist/install.yaml, and its one-line failures. The whole user path (a scaffolded
 * project, `npm run build-installer`, apply and delete) is in test/e2e/generated-project.test.ts.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { beforeEach, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { renderTemplate } from "../../src/generators/scaffold/render.js";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";

let project: string;

function write(path: string, content: string) {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

const read = (path: string) => readFileSync(join(project, path), "utf8");

const DEFAULT_KUSTOMIZATION =
  "namespace: demo-system\nnamePrefix: demo-\nresources:\n- ../manager\n";

beforeEach(() => {
  project = join(tempDir("opgen-build-installer-"), "demo");
  const data = { header: "", projectName: "demo" };
  write(
    "scripts/build-installer.mjs",
    renderTemplate("init/scripts/build-installer.mjs.hbs", data),
  );
  for (const file of ["kustomization.yaml", "manager.yaml"])
    write(`config/manager/${file}`, renderTemplate(`init/config/manager/${file}.hbs`, data));
  write("config/default/kustomization.yaml", DEFAULT_KUSTOMIZATION);
  write("package.json", JSON.stringify({ name: "demo", type: "module" }));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(join(REPO_ROOT, "node_modules/yaml"), join(project, "node_modules/yaml"));
});

const run = (env: Record<string, string | undefined> = {}) =>
  execa("node", ["scripts/build-installer.mjs"], {
    cwd: project,
    reject: false,
    env: { IMG: undefined, ...env },
  });

const deploymentImage = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS())
    .find((o) => o.kind === "Deployment").spec.template.spec.containers[0].image;

describe("scripts/build-installer.mjs", () => {
  it("sets the image from IMG, keeps the kustomization's comments, and writes what kubectl renders", async () => {
    const result = await run({ IMG: "example.com/op:v1" });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("Wrote dist/install.yaml (image example.com/op:v1)");
    const kustomization = read("config/manager/kustomization.yaml");
    expect(parse(kustomization).images).toEqual([
      { name: "controller", newName: "example.com/op", newTag: "v1" },
    ]);
    expect(kustomization).toContain("# The operator image: `IMG=<registry>/<name>:<tag>");
    const installer = read("dist/install.yaml");
    const { stdout } = await execa("kubectl", ["kustomize", "config/default"], { cwd: project });
    expect(installer).toBe(`${stdout}\n`);
    expect(deploymentImage(installer)).toBe("example.com/op:v1");
    expect(readdirSync(join(project, "dist"))).toEqual(["install.yaml"]);
  });

  it("uses Kubebuilder's default controller:latest without IMG (and with an empty one)", async () => {
    const scaffolded = read("config/manager/kustomization.yaml");
    for (const IMG of [undefined, ""]) {
      const result = await run({ IMG });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe("Wrote dist/install.yaml (image controller:latest)");
      expect(read("config/manager/kustomization.yaml")).toBe(scaffolded);
      expect(deploymentImage(read("dist/install.yaml"))).toBe("controller:latest");
    }
  });

  it.each([
    // kustomize's split: a registry port is not a tag; an image without a tag keeps manager.yaml's
    ["localhost:5000/op", { newName: "localhost:5000/op" }, "localhost:5000/op:latest"],
    [
      "localhost:5000/op:v2",
      { newName: "localhost:5000/op", newTag: "v2" },
      "localhost:5000/op:v2",
    ],
    [
      `example.com/op@sha256:${"a".repeat(64)}`,
      { newName: "example.com/op", digest: `sha256:${"a".repeat(64)}` },
      `example.com/op@sha256:${"a".repeat(64)}`,
    ],
    [
      `op:v3@sha256:${"b".repeat(64)}`,
      { newName: "op", newTag: "v3", digest: `sha256:${"b".repeat(64)}` },
      `op:v3@sha256:${"b".repeat(64)}`,
    ],
  ])("sets %s as kustomize edit set image does", async (IMG, entry, rendered) => {
    const result = await run({ IMG });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(parse(read("config/manager/kustomization.yaml")).images).toEqual([
      { name: "controller", ...entry },
    ]);
    expect(deploymentImage(read("dist/install.yaml"))).toBe(rendered);
  });

  it("replaces only the controller entry of images, and adds one when the list has none", async () => {
    write(
      "config/manager/kustomization.yaml",
      "resources:\n- manager.yaml\nimages:\n- name: busybox # the init container\n  newTag: '1.36'\n",
    );
    expect((await run({ IMG: "example.com/op:v1" })).exitCode).toBe(0);
    const text = read("config/manager/kustomization.yaml");
    expect(parse(text).images).toEqual([
      { name: "busybox", newTag: "1.36" },
      { name: "controller", newName: "example.com/op", newTag: "v1" },
    ]);
    expect(text).toContain("# the init container");
    write("config/manager/kustomization.yaml", "resources:\n- manager.yaml\n");
    expect((await run({ IMG: "example.com/op:v4" })).exitCode).toBe(0);
    expect(parse(read("config/manager/kustomization.yaml")).images).toEqual([
      { name: "controller", newName: "example.com/op", newTag: "v4" },
    ]);
    expect(deploymentImage(read("dist/install.yaml"))).toBe("example.com/op:v4");
  });

  it("fails in one line when kustomize cannot render, leaving the previous dist/install.yaml", async () => {
    expect((await run({ IMG: "example.com/op:v1" })).exitCode).toBe(0);
    const before = read("dist/install.yaml");
    write("config/default/kustomization.yaml", `${DEFAULT_KUSTOMIZATION}- ../missing\n`);
    const result = await run({ IMG: "example.com/op:v2" });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^build-installer: kubectl kustomize config\/default failed: accumulating resources: .*missing.*; fix config\/ and run again$/,
    );
    expect(read("dist/install.yaml")).toBe(before);
    expect(readdirSync(join(project, "dist"))).toEqual(["install.yaml"]);
  });

  it("fails in one line, writing nothing, when the kustomization is not YAML or kubectl is missing", async () => {
    write("config/manager/kustomization.yaml", "images: [\n");
    const broken = await run();
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toMatch(
      /^build-installer: config\/manager\/kustomization\.yaml: .+; fix it and run again$/,
    );
    expect(broken.stderr.split("\n")).toHaveLength(1);
    expect(read("config/manager/kustomization.yaml")).toBe("images: [\n");
    expect(existsSync(join(project, "dist"))).toBe(false);

    write("config/manager/kustomization.yaml", "resources:\n- manager.yaml\n");
    // PATH with node alone: no kubectl to run.
    const bin = join(project, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    const noKubectl = await execa(join(bin, "node"), ["scripts/build-installer.mjs"], {
      cwd: project,
      reject: false,
      env: { PATH: bin },
      extendEnv: false,
    });
    expect(noKubectl.exitCode).toBe(1);
    expect(noKubectl.stderr).toBe(
      "build-installer: kubectl not found on PATH: install kubectl 1.27 or later (its kustomize renders config/default)",
    );
    expect(existsSync(join(project, "dist"))).toBe(false);
  });
});
