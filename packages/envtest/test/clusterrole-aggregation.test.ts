/**
 * ClusterRole aggregation as kube-controller-manager does it: an aggregating role's rules are
 * written (server-side apply, `clusterrole-aggregation-controller`, forced) from the roles its
 * selectors match, and the authorizer grants what is stored, nothing computed on the fly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregatedRules } from "../src/controllers/clusterrole-aggregation.js";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const rbac = "/apis/rbac.authorization.k8s.io/v1";
const label = "rbac.example.com/aggregate-to-monitoring";

async function rulesOf(env: TestEnv, name: string) {
  const r = await api(env, "GET", `${rbac}/clusterroles/${name}`);
  return r.body as {
    rules?: unknown[];
    metadata: { managedFields?: { manager: string; operation: string }[] };
  };
}

describe("ClusterRole aggregation", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("writes the matched roles' rules into the aggregating role, as kubectl shows it", async () => {
    const created = await kubectl(
      env,
      ["apply", "-f", "-"],
      [
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRole",
        "metadata: {name: monitoring}",
        "aggregationRule:",
        `  clusterRoleSelectors: [{matchLabels: {${label}: "true"}}]`,
        "rules: []",
        "---",
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRole",
        `metadata: {name: monitoring-pods, labels: {${label}: "true"}}`,
        "rules:",
        "- {apiGroups: [''], resources: [pods], verbs: [get, list, watch]}",
        "---",
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRole",
        `metadata: {name: monitoring-endpoints, labels: {${label}: "true"}}`,
        "rules:",
        "- {apiGroups: [''], resources: [services, endpoints], verbs: [get, list, watch]}",
        // The same rule twice: one is kept.
        "- {apiGroups: [''], resources: [pods], verbs: [get, list, watch]}",
        "---",
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRoleBinding",
        "metadata: {name: carol-monitors}",
        "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: monitoring}",
        "subjects: [{kind: User, name: carol, apiGroup: rbac.authorization.k8s.io}]",
        "",
      ].join("\n"),
    );
    expect(created.code, created.stderr).toBe(0);

    // Roles by name (endpoints before pods), each rule once.
    const role = await eventually(async () => {
      const r = await rulesOf(env, "monitoring");
      expect(r.rules).toHaveLength(2);
      return r;
    });
    expect(role.rules).toEqual([
      { apiGroups: [""], resources: ["services", "endpoints"], verbs: ["get", "list", "watch"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] },
    ]);
    expect(role.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: "clusterrole-aggregation-controller",
        operation: "Apply",
      }),
    );
    const canI = await kubectl(env, ["auth", "can-i", "list", "endpoints", "--as=carol"]);
    expect(canI.stdout).toBe("yes");

    // A hand edit of the aggregated rules is overwritten (the controller applies with force).
    const edited = await kubectl(env, [
      "patch",
      "clusterrole",
      "monitoring",
      "--type=merge",
      "-p",
      '{"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}',
    ]);
    expect(edited.code, edited.stderr).toBe(0);
    await eventually(async () => expect((await rulesOf(env, "monitoring")).rules).toHaveLength(2));
    expect((await kubectl(env, ["auth", "can-i", "get", "secrets", "--as=carol"])).stdout).toBe(
      "no",
    );

    // A role that stops matching takes its rules away; with none left, the rules are released.
    await kubectl(env, ["label", "clusterrole", "monitoring-endpoints", `${label}-`]);
    await eventually(async () => expect((await rulesOf(env, "monitoring")).rules).toHaveLength(1));
    expect((await kubectl(env, ["auth", "can-i", "list", "endpoints", "--as=carol"])).stdout).toBe(
      "no",
    );
    expect((await kubectl(env, ["auth", "can-i", "list", "pods", "--as=carol"])).stdout).toBe(
      "yes",
    );
    await kubectl(env, ["delete", "clusterrole", "monitoring-pods"]);
    await eventually(async () =>
      expect((await rulesOf(env, "monitoring")).rules ?? []).toHaveLength(0),
    );
    expect((await kubectl(env, ["auth", "can-i", "list", "pods", "--as=carol"])).stdout).toBe("no");
  });

  it("selects with match expressions and never aggregates a role into itself", () => {
    const role = (name: string, labels: Record<string, string>, rules: object[]) => ({
      metadata: { name, labels },
      rules,
    });
    const agg = {
      ...role("agg", { tier: "a" }, [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }]),
      aggregationRule: {
        clusterRoleSelectors: [
          { matchExpressions: [{ key: "tier", operator: "In", values: ["a", "b"] }] },
          { matchLabels: { extra: "yes" } },
        ],
      },
    };
    const b = role("b", { tier: "b" }, [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }]);
    // Go's semantic equality: an empty and a missing list are the same rule.
    const c = role("c", { extra: "yes", tier: "b" }, [
      { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] },
      { verbs: ["list"], apiGroups: [""], resources: ["pods"] },
    ]);
    expect(aggregatedRules(agg, [c, agg, b])).toEqual([
      { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
      { verbs: ["list"], apiGroups: [""], resources: ["pods"] },
    ]);
    // An unreadable selector changes nothing (upstream returns the error and retries).
    const bad = {
      ...agg,
      aggregationRule: {
        clusterRoleSelectors: [{ matchExpressions: [{ key: "x", operator: "Is" }] }],
      },
    };
    expect(aggregatedRules(bad, [b])).toBeUndefined();
  });
});
