/**
 * The scaffold's RBAC proof, at the runtime's level: the manager runs as a ServiceAccount bound
 * only to a role file (envtest's `serviceAccount`), the test acts as the admin through
 * `createClient`, and a grant the role lacks ends the wait with kube's 403 message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createClient,
  createManager,
  isStatusConditionTrue,
  kinds,
  setStatusCondition,
} from "../../src/index.js";
import { AppClusterKind, crdDir, testLogger } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "opgen-runtime-rbac-"));
let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [crdDir()], auth: "rbac" });
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function roleFile(name: string, statusVerbs: string[]): string {
  const path = join(dir, `${name}.yaml`);
  const rules = [
    { apiGroups: ["demo.my.domain"], resources: ["appclusters"], verbs: ["get", "list", "watch"] },
    ...(statusVerbs.length
      ? [{ apiGroups: ["demo.my.domain"], resources: ["appclusters/status"], verbs: statusVerbs }]
      : []),
  ];
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name },
      rules,
    }),
  );
  return path;
}

async function reconcileAs(name: string, roleFiles: string[]) {
  const operator = await env.serviceAccount({ namespace: "demo-system", name, roleFiles });
  const mgr = createManager({
    kubeconfig: operator.kubeconfig,
    metricsBindAddress: "0",
    logger: testLogger(),
  });
  mgr.controller(AppClusterKind).complete({
    async reconcile(req) {
      const app = await mgr.client.get(AppClusterKind, req);
      const conditions = [...(app.status?.conditions ?? [])];
      if (
        setStatusCondition(conditions, {
          type: "Available",
          status: "True",
          reason: "Ok",
          message: "ok",
        })
      ) {
        app.status = { ...app.status, conditions };
        await mgr.client.status().update(app);
      }
      return {};
    },
  });
  const admin = createClient({ kubeconfig: env.kubeconfig });
  const key = { namespace: "default", name };
  const stop = new AbortController();
  const running = mgr.start(stop.signal);
  await admin.create({
    apiVersion: "demo.my.domain/v1",
    kind: "AppCluster",
    metadata: key,
    spec: {},
  });
  try {
    await eventually(
      async () => {
        const got = await admin.get(AppClusterKind, key);
        expect(isStatusConditionTrue(got.status?.conditions, "Available")).toBe(true);
      },
      { timeout: 20_000, signal: operator.forbidden },
    );
  } finally {
    stop.abort();
    await running;
  }
  return operator;
}

it("reconciles as the ServiceAccount when its role grants enough", async () => {
  const operator = await reconcileAs("enough", [roleFile("enough", ["update"])]);
  expect(operator.forbiddenRequests).toEqual([]);
});

it("fails at once with kube's message when the role lacks a grant", async () => {
  await expect(reconcileAs("no-status", [roleFile("no-status", [])])).rejects.toThrow(
    'appclusters.demo.my.domain "no-status" is forbidden: User "system:serviceaccount:demo-system:no-status" cannot update resource "appclusters/status" in API group "demo.my.domain" in the namespace "default"',
  );
});

it("createClient reads a kubeconfig file and sends every read to the API server", async () => {
  const client = createClient({ kubeconfig: env.kubeconfigPath, fieldOwner: "tester" });
  await client.create({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { namespace: "default", name: "from-file" },
    data: { a: "1" },
  });
  const created = await client.get(kinds.ConfigMap, { namespace: "default", name: "from-file" });
  expect(created.metadata?.managedFields?.[0]?.manager).toBe("tester");
  const list = await client.list(AppClusterKind, { namespace: "default" });
  expect(list.map((a) => a.metadata?.name).sort()).toEqual(["enough", "no-status"]);
});
