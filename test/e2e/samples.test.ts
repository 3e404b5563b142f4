/**
 * Samples that stay valid (issue 17): the sample `create api` scaffolds, and one filled from a
 * schema with bounds, enums, patterns, formats, defaults, nested objects and a map list, are
 * accepted by `kubectl apply --validate=strict` on envtest with the generated CRDs; a type change
 * that makes a sample stale is reported by `opgen manifests` with file, line and field (exit 0),
 * and with --strict fails the run writing nothing, while the API server refuses the same field.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderSample } from "../../src/generators/samples/sample.js";
import { runCli, tempDir } from "../helpers/cli.js";

const dir = tempDir("opgen-e2e-samples-");
const SAMPLE = "config/samples/demo_v1_appcluster.yaml";
const APP_CRD = "config/crd/bases/demo.my.domain_appclusters.yaml";
const WIDGET_SAMPLE = "config/samples/demo_v1_widget.yaml";
const WIDGET_CRD = "config/crd/bases/demo.my.domain_widgets.yaml";

const WIDGET_TYPES = `import type { ObjectMeta } from "@opgen/runtime";

export interface Backend {
  host: string;
  /** @validation Format=ipv4 */
  address: string;
}

export interface Port {
  name: string;
  /**
   * @validation Minimum=1
   * @validation Maximum=65535
   */
  port: number;
}

/** @validation XValidation rule="self.replicas >= 3",message="at least three replicas" */
export interface WidgetSpec {
  /**
   * @validation Minimum=3
   * @validation Maximum=7
   */
  replicas: number;
  /** @validation Enum=Fast;Safe */
  mode: string;
  /**
   * @validation Pattern=\`^[a-z]([-a-z0-9]*[a-z0-9])?$\`
   * @validation MaxLength=20
   */
  slug: string;
  /** @validation Format=date-time */
  since: string;
  /** @default "gold" */
  tier: string;
  backend: Backend;
  /**
   * @validation MinItems=2
   * @listType map
   * @listMapKey name
   */
  ports: Port[];
  note?: string;
}

/** @resource scope=Namespaced */
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
}
`;

let env: TestEnv;

async function kubectl(args: string[]) {
  return execa("kubectl", ["--kubeconfig", env.kubeconfigPath, ...args], {
    cwd: dir,
    reject: false,
    all: true,
  });
}

beforeAll(async () => {
  for (const args of [
    ["init", "--domain", "my.domain", "--skip-install"],
    ["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
    [
      "create",
      "api",
      "--group",
      "demo",
      "--version",
      "v1",
      "--kind",
      "Widget",
      "--controller=false",
    ],
  ]) {
    const result = await runCli(args, dir);
    expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    // create api derives a sample the CRD accepts: nothing to warn about.
    expect(result.stderr, args.join(" ")).not.toContain("warning");
  }
  writeFileSync(join(dir, "src/api/v1/widget.types.ts"), WIDGET_TYPES);
  const manifests = await runCli(["manifests"], dir);
  expect(manifests.exitCode, manifests.stderr).toBe(0);
  env = await startTestEnv({ crdDirectoryPaths: [join(dir, "config/crd/bases")] });
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

describe("samples", () => {
  it("the scaffolded sample applies with kubectl apply --validate=strict", async () => {
    const sample = parse(readFileSync(join(dir, SAMPLE), "utf8"));
    expect(sample).toEqual({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: {
        labels: {
          "app.kubernetes.io/name": expect.any(String),
          "app.kubernetes.io/managed-by": "kustomize",
        },
        name: "appcluster-sample",
      },
      spec: {},
    });
    const result = await kubectl(["apply", "--validate=strict", "-n", "default", "-f", SAMPLE]);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stdout).toBe("appcluster.demo.my.domain/appcluster-sample created");
  });

  it("a sample filled from a rich generated schema applies, and manifests finds nothing stale", async () => {
    const crd = parse(readFileSync(join(dir, WIDGET_CRD), "utf8"));
    const schema = crd.spec.versions[0].schema.openAPIV3Schema as JSONSchemaProps;
    const { content, problems } = renderSample(schema, {
      apiVersion: "demo.my.domain/v1",
      kind: "Widget",
      name: "widget-sample",
      projectName: "demo",
    });
    expect(problems).toEqual([]);
    expect(parse(content).spec).toEqual({
      backend: { address: "192.0.2.1", host: "example" },
      mode: "Fast",
      ports: [
        { name: "example", port: 1 },
        { name: "example-2", port: 2 },
      ],
      replicas: 3,
      since: "2025-01-01T00:00:00Z",
      slug: "a",
      tier: "gold",
    });
    writeFileSync(join(dir, WIDGET_SAMPLE), content);
    const manifests = await runCli(["manifests", "--check"], dir);
    expect(manifests.exitCode, manifests.stderr).toBe(0);
    expect(manifests.stderr).not.toContain("warning");
    const result = await kubectl([
      "apply",
      "--validate=strict",
      "-n",
      "default",
      "-f",
      WIDGET_SAMPLE,
    ]);
    expect(result.exitCode, result.all).toBe(0);
  });

  it("a type change makes the sample stale: a warning naming file and field, an error with --strict", async () => {
    const typesFile = join(dir, "src/api/v1/appcluster.types.ts");
    const types = readFileSync(typesFile, "utf8");
    expect(types).toContain("  foo?: string;");
    writeFileSync(typesFile, types.replace("  foo?: string;", "  foo: string;"));
    const crdBefore = readFileSync(join(dir, APP_CRD), "utf8");
    const warning = `${SAMPLE}:9:1: warning: spec.foo: Required value`;

    const strict = await runCli(["manifests", "--strict"], dir);
    expect(strict.exitCode).toBe(1);
    expect(strict.stderr).toContain(warning);
    expect(strict.stderr).toContain("manifests: 1 warning (--strict); nothing was written");
    expect(readFileSync(join(dir, APP_CRD), "utf8")).toBe(crdBefore);

    const check = await runCli(["manifests", "--check"], dir);
    expect(check.exitCode).toBe(1); // the CRD is out of date too
    expect(check.stderr).toContain(warning);

    const run = await runCli(["manifests"], dir);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr.split("\n").filter((l) => l.includes("warning"))).toEqual([warning]);
    expect(readFileSync(join(dir, APP_CRD), "utf8")).not.toBe(crdBefore);

    // The API server, given the regenerated CRD, refuses the same field.
    const crd = await kubectl(["apply", "-f", APP_CRD]);
    expect(crd.exitCode, crd.all).toBe(0);
    const apply = await kubectl([
      "create",
      "--validate=strict",
      "-n",
      "default",
      "-f",
      SAMPLE,
      "--dry-run=server",
    ]);
    expect(apply.exitCode).not.toBe(0);
    expect(apply.stderr).toContain("spec.foo: Required value");
  });
});
