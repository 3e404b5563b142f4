/**
 * managedFields of an HPA written through both of its versions: kube's field manager records an
 * Update in the request's version (a v1 writer owns v1 paths under `apiVersion: autoscaling/v1`),
 * serves the entries unchanged in either version, and compares each manager's fields in that
 * manager's version when another version writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
  const r = await kubectl(env, ["create", "deployment", "web", "--image=nginx"]);
  expect(r.code).toBe(0);
});
afterAll(async () => {
  await env?.stop();
});

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsV1: Record<string, unknown>;
}

async function managedFields(resource: string): Promise<Entry[]> {
  const r = await kubectl(env, ["get", resource, "web", "-o", "json", "--show-managed-fields"]);
  expect(r.stderr).toBe("");
  return (JSON.parse(r.stdout) as { metadata: { managedFields: Entry[] } }).metadata.managedFields;
}

const strip = (es: Entry[]) =>
  es.map(({ manager, operation, apiVersion, fieldsV1 }) => ({
    manager,
    operation,
    apiVersion,
    fieldsV1,
  }));

describe("HPA managed fields across autoscaling/v1 and v2", () => {
  it("records kubectl autoscale (v1) in v1 field paths, shown alike in both versions", async () => {
    const r = await kubectl(env, ["autoscale", "deployment", "web", "--max=5", "--cpu-percent=60"]);
    expect(r.stdout).toBe("horizontalpodautoscaler.autoscaling/web autoscaled");
    const expected = [
      {
        manager: "kubectl-autoscale",
        operation: "Update",
        apiVersion: "autoscaling/v1",
        fieldsV1: {
          "f:spec": {
            "f:maxReplicas": {},
            "f:minReplicas": {},
            "f:scaleTargetRef": {},
            "f:targetCPUUtilizationPercentage": {},
          },
        },
      },
    ];
    expect(strip(await managedFields("horizontalpodautoscalers.v1.autoscaling"))).toEqual(expected);
    expect(strip(await managedFields("horizontalpodautoscalers.v2.autoscaling"))).toEqual(expected);
    // `kubectl get hpa -o yaml` (the preferred v2) prints the same v1 entry.
    const yaml = await kubectl(env, ["get", "hpa", "web", "-o", "yaml", "--show-managed-fields"]);
    expect(yaml.stdout).toContain("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler");
    expect(yaml.stdout).toContain("f:targetCPUUtilizationPercentage: {}");
    expect(yaml.stdout).not.toContain("f:metrics");
  });

  it("a v2 write takes from the v1 manager what it changed as v1 sees it", async () => {
    const patch = {
      spec: {
        maxReplicas: 7,
        metrics: [
          {
            type: "Resource",
            resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } },
          },
        ],
      },
    };
    const r = await kubectl(env, [
      "patch",
      "horizontalpodautoscalers.v2.autoscaling",
      "web",
      "--type=merge",
      "-p",
      JSON.stringify(patch),
    ]);
    expect(r.stderr).toBe("");
    const entries = strip(await managedFields("hpa"));
    // The CPU target is v1's targetCPUUtilizationPercentage: the v1 manager lost it with maxReplicas.
    expect(entries[0]).toEqual({
      manager: "kubectl-autoscale",
      operation: "Update",
      apiVersion: "autoscaling/v1",
      fieldsV1: { "f:spec": { "f:minReplicas": {}, "f:scaleTargetRef": {} } },
    });
    expect(entries[1]).toMatchObject({ manager: "kubectl-patch", apiVersion: "autoscaling/v2" });
    expect(Object.keys((entries[1]!.fieldsV1["f:spec"] ?? {}) as object).sort()).toEqual([
      "f:maxReplicas",
      "f:metrics",
    ]);
  });

  it("a v1 write of an unchanged value leaves the v2 manager its fields", async () => {
    const r = await kubectl(env, [
      "patch",
      "horizontalpodautoscalers.v1.autoscaling",
      "web",
      "--type=merge",
      "-p",
      JSON.stringify({ spec: { maxReplicas: 7, minReplicas: 2 } }),
    ]);
    expect(r.stderr).toBe("");
    const entries = strip(await managedFields("hpa"));
    const patcher = entries.filter((e) => e.manager === "kubectl-patch");
    expect(patcher.map((e) => e.apiVersion).sort()).toEqual(["autoscaling/v1", "autoscaling/v2"]);
    expect(patcher.find((e) => e.apiVersion === "autoscaling/v1")!.fieldsV1).toEqual({
      "f:spec": { "f:minReplicas": {} },
    });
    expect(
      Object.keys(
        patcher.find((e) => e.apiVersion === "autoscaling/v2")!.fieldsV1["f:spec"] as object,
      ).sort(),
    ).toEqual(["f:maxReplicas", "f:metrics"]);
    expect(entries.find((e) => e.manager === "kubectl-autoscale")!.fieldsV1).toEqual({
      "f:spec": { "f:scaleTargetRef": {} },
    });
  });
});

describe("server-side apply across autoscaling/v1 and v2", () => {
  const v1 = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: ssa, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  targetCPUUtilizationPercentage: 70
`;
  const v2 = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: ssa, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

  it("conflicts with a v1 applier over the CPU target, as v1 sees it", async () => {
    expect((await kubectl(env, ["apply", "--server-side", "-f", "-"], v1)).code).toBe(0);
    const r = await kubectl(
      env,
      ["apply", "--server-side", "--field-manager=other", "-f", "-"],
      v2,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr.split("\n")[0]).toBe(
      'error: Apply failed with 1 conflict: conflict with "kubectl": .spec.targetCPUUtilizationPercentage',
    );
    const forced = await kubectl(
      env,
      ["apply", "--server-side", "--force-conflicts", "--field-manager=other", "-f", "-"],
      v2,
    );
    expect(forced.code).toBe(0);
    const got = await kubectl(env, ["get", "hpa", "ssa", "-o", "json", "--show-managed-fields"]);
    const entries = strip(
      (JSON.parse(got.stdout) as { metadata: { managedFields: Entry[] } }).metadata.managedFields,
    );
    expect(entries.find((e) => e.manager === "kubectl")).toEqual({
      manager: "kubectl",
      operation: "Apply",
      apiVersion: "autoscaling/v1",
      fieldsV1: { "f:spec": { "f:maxReplicas": {}, "f:scaleTargetRef": {} } },
    });
    expect(entries.find((e) => e.manager === "other")?.apiVersion).toBe("autoscaling/v2");
  });
});
