/**
 * `opgen manifests` checks config/samples against the CRDs it generates: a stale sample is a
 * warning naming file, line, column and field in kube's words; --strict fails the run and writes
 * nothing; objects of other kinds and kustomizations are not read.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runManifests } from "../../src/commands/manifests.js";
import { sampleFiles } from "../../src/generators/samples/check.js";
import { tempDir } from "../helpers/cli.js";

const TYPES = `
export interface AppClusterSpec {
  /**
   * @validation Minimum=1
   * @validation Maximum=10
   */
  size: number;
  /** @validation Enum=fast;safe */
  mode?: string;
  /** @validation Pattern=\`^[a-z]+$\` */
  image?: string;
}

/**
 * @resource scope=Namespaced
 * @validation XValidation rule="self.spec.mode != 'fast' || self.spec.size < 5",message="fast clusters are small"
 */
export interface AppCluster {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec: AppClusterSpec;
}
`;

const SAMPLE = "config/samples/demo_v1_appcluster.yaml";
const CRD = "config/crd/bases/demo.my.domain_appclusters.yaml";

let dir: string;
let err: string;
const io = { out: () => {}, err: (t: string) => (err += t) };

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeEach(() => {
  dir = tempDir("opgen-samples-check-");
  err = "";
  write(
    "src/api/v1/groupversion.ts",
    "/** @groupName demo.my.domain */\nexport const GroupVersion = {};\n",
  );
  write("src/api/v1/appcluster.types.ts", TYPES);
});

const head = (name: string) =>
  `apiVersion: demo.my.domain/v1\nkind: AppCluster\nmetadata:\n  name: ${name}\n`;

describe("sample validation in opgen manifests", () => {
  it("passes a valid sample silently", async () => {
    write(SAMPLE, `${head("ok")}spec:\n  size: 3\n  mode: safe\n`);
    await runManifests({ projectDir: dir }, io);
    expect(err).not.toContain("warning");
    expect(existsSync(join(dir, CRD))).toBe(true);
  });

  it("reports each problem of a stale sample with file, line, column and field", async () => {
    write(
      SAMPLE,
      [
        head("a"),
        "spec:\n  size: 20\n  mode: slow\n  image: UPPER\n  replicas: 3\n",
        "---\n",
        head("b"),
        "spec:\n  mode: safe\n",
        "---\n",
        head("c"),
        "spec:\n  size: 7\n  mode: fast\n",
      ].join(""),
    );
    await runManifests({ projectDir: dir }, io);
    expect(err.split("\n").filter((l) => l.includes("warning"))).toEqual([
      `${SAMPLE}:6:3: warning: spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10`,
      `${SAMPLE}:7:3: warning: spec.mode: Unsupported value: "slow": supported values: "fast", "safe"`,
      `${SAMPLE}:8:3: warning: spec.image: Invalid value: "UPPER": spec.image in body should match '^[a-z]+$'`,
      `${SAMPLE}:9:3: warning: unknown field "spec.replicas"`,
      `${SAMPLE}:15:1: warning: spec.size: Required value`,
      `${SAMPLE}:18:1: warning: Invalid value: "object": fast clusters are small`,
    ]);
    // Warnings do not stop the run.
    expect(existsSync(join(dir, CRD))).toBe(true);
  });

  it("fails with --strict and writes nothing", async () => {
    write(SAMPLE, `${head("a")}spec:\n  size: 0\n`);
    await expect(runManifests({ projectDir: dir, strict: true }, io)).rejects.toThrow(
      "manifests: 1 warning (--strict); nothing was written",
    );
    expect(err).toContain(`${SAMPLE}:6:3: warning: spec.size: Invalid value: 0`);
    expect(existsSync(join(dir, CRD))).toBe(false);
  });

  it("reports them with --check too", async () => {
    await runManifests({ projectDir: dir }, io);
    write(SAMPLE, `${head("a")}spec: {}\n`);
    err = "";
    await runManifests({ projectDir: dir, check: true }, io);
    expect(err).toContain(`${SAMPLE}:5:1: warning: spec.size: Required value`);
    expect(err).toContain("manifests are up to date");
  });

  it("names an unserved version and a missing name, and skips other kinds and kustomizations", async () => {
    write(
      SAMPLE,
      "apiVersion: demo.my.domain/v9\nkind: AppCluster\nmetadata:\n  name: a\nspec: {}\n---\n" +
        "apiVersion: demo.my.domain/v1\nkind: AppCluster\nspec:\n  size: 1\n---\n" +
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: y\n",
    );
    write("config/samples/kustomization.yaml", "resources:\n- demo_v1_appcluster.yaml\n");
    write("config/samples/other/extra.yml", "apiVersion: other.io/v1\nkind: AppCluster\nspec: 1\n");
    await runManifests({ projectDir: dir }, io);
    expect(err.split("\n").filter((l) => l.includes("warning"))).toEqual([
      `${SAMPLE}:1:1: warning: no matches for kind "AppCluster" in version "demo.my.domain/v9": the CRD serves v1`,
      `${SAMPLE}:7:1: warning: metadata.name: Required value: name or generateName is required`,
    ]);
    expect(sampleFiles(dir)).toEqual([SAMPLE, "config/samples/other/extra.yml"]);
  });

  it("does not check samples against CRDs that failed to generate", async () => {
    write(SAMPLE, `${head("a")}spec: {}\n`);
    write(
      "src/api/v1/broken.types.ts",
      "/** @resource */\nexport interface Broken { spec: Missing }\n",
    );
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(/error/);
    expect(err).not.toContain(SAMPLE);
  });
});
