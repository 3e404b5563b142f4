/**
 * The generated CRDs work on an API server: the seed 001 MyApp CRD and the cronjob CRD (10,000
 * lines of schema, three versions) are installed in @opgen/envtest, which checks them as the real
 * API server does (structural schema, defaults, CEL), then objects are created against them:
 * defaults from @default apply, and @validation bounds and enums reject bad objects.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CustomObjectsApi } from "@kubernetes/client-node";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";

const CASES = join(import.meta.dirname, "crd");
let env: TestEnv;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "opgen-crd-envtest-"));
  for (const name of ["seed001", "cronjobs"]) {
    const r = await generateCrds({ projectDir: join(CASES, name) });
    expect(r.diagnostics).toEqual([]);
    for (const f of r.files) writeFileSync(join(dir, f.path.split("/").pop()!), f.content);
  }
  env = await startTestEnv({ crdDirectoryPaths: [dir] });
});

afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const myApp = (spec: Record<string, unknown>, name: string) => ({
  group: "example.com",
  version: "v1",
  namespace: "default",
  plural: "myapps",
  body: { apiVersion: "example.com/v1", kind: "MyApp", metadata: { name }, spec },
});

describe("generated CRDs on the embedded API server", () => {
  it("applies @default values", async () => {
    const api = env.kubeconfig.makeApiClient(CustomObjectsApi);
    const created = (await api.createNamespacedCustomObject(
      myApp({ image: "nginx:1.27" }, "defaults"),
    )) as {
      spec: Record<string, unknown>;
    };
    expect(created.spec).toEqual({
      image: "nginx:1.27",
      port: 8080,
      replicas: 1,
      serviceType: "ClusterIP",
    });
  });

  it("rejects values outside @validation bounds, enums and patterns", async () => {
    const api = env.kubeconfig.makeApiClient(CustomObjectsApi);
    const bad = await api
      .createNamespacedCustomObject(
        myApp({ image: "nginx", replicas: 0, serviceType: "Ingress" }, "bad"),
      )
      .catch((e: { code: number; body: string }) => e);
    expect((bad as { code: number }).code).toBe(422);
    const message = JSON.parse((bad as { body: string }).body).message as string;
    expect(message).toContain("spec.replicas");
    expect(message).toContain("spec.serviceType");
  });

  it("installs the cronjob CRD (three versions) and serves its deprecated version", async () => {
    const api = env.kubeconfig.makeApiClient(CustomObjectsApi);
    const result = await api
      .createNamespacedCustomObject({
        group: "testdata.kubebuilder.io",
        version: "v1beta2",
        namespace: "default",
        plural: "cronjobs",
        body: {
          apiVersion: "testdata.kubebuilder.io/v1beta2",
          kind: "CronJob",
          metadata: { name: "c" },
        },
      })
      .then(() => "created")
      .catch((e: { code: number }) => e.code);
    // v1beta2 has no spec fields, so a bare object is valid there.
    expect(result).toBe("created");
  });
});
