/**
 * RBAC's privilege-escalation prevention as kube-apiserver 1.32 enforces it, driven with the real
 * kubectl: a user who may write Roles, ClusterRoles and bindings may only grant what they hold
 * themselves (in the namespace and cluster-wide, or cluster-wide only for cluster objects), unless
 * they may `escalate` roles or `bind` the role; an aggregationRule needs everything; the admin
 * (`system:masters`) and the server's own controllers are not refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

const rbacPath = "/apis/rbac.authorization.k8s.io/v1";
const ref = (kind: string, name: string) =>
  `{apiGroup: rbac.authorization.k8s.io, kind: ${kind}, name: ${name}}`;
const user = (name: string) => `[{kind: User, name: ${name}, apiGroup: rbac.authorization.k8s.io}]`;
const held = (who: string) =>
  `user "${who}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:`;

/** YAML documents joined for `kubectl apply -f -`. */
const docs = (...d: string[]) => `${d.join("\n---\n")}\n`;

function clusterRole(name: string, rules: string[], extra: string[] = []): string {
  return [
    "apiVersion: rbac.authorization.k8s.io/v1",
    "kind: ClusterRole",
    `metadata: {name: ${name}}`,
    ...extra,
    rules.length ? "rules:" : "rules: []",
    ...rules.map((r) => `- ${r}`),
  ].join("\n");
}

function binding(
  kind: "RoleBinding" | "ClusterRoleBinding",
  name: string,
  roleRef: string,
  who: string,
  ns?: string,
) {
  return [
    "apiVersion: rbac.authorization.k8s.io/v1",
    `kind: ${kind}`,
    `metadata: {name: ${name}${ns ? `, namespace: ${ns}` : ""}}`,
    `roleRef: ${roleRef}`,
    `subjects: ${who}`,
  ].join("\n");
}

// What every writer below may do to RBAC objects, without the permissions they would grant.
const writeRbac =
  "{apiGroups: [rbac.authorization.k8s.io], resources: [roles, rolebindings, clusterroles, clusterrolebindings], verbs: [create, get, list, update, patch]}";

describe("RBAC escalation prevention", () => {
  let env: TestEnv;
  const roleDir = mkdtempSync(join(tmpdir(), "rbac-escalation-"));
  const admin = async (yaml: string) => {
    const r = await kubectl(env, ["apply", "-f", "-"], yaml);
    expect(r.code, r.stderr).toBe(0);
  };

  beforeAll(async () => {
    env = await startTestEnv({ auth: "rbac" });
    await kubectl(env, ["create", "namespace", "team"]);
    await admin(
      docs(
        clusterRole("rbac-writer", [writeRbac]),
        clusterRole("pod-reader", ["{apiGroups: [''], resources: [pods], verbs: [get, list]}"]),
        binding("ClusterRoleBinding", "writers", ref("ClusterRole", "rbac-writer"), user("alice")),
        // alice reads pods in `default` only.
        binding(
          "RoleBinding",
          "alice-reads-pods",
          ref("ClusterRole", "pod-reader"),
          user("alice"),
          "default",
        ),
      ),
    );
  });
  afterAll(async () => {
    await env?.stop();
    rmSync(roleDir, { recursive: true, force: true });
  });

  it("refuses a Role granting what its creator does not hold, with kube's message", async () => {
    const r = await kubectl(env, [
      "create",
      "role",
      "pods-and-secrets",
      "-n",
      "default",
      "--as=alice",
      "--verb=get,list,watch",
      "--resource=pods,secrets",
    ]);
    expect(r.code).toBe(1);
    // What is missing, broken down, compacted per resource and sorted; pods get/list are held.
    expect(r.stderr.trim()).toBe(
      [
        `Error from server (Forbidden): roles.rbac.authorization.k8s.io "pods-and-secrets" is forbidden: ${held("alice")}`,
        `{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}`,
        `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "watch"]}`,
      ].join("\n"),
    );
    const stored = await api(env, "GET", `${rbacPath}/namespaces/default/roles/pods-and-secrets`);
    expect(stored.status).toBe(404);
  });

  it("counts the creator's rules in the namespace and cluster-wide", async () => {
    const ok = await kubectl(env, [
      "create",
      "role",
      "pod-viewer",
      "-n",
      "default",
      "--as=alice",
      "--verb=get,list",
      "--resource=pods",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    // The RoleBinding in `default` grants nothing in `team`.
    const other = await kubectl(env, [
      "create",
      "role",
      "pod-viewer",
      "-n",
      "team",
      "--as=alice",
      "--verb=get",
      "--resource=pods",
    ]);
    expect(other.stderr.trim()).toBe(
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "pod-viewer" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`,
    );
    // A ClusterRole (and a ClusterRoleBinding) is checked against cluster-wide rules only.
    const cluster = await kubectl(env, [
      "create",
      "clusterrole",
      "pod-viewer",
      "--as=alice",
      "--verb=get",
      "--resource=pods",
    ]);
    expect(cluster.stderr).toContain(
      `clusterroles.rbac.authorization.k8s.io "pod-viewer" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`,
    );
    const crb = await kubectl(env, [
      "create",
      "clusterrolebinding",
      "bob-reads-pods",
      "--as=alice",
      "--clusterrole=pod-reader",
      "--user=bob",
    ]);
    expect(crb.stderr.trim()).toBe(
      `error: failed to create clusterrolebinding: clusterrolebindings.rbac.authorization.k8s.io "bob-reads-pods" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`,
    );
    // The same role bound in `default`, where alice holds it, is fine.
    const rb = await kubectl(env, [
      "create",
      "rolebinding",
      "bob-reads-pods",
      "-n",
      "default",
      "--as=alice",
      "--clusterrole=pod-reader",
      "--user=bob",
    ]);
    expect(rb.code, rb.stderr).toBe(0);
  });

  it("covers as kube does: wildcards, resource names, subresources and URL prefixes", async () => {
    await admin(
      docs(
        clusterRole("carol-holds", [
          "{apiGroups: [''], resources: [configmaps], resourceNames: [app-config], verbs: ['*']}",
          "{apiGroups: [apps], resources: ['*/scale'], verbs: [get, update]}",
          "{nonResourceURLs: ['/logs/*'], verbs: [get]}",
          writeRbac,
        ]),
        binding("ClusterRoleBinding", "carol", ref("ClusterRole", "carol-holds"), user("carol")),
      ),
    );
    const granted = clusterRole("carol-grants", [
      "{apiGroups: [''], resources: [configmaps], resourceNames: [app-config], verbs: [get, delete]}",
      "{apiGroups: [apps], resources: [deployments/scale, statefulsets/scale], verbs: [update]}",
      "{nonResourceURLs: [/logs/kube-apiserver.log], verbs: [get]}",
    ]);
    const ok = await kubectl(env, ["apply", "--as=carol", "-f", "-"], `${granted}\n`);
    expect(ok.code, ok.stderr).toBe(0);

    const tooMuch = clusterRole("carol-escalates", [
      // Every configmap, not one: not held.
      "{apiGroups: [''], resources: [configmaps], verbs: [get]}",
      // A wildcard is covered only by a wildcard.
      "{apiGroups: [apps], resources: ['*/scale'], verbs: ['*']}",
      "{nonResourceURLs: [/logs, /metrics], verbs: [get]}",
      "{apiGroups: [''], resources: [configmaps], resourceNames: [app-config, other], verbs: [get]}",
    ]);
    const r = await kubectl(env, ["create", "--as=carol", "-f", "-"], `${tooMuch}\n`);
    expect(r.stderr.trim()).toBe(
      [
        `Error from server (Forbidden): error when creating "STDIN": clusterroles.rbac.authorization.k8s.io "carol-escalates" is forbidden: ${held("carol")}`,
        `{APIGroups:[""], Resources:["configmaps"], ResourceNames:["other"], Verbs:["get"]}`,
        `{APIGroups:[""], Resources:["configmaps"], Verbs:["get"]}`,
        `{APIGroups:["apps"], Resources:["*/scale"], Verbs:["*"]}`,
        `{NonResourceURLs:["/logs"], Verbs:["get"]}`,
        `{NonResourceURLs:["/metrics"], Verbs:["get"]}`,
      ].join("\n"),
    );
  });

  it("checks before validation: an invalid role that escalates is forbidden, not invalid", async () => {
    const bad = [
      "apiVersion: rbac.authorization.k8s.io/v1",
      "kind: Role",
      "metadata: {name: secret-getter, namespace: default, labels: {'not a key': v}}",
      "rules: [{apiGroups: [''], resources: [secrets], verbs: [get]}]",
      "",
    ].join("\n");
    const r = await kubectl(env, ["create", "--as=alice", "-f", "-"], bad);
    expect(r.stderr).toContain(
      `Error from server (Forbidden): error when creating "STDIN": roles.rbac.authorization.k8s.io "secret-getter" is forbidden: ${held("alice")}`,
    );
    const admins = await kubectl(env, ["create", "-f", "-"], bad);
    expect(admins.stderr).toContain('The Role "secret-getter" is invalid: metadata.labels');
  });

  it("allows any rules to a user who may escalate roles", async () => {
    await admin(
      docs(
        clusterRole("role-escalator", [
          "{apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: [escalate]}",
        ]),
        binding(
          "RoleBinding",
          "dave-escalates",
          ref("ClusterRole", "role-escalator"),
          user("dave"),
          "team",
        ),
        binding(
          "ClusterRoleBinding",
          "dave-writes",
          ref("ClusterRole", "rbac-writer"),
          user("dave"),
        ),
      ),
    );
    const ok = await kubectl(env, [
      "create",
      "role",
      "anything",
      "-n",
      "team",
      "--as=dave",
      "--verb=*",
      "--resource=secrets",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    // escalate on roles in `team` says nothing of ClusterRoles, nor of other namespaces.
    const cluster = await kubectl(env, [
      "create",
      "clusterrole",
      "anything",
      "--as=dave",
      "--verb=get",
      "--resource=secrets",
    ]);
    expect(cluster.stderr).toContain(
      `clusterroles.rbac.authorization.k8s.io "anything" is forbidden: user "dave"`,
    );
    const elsewhere = await kubectl(env, [
      "create",
      "role",
      "anything",
      "-n",
      "default",
      "--as=dave",
      "--verb=get",
      "--resource=secrets",
    ]);
    expect(elsewhere.stderr).toContain(
      `roles.rbac.authorization.k8s.io "anything" is forbidden: user "dave"`,
    );
  });

  it("allows binding a role by name to a user who may bind it, and answers 404 for a missing role", async () => {
    await admin(
      docs(
        clusterRole("secret-admin", ["{apiGroups: [''], resources: [secrets], verbs: ['*']}"]),
        clusterRole("binds-secret-admin", [
          "{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], resourceNames: [secret-admin], verbs: [bind]}",
        ]),
        binding(
          "RoleBinding",
          "erin-binds",
          ref("ClusterRole", "binds-secret-admin"),
          user("erin"),
          "team",
        ),
        binding(
          "ClusterRoleBinding",
          "erin-writes",
          ref("ClusterRole", "rbac-writer"),
          user("erin"),
        ),
      ),
    );
    const ok = await kubectl(env, [
      "create",
      "rolebinding",
      "frank-secrets",
      "-n",
      "team",
      "--as=erin",
      "--clusterrole=secret-admin",
      "--user=frank",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    // bind is granted in `team` for that role only.
    const elsewhere = await kubectl(env, [
      "create",
      "rolebinding",
      "frank-secrets",
      "-n",
      "default",
      "--as=erin",
      "--clusterrole=secret-admin",
      "--user=frank",
    ]);
    expect(elsewhere.stderr.trim()).toBe(
      `error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "frank-secrets" is forbidden: ${held("erin")}\n{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}`,
    );
    const missing = await kubectl(env, [
      "create",
      "rolebinding",
      "frank-missing",
      "-n",
      "team",
      "--as=erin",
      "--role=missing",
      "--user=frank",
    ]);
    expect(missing.stderr.trim()).toBe(
      'error: failed to create rolebinding: roles.rbac.authorization.k8s.io "missing" not found',
    );
    const raw = await api(
      env,
      "POST",
      `${rbacPath}/namespaces/team/rolebindings`,
      {
        metadata: { name: "frank-missing" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "missing" },
        subjects: [{ kind: "User", name: "frank", apiGroup: "rbac.authorization.k8s.io" }],
      },
      { headers: { "Impersonate-User": "erin" } },
    );
    expect(raw.status).toBe(404);
    expect(raw.body.message).toBe('clusterroles.rbac.authorization.k8s.io "missing" not found');
  });

  it("names the roles it could not resolve after what is missing", async () => {
    await admin(
      binding("RoleBinding", "alice-gone", ref("ClusterRole", "gone"), user("alice"), "default"),
    );
    const r = await kubectl(env, [
      "create",
      "role",
      "secret-reader",
      "-n",
      "default",
      "--as=alice",
      "--verb=get",
      "--resource=secrets",
    ]);
    expect(r.stderr.trim()).toBe(
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "secret-reader" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]`,
    );
    await kubectl(env, ["delete", "rolebinding", "alice-gone", "-n", "default"]);
  });

  it("checks updates too, except those changing only owner references and finalizers", async () => {
    await admin(
      docs(
        [
          "apiVersion: rbac.authorization.k8s.io/v1",
          "kind: Role",
          "metadata: {name: secrets-role, namespace: default}",
          "rules: [{apiGroups: [''], resources: [secrets], verbs: [get]}]",
        ].join("\n"),
      ),
    );
    const finalizer = await kubectl(env, [
      "patch",
      "role",
      "secrets-role",
      "-n",
      "default",
      "--as=alice",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":["example.com/keep"]}}',
    ]);
    expect(finalizer.code, finalizer.stderr).toBe(0);
    const label = await kubectl(env, [
      "label",
      "role",
      "secrets-role",
      "-n",
      "default",
      "--as=alice",
      "team=a",
    ]);
    expect(label.stderr.trim()).toBe(
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "secrets-role" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`,
    );
    // Server-side apply is an update like any other (its conflicts come first, as on kube).
    const apply = await kubectl(
      env,
      ["apply", "--server-side", "--force-conflicts", "--as=alice", "-f", "-"],
      [
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: Role",
        "metadata: {name: pod-viewer, namespace: default}",
        "rules: [{apiGroups: [''], resources: [pods, pods/log], verbs: [get]}]",
        "",
      ].join("\n"),
    );
    expect(apply.stderr).toContain(
      `roles.rbac.authorization.k8s.io "pod-viewer" is forbidden: ${held("alice")}\n{APIGroups:[""], Resources:["pods/log"], Verbs:["get"]}`,
    );
  });

  it("requires everything for an aggregationRule, on create and update", async () => {
    const aggregated = (name: string) =>
      clusterRole(
        name,
        [],
        [
          "aggregationRule:",
          "  clusterRoleSelectors: [{matchLabels: {rbac.example.com/aggregate-to-viewer: 'true'}}]",
        ],
      );
    const r = await kubectl(env, ["apply", "--as=alice", "-f", "-"], `${aggregated("viewer")}\n`);
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": clusterroles.rbac.authorization.k8s.io "viewer" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
    // A user holding everything (not system:masters) may; the aggregation controller then fills
    // the role, refused nothing.
    await admin(
      docs(
        clusterRole("everything", [
          "{apiGroups: ['*'], resources: ['*'], verbs: ['*']}",
          "{nonResourceURLs: ['*'], verbs: ['*']}",
        ]),
        binding(
          "ClusterRoleBinding",
          "grace-everything",
          ref("ClusterRole", "everything"),
          user("grace"),
        ),
        [
          "apiVersion: rbac.authorization.k8s.io/v1",
          "kind: ClusterRole",
          "metadata: {name: viewer-pods, labels: {rbac.example.com/aggregate-to-viewer: 'true'}}",
          "rules: [{apiGroups: [''], resources: [pods], verbs: [get]}]",
        ].join("\n"),
      ),
    );
    const ok = await kubectl(env, ["apply", "--as=grace", "-f", "-"], `${aggregated("viewer")}\n`);
    expect(ok.code, ok.stderr).toBe(0);
    await eventually(async () => {
      const role = await api(env, "GET", `${rbacPath}/clusterroles/viewer`);
      expect(role.body.rules).toEqual([{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }]);
    });
    // alice holds pods get cluster-wide now, yet may not touch the aggregating role.
    await admin(
      binding("ClusterRoleBinding", "alice-pods", ref("ClusterRole", "pod-reader"), user("alice")),
    );
    const label = await kubectl(env, ["label", "clusterrole", "viewer", "--as=alice", "team=a"]);
    expect(label.stderr.trim()).toBe(
      'Error from server (Forbidden): clusterroles.rbac.authorization.k8s.io "viewer" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });

  it("lets an operator's service account grant only what its role holds, and says so", async () => {
    // config/rbac/role.yaml of an operator that creates Roles for its workloads, without the
    // permissions those Roles grant: a cluster refuses it, and so does envtest.
    const roleFile = join(roleDir, "role.yaml");
    writeFileSync(
      roleFile,
      `${clusterRole("manager-role", [
        "{apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: [create, get, list, watch]}",
        "{apiGroups: [''], resources: [configmaps], verbs: [get, list, watch]}",
      ])}\n`,
    );
    const operator = await env.serviceAccount({
      namespace: "team",
      name: "controller-manager",
      roleFiles: [roleFile],
    });
    const as = `--as=${operator.user}`;
    const ok = await kubectl(env, [
      ...["create", "role", "workload", "-n", "team", as, "--verb=get,watch"],
      "--resource=configmaps",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const r = await kubectl(env, [
      ...["create", "role", "workload-secrets", "-n", "team", as, "--verb=get"],
      "--resource=secrets,configmaps",
    ]);
    const message = `roles.rbac.authorization.k8s.io "workload-secrets" is forbidden: user "${operator.user}" (groups=["system:serviceaccounts" "system:serviceaccounts:team" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`;
    expect(r.stderr.trim()).toBe(`Error from server (Forbidden): ${message}`);
    // The identity records the refusal as it records authorization's, to fail a test at once.
    expect(operator.forbiddenRequests).toEqual([message]);
    expect((operator.forbidden.reason as Error).message).toBe(
      `${message} (not granted by ${roleFile}: add an @rbac marker that grants it)`,
    );
  });
});
