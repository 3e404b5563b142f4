// The version profile (`kubernetesVersion`, `featureGates`): what a server reports of its release
// comes from its profile, an unknown minor or gate is refused naming the known ones, and two
// servers of different profiles run side by side in one process, each answering by its own.
import { kubernetesMinors, kubeVersion } from "@opgen/apimachinery/version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { ApiServer } from "../src/server.js";
import { api } from "./helpers.js";

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

describe("a server's Kubernetes version", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ kubernetesVersion: "1.32", simulate: true });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("answers /version, OpenAPI and the node's kubelet from the profile", async () => {
    const v = kubeVersion("1.32");
    const version = (await api(env, "GET", "/version")).body;
    expect(version).toMatchObject({
      major: v.info.major,
      minor: v.info.minor,
      gitVersion: `${v.info.gitVersion}-opgen`,
    });
    expect((await api(env, "GET", "/openapi/v2")).body.info.version).toBe(v.info.gitVersion);
    const v3 = (await api(env, "GET", "/openapi/v3/api/v1")).body;
    expect(v3.info.version).toBe(v.info.gitVersion);
    await eventually(async () => {
      const nodes = (await api(env, "GET", "/api/v1/nodes")).body.items;
      expect(nodes[0]?.status?.nodeInfo?.kubeletVersion).toBe(v.info.gitVersion);
    });
  });

  it("is the default profile when none is named", () => {
    const server = new ApiServer();
    expect(server.kube.minor).toBe(kubeVersion().minor);
    expect(server.registry.kube).toBe(server.kube);
  });

  it("refuses an unknown minor, naming the known ones", async () => {
    const known = kubernetesMinors().join(", ");
    expect(() => new ApiServer({ kubernetesVersion: "1.31" })).toThrow(
      `Kubernetes 1.31 is not a version opgen knows; use one of ${known}`,
    );
    await expect(startTestEnv({ kubernetesVersion: "2.0" })).rejects.toThrow(
      `Kubernetes 2.0 is not a version opgen knows; use one of ${known}`,
    );
  });

  it("refuses a feature gate the minor does not have", () => {
    expect(() => new ApiServer({ featureGates: { NoSuchGate: true } })).toThrow(
      /^unrecognized feature gate: NoSuchGate \(Kubernetes 1\.32 has .*CRDValidationRatcheting/,
    );
  });
});

describe("two servers, one profile each, in one process", () => {
  let ratcheting: TestEnv;
  let strict: TestEnv;
  beforeAll(async () => {
    [ratcheting, strict] = await Promise.all([
      startTestEnv({ kubernetesVersion: "1.32" }),
      startTestEnv({ kubernetesVersion: "1.32", featureGates: { CRDValidationRatcheting: false } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([ratcheting?.stop(), strict?.stop()]);
  });

  const schema = (max: number) => ({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { n: { type: "integer", maximum: max }, note: { type: "string" } },
      },
    },
  });
  const crd = (max: number) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "rats.gates.example.com" },
    spec: {
      group: "gates.example.com",
      names: { plural: "rats", kind: "Rat" },
      scope: "Namespaced",
      versions: [
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema(max) } },
      ],
    },
  });
  const path = "/apis/gates.example.com/v1/namespaces/default/rats";

  /** A Rat stored under `maximum: 10` with n 8, then the CRD tightened to `maximum: 5`. */
  async function storedThenTightened(env: TestEnv) {
    expect((await api(env, "POST", crds, crd(10))).status).toBe(201);
    let created: { status: number; body: Record<string, unknown> } | undefined;
    await eventually(async () => {
      created = await api(env, "POST", path, {
        apiVersion: "gates.example.com/v1",
        kind: "Rat",
        metadata: { name: "r" },
        spec: { n: 8 },
      });
      expect(created.status).toBe(201);
    });
    const live = (await api(env, "GET", `${crds}/rats.gates.example.com`)).body;
    live.spec.versions[0].schema.openAPIV3Schema = schema(5);
    expect((await api(env, "PUT", `${crds}/rats.gates.example.com`, live)).status).toBe(200);
    await eventually(async () => {
      const fresh = await api(env, "POST", path, {
        apiVersion: "gates.example.com/v1",
        kind: "Rat",
        metadata: { name: "r2" },
        spec: { n: 8 },
      });
      expect(fresh.status).toBe(422);
    });
    return created!.body;
  }

  it("ratchet CRD validation only where CRDValidationRatcheting is on", async () => {
    const [onRat, offRat] = await Promise.all([
      storedThenTightened(ratcheting),
      storedThenTightened(strict),
    ]);
    // Changing another field leaves the stored, now invalid, n: kube 1.32 by default lets it be.
    const on = await api(ratcheting, "PUT", `${path}/r`, {
      ...onRat,
      spec: { n: 8, note: "untouched n" },
    });
    expect(on.status).toBe(200);
    // With the gate off, every update is validated whole, as before 1.30.
    const off = await api(strict, "PUT", `${path}/r`, {
      ...offRat,
      spec: { n: 8, note: "untouched n" },
    });
    expect(off.status).toBe(422);
    expect(off.body.message).toBe(
      'Rat.gates.example.com "r" is invalid: spec.n: Invalid value: 8: spec.n in body should be less than or equal to 5',
    );
  });
});
