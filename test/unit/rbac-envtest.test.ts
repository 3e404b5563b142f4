/**
 * The generated role.yaml against an API server that enforces RBAC (@opgen/envtest with
 * `auth: "rbac"`): every document is accepted as created, and a ServiceAccount bound to the roles
 * can do exactly what the markers say, no more: cluster-wide rules everywhere, `resourceNames`
 * rules only on those names, namespaced Roles only in their namespace.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { generateRbac } from "../../src/generators/rbac/index.js";

const SA = { namespace: "system", name: "controller-manager" };
const SA_USER = `system:serviceaccount:${SA.namespace}:${SA.name}`;

let env: TestEnv;
let dir: string;
let saToken: string;

async function call(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: { metadata?: { name?: string } } }> {
  const ca = Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64");
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.url}${path}`,
      {
        method,
        ca,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "application/json",
          ...(payload ? { "Content-Type": "application/json" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || "{}") }),
        );
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const admin = (method: string, path: string, body?: unknown) =>
  call(method, path, env.adminToken, body);
const asManager = (method: string, path: string) => call(method, path, saToken);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "opgen-rbac-envtest-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "src/controller.ts"),
    [
      "/**",
      " * @rbac groups=core,resources=pods,verbs=get;list;watch",
      " * @rbac groups=core,resources=configmaps,resourceNames=settings,verbs=get",
      " * @rbac groups=apps,resources=deployments,verbs=list,namespace=apps",
      " */",
      "export class Reconciler {}",
    ].join("\n"),
  );
  const { files, diagnostics } = await generateRbac({ projectDir: dir });
  expect(diagnostics).toEqual([]);

  env = await startTestEnv({ auth: "rbac" });
  saToken = env.tokenFor(SA_USER, ["system:serviceaccounts"]);
  for (const ns of ["apps", "system"]) {
    expect((await admin("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(
      201,
    );
  }
  const subjects = [{ kind: "ServiceAccount", name: SA.name, namespace: SA.namespace }];
  for (const doc of parseAllDocuments(files[0]!.content)) {
    const role = doc.toJS();
    const rbac = "/apis/rbac.authorization.k8s.io/v1";
    if (role.kind === "ClusterRole") {
      expect((await admin("POST", `${rbac}/clusterroles`, role)).status).toBe(201);
      const binding = {
        metadata: { name: `${role.metadata.name}-binding` },
        roleRef: {
          apiGroup: "rbac.authorization.k8s.io",
          kind: "ClusterRole",
          name: role.metadata.name,
        },
        subjects,
      };
      expect((await admin("POST", `${rbac}/clusterrolebindings`, binding)).status).toBe(201);
    } else {
      const ns = role.metadata.namespace;
      expect((await admin("POST", `${rbac}/namespaces/${ns}/roles`, role)).status).toBe(201);
      const binding = {
        metadata: { name: `${role.metadata.name}-binding`, namespace: ns },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: role.metadata.name },
        subjects,
      };
      expect((await admin("POST", `${rbac}/namespaces/${ns}/rolebindings`, binding)).status).toBe(
        201,
      );
    }
  }
  for (const name of ["settings", "other"]) {
    const cm = { metadata: { name, namespace: "default" }, data: {} };
    expect((await admin("POST", "/api/v1/namespaces/default/configmaps", cm)).status).toBe(201);
  }
});

afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the generated roles on an RBAC-enforcing API server", () => {
  it("grant the ClusterRole's rules in every namespace", async () => {
    expect((await asManager("GET", "/api/v1/pods")).status).toBe(200);
    expect((await asManager("GET", "/api/v1/namespaces/apps/pods")).status).toBe(200);
    expect((await asManager("GET", "/api/v1/pods?watch=false")).status).toBe(200);
  });

  it("grant nothing the markers do not name", async () => {
    expect((await asManager("GET", "/api/v1/secrets")).status).toBe(403);
    expect((await asManager("DELETE", "/api/v1/namespaces/default/pods/x")).status).toBe(403);
  });

  it("restrict a resourceNames rule to those names, and never to a list", async () => {
    const settings = await asManager("GET", "/api/v1/namespaces/default/configmaps/settings");
    expect(settings.status).toBe(200);
    expect(settings.body.metadata?.name).toBe("settings");
    expect((await asManager("GET", "/api/v1/namespaces/default/configmaps/other")).status).toBe(
      403,
    );
    expect((await asManager("GET", "/api/v1/namespaces/default/configmaps")).status).toBe(403);
  });

  it("keep a namespaced Role's rules in its namespace", async () => {
    expect((await asManager("GET", "/apis/apps/v1/namespaces/apps/deployments")).status).toBe(200);
    expect((await asManager("GET", "/apis/apps/v1/namespaces/default/deployments")).status).toBe(
      403,
    );
    expect((await asManager("GET", "/apis/apps/v1/deployments")).status).toBe(403);
  });
});
