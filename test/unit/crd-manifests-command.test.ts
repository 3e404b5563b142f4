import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runManifests } from "../../src/commands/manifests.js";

const JOBS = join(import.meta.dirname, "../golden/crd/jobs");
const CRD = "config/crd/bases/testdata.kubebuilder.io_jobs.yaml";

let dir: string;
let out: string;
let err: string;
const io = { out: (t: string) => (out += t), err: (t: string) => (err += t) };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "opgen-manifests-"));
  cpSync(JOBS, dir, { recursive: true });
  out = "";
  err = "";
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("opgen manifests", () => {
  it("writes CRDs, then --check passes", async () => {
    await runManifests({ projectDir: dir }, io);
    const text = readFileSync(join(dir, CRD), "utf8");
    expect(text).toContain("kind: CustomResourceDefinition");
    expect(text).toContain("opgen.dev/version:");
    expect(err).toContain(`wrote ${CRD}`);
    err = "";
    await runManifests({ projectDir: dir, check: true }, io);
    expect(err).toContain("up to date");
  });

  it("--check fails with a diff for a missing or changed file and writes nothing", async () => {
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(
      /2 files are out of date/,
    );
    expect(out).toContain(`+++ b/${CRD}`);
    expect(existsSync(join(dir, CRD))).toBe(false);
    await runManifests({ projectDir: dir }, io);
    const path = join(dir, CRD);
    writeFileSync(path, readFileSync(path, "utf8").replace("minLength: 5", "minLength: 6"));
    out = "";
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(/out of date/);
    expect(out).toContain("-                minLength: 6\n+                minLength: 5\n");
  });

  it("reports stale CRD files and removes them with --prune", async () => {
    mkdirSync(join(dir, "config/crd/bases"), { recursive: true });
    const stale = join(dir, "config/crd/bases/old.example.com_gones.yaml");
    writeFileSync(
      stale,
      "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
    );
    writeFileSync(join(dir, "config/crd/bases/notes.yaml"), "kind: ConfigMap\n");
    // The CRD and role.yaml are missing, and one CRD file is stale (notes.yaml is no CRD).
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(
      /3 files are out of date/,
    );
    expect(out).toContain("config/crd/bases/old.example.com_gones.yaml: stale");
    await runManifests({ projectDir: dir }, io);
    expect(existsSync(stale)).toBe(true);
    expect(err).toContain("old.example.com_gones.yaml is stale");
    await runManifests({ projectDir: dir, prune: true }, io);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(join(dir, "config/crd/bases/notes.yaml"))).toBe(true);
  });

  it("refuses --paths that name nothing readable, and --prune when no kind was found", async () => {
    await runManifests({ projectDir: dir }, io);
    const crd = readFileSync(join(dir, CRD), "utf8");
    await expect(
      runManifests({ projectDir: dir, paths: ["src/apis"], prune: true }, io),
    ).rejects.toThrow(/^--paths src\/apis: no such file or folder in .*; nothing was written$/);
    writeFileSync(join(dir, "notes.yaml"), "a: b\n");
    await expect(runManifests({ projectDir: dir, rbacPaths: ["notes.yaml"] }, io)).rejects.toThrow(
      "--rbac-paths notes.yaml: not a folder or a .ts source (tests and .d.ts are not read); nothing was written",
    );
    mkdirSync(join(dir, "src/empty"));
    await expect(
      runManifests({ projectDir: dir, paths: ["src/empty"], prune: true }, io),
    ).rejects.toThrow(
      "--prune: no @resource kind was found under src/empty, so it would remove every CRD in config/crd/bases (1); check --paths, nothing was removed or written",
    );
    expect(readFileSync(join(dir, CRD), "utf8")).toBe(crd);
  });

  it("follows symlinked API folders, and names a dangling link", async () => {
    cpSync(join(dir, "src/api"), join(dir, "elsewhere"), { recursive: true });
    rmSync(join(dir, "src/api"), { recursive: true });
    symlinkSync("../elsewhere", join(dir, "src/api"));
    // A cycle (a link back up) ends instead of looping.
    symlinkSync("..", join(dir, "elsewhere/loop"));
    await runManifests({ projectDir: dir }, io);
    expect(existsSync(join(dir, CRD))).toBe(true);
    symlinkSync("../missing", join(dir, "elsewhere/gone"));
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      "src/api/gone is a symbolic link to ../missing, which does not exist; fix or remove the link",
    );
  });

  it("names the path when the output cannot be written, and writes nothing", async () => {
    mkdirSync(join(dir, "config"), { recursive: true });
    writeFileSync(join(dir, "config/crd"), "not a folder\n");
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      /^cannot write config\/crd\/bases\/[^ ]+\.yaml: config\/crd is a file, not a folder; move it away \(or write elsewhere\) and run again; nothing was written$/,
    );
    expect(existsSync(join(dir, "config/rbac/role.yaml"))).toBe(false);
  });

  it("honours --output-dir, --paths and --max-desc-len", async () => {
    await runManifests(
      { projectDir: dir, outputDir: "out/crds/", paths: ["src/api/v1beta1"], maxDescLen: 0 },
      io,
    );
    const text = readFileSync(join(dir, "out/crds/testdata.kubebuilder.io_jobs.yaml"), "utf8");
    expect(text).not.toContain("description:");
  });

  it("reports every error with path:line:col and writes nothing", async () => {
    const types = join(dir, "src/api/v1beta1/job.types.ts");
    writeFileSync(
      types,
      readFileSync(types, "utf8")
        .replace("@validation MinLength=5", "@validation MinLenght=5")
        .replace("@validation Maximum=10", "@validation MaxLength=10"),
    );
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      /2 errors; nothing was written/,
    );
    expect(err).toMatch(
      /src\/api\/v1beta1\/job.types.ts:22:6: unknown marker @validation MinLenght; did you mean @validation MinLength\?/,
    );
    expect(err).toMatch(
      /src\/api\/v1beta1\/job.types.ts:28:6: @validation MaxLength needs a string, but field "spec.count" is of type integer/,
    );
    expect(existsSync(join(dir, CRD))).toBe(false);
  });

  it("refuses sources that do not parse, API or controller, each error once, and writes nothing", async () => {
    const types = join(dir, "src/api/v1beta1/job.types.ts");
    writeFileSync(types, readFileSync(types, "utf8").replace("count: int32;", "count: int32 = ;"));
    mkdirSync(join(dir, "src/controllers"), { recursive: true });
    writeFileSync(
      join(dir, "src/controllers/job.controller.ts"),
      "/** @rbac groups=apps,resources=deployments,verbs=get */\nexport class R {\n  run( {\n}\n",
    );
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      /2 errors; nothing was written/,
    );
    const lines = err.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^src\/api\/v1beta1\/job.types.ts:\d+:\d+: syntax error: Expression expected; fix the TypeScript source/,
    );
    expect(lines[1]).toMatch(/^src\/controllers\/job.controller.ts:\d+:\d+: syntax error: /);
    expect(existsSync(join(dir, CRD))).toBe(false);
    expect(existsSync(join(dir, "config/rbac/role.yaml"))).toBe(false);
  });

  it("fails on warnings only with --strict", async () => {
    const types = join(dir, "src/api/v1beta1/job.types.ts");
    writeFileSync(
      types,
      readFileSync(types, "utf8").replace(
        "crongJob: CronJobSpec;",
        "crongJob: CronJobSpec;\n  extra?: unknown;",
      ),
    );
    await runManifests({ projectDir: dir }, io);
    expect(err).toMatch(/job.types.ts:\d+:\d+: warning: field "spec.extra" has type unknown/);
    rmSync(join(dir, "config"), { recursive: true });
    await expect(runManifests({ projectDir: dir, strict: true }, io)).rejects.toThrow(
      /1 warning \(--strict\)/,
    );
    expect(existsSync(join(dir, CRD))).toBe(false);
  });

  it("reports CRD and RBAC errors together, and prints the RBAC report on request", async () => {
    mkdirSync(join(dir, "src/controllers"), { recursive: true });
    const controller = join(dir, "src/controllers/job.controller.ts");
    writeFileSync(
      controller,
      "/**\n * Reconciles jobs.\n * @rbac groups=apps,resources=deployments,verbs=get;list;watch\n */\nexport class JobReconciler {}\n",
    );
    await runManifests({ projectDir: dir, rbacReport: true }, io);
    expect(out).toContain("deployments");
    expect(readFileSync(join(dir, "config/rbac/role.yaml"), "utf8")).toContain("- deployments");

    writeFileSync(
      controller,
      "/**\n * @rbac groups=apps,resources=deployments,verbz=get\n */\nexport class JobReconciler {}\n",
    );
    const types = join(dir, "src/api/v1beta1/job.types.ts");
    writeFileSync(
      types,
      readFileSync(types, "utf8").replace("@validation MinLength=5", "@validation MinLenght=5"),
    );
    err = "";
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      /errors; nothing was written/,
    );
    expect(err).toMatch(/^src\/api\/v1beta1\/job\.types\.ts:\d+:\d+: unknown marker/m);
    expect(err).toMatch(/^src\/controllers\/job\.controller\.ts:2:\d+: .*verbz/m);
  });
});
