/**
 * `create api`'s sample comes from the CRD generated from the planned types, before anything is
 * on disk: types edited in the plan change the sample, and a plan whose types do not generate a
 * CRD still gets a sample, with the reason named instead of a silent empty spec.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  type ApiOptions,
  planApiSample,
  planCreateApi,
} from "../../src/generators/scaffold/api-plan.js";
import { resolveDependencySpecs } from "../../src/generators/scaffold/context.js";
import { planInit } from "../../src/generators/scaffold/init-plan.js";
import { readProject } from "../../src/project/project-file.js";
import { tempDir } from "../helpers/cli.js";

const options: ApiOptions = {
  group: "demo",
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
  resource: true,
  controller: false,
};
const TYPES = "src/api/v1/appcluster.types.ts";
const SAMPLE = "config/samples/demo_v1_appcluster.yaml";

let dir: string;

beforeEach(() => {
  dir = tempDir("opgen-samples-scaffold-");
  planInit({
    projectName: "demo",
    domain: "my.domain",
    owner: "The demo Authors",
    license: "none",
    multigroup: false,
    specs: resolveDependencySpecs(),
    emptyRole: { path: "config/rbac/role.yaml", content: "" },
  }).write(dir);
});

describe("create api's sample", () => {
  it("is filled from the planned types, read from memory", async () => {
    const project = readProject(dir);
    const plan = planCreateApi(dir, project, options);
    const types = plan.get(TYPES)!.content;
    plan.update(
      TYPES,
      types.replace(
        "  foo?: string;",
        "  foo: string;\n  /**\n   * @validation Minimum=2\n   */\n  replicas: number;\n  /** @validation Enum=Fast;Safe */\n  mode: string;",
      ),
    );
    const { path, problems } = await planApiSample(dir, project, options, plan);
    expect(path).toBe(SAMPLE);
    expect(problems).toEqual([]);
    expect(existsSync(join(dir, TYPES))).toBe(false);
    const sample = parse(plan.get(SAMPLE)!.content);
    expect(sample.metadata).toEqual({
      labels: { "app.kubernetes.io/name": "demo", "app.kubernetes.io/managed-by": "kustomize" },
      name: "appcluster-sample",
    });
    expect(sample.spec).toEqual({ foo: "example", mode: "Fast", replicas: 2 });
  });

  it("names why the spec is empty when the planned types do not generate a CRD", async () => {
    const project = readProject(dir);
    const plan = planCreateApi(dir, project, options);
    plan.update(TYPES, plan.get(TYPES)!.content.replace("spec: AppClusterSpec;", "spec: Missing;"));
    const { problems } = await planApiSample(dir, project, options, plan);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^spec left empty: the CRD of AppCluster could not be generated \(src\/api\/v1\/appcluster\.types\.ts:\d+:\d+: .*Missing/,
    );
    expect(parse(plan.get(SAMPLE)!.content).spec).toEqual({});
  });
});
