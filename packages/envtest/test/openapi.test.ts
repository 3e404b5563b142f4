// /openapi/v2 and /openapi/v3: the built-in definitions are the upstream ones, custom resources
// come and go with their CRDs, and kubectl uses both (apply of a kind: List, explain).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures, kubectl } from "./helpers.js";

// The upstream API data kept in the repository (reference/kubernetes/README.md names its sources).
const reference = resolve(
  process.env.OPGEN_K8S_REFERENCE ??
    join(import.meta.dirname, "..", "..", "..", "reference", "kubernetes"),
);

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
});
afterAll(async () => {
  await env?.stop();
});

const gadgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "gadgets.example.com" },
  spec: {
    group: "example.com",
    names: { kind: "Gadget", listKind: "GadgetList", plural: "gadgets", singular: "gadget" },
    scope: "Namespaced",
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  size: { type: "integer", default: 1, minimum: 0 },
                  port: {
                    "x-kubernetes-int-or-string": true,
                    anyOf: [{ type: "integer" }, { type: "string" }],
                  },
                  note: { type: "string", nullable: true },
                },
              },
            },
          },
        },
      },
    ],
  },
};

describe("/openapi/v2", () => {
  it("publishes the built-in definitions exactly as kube-apiserver 1.32 does", async () => {
    const swagger = JSON.parse(readFileSync(join(reference, "1.32", "swagger.json"), "utf8"));
    const r = await api(env, "GET", "/openapi/v2");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    const defs = r.body.definitions as Record<string, unknown>;
    const builtins = Object.keys(defs).filter((n) => n.startsWith("io.k8s."));
    expect(builtins.length).toBeGreaterThan(300);
    for (const name of builtins) expect(defs[name], name).toEqual(swagger.definitions[name]);
    const patch = r.body.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"].patch;
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({
      group: "apps",
      kind: "Deployment",
      version: "v1",
    });
    expect(patch.parameters).toContainEqual({
      in: "query",
      name: "fieldValidation",
      type: "string",
      uniqueItems: true,
    });
  });

  it("follows CRDs, answers protobuf to kubectl's Accept, and honours If-None-Match", async () => {
    const before = await api(env, "GET", "/openapi/v2");
    expect(before.body.definitions).not.toHaveProperty(["com.example.v1.Gadget"]);
    const created = await api(
      env,
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      gadgetCrd,
    );
    expect(created.status).toBe(201);
    const after = await api(env, "GET", "/openapi/v2");
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const gadget = after.body.definitions["com.example.v1.Gadget"];
    expect(gadget["x-kubernetes-group-version-kind"]).toEqual([
      { group: "example.com", kind: "Gadget", version: "v1" },
    ]);
    expect(gadget.properties.metadata).toEqual({
      $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    });
    // What OpenAPI v2 cannot say is left out, as kube-apiserver's v2 conversion does.
    expect(gadget.properties.spec.properties).toEqual({
      size: { type: "integer", minimum: 0 },
      port: { "x-kubernetes-int-or-string": true },
      note: {},
    });
    expect(after.body.definitions["com.example.v1.GadgetList"].properties.items).toEqual({
      type: "array",
      items: { $ref: "#/definitions/com.example.v1.Gadget" },
    });

    const pb = await api(env, "GET", "/openapi/v2", undefined, {
      accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
    });
    expect(pb.status).toBe(200);
    expect(pb.headers["content-type"]).toBe(
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
    );
    const again = await api(env, "GET", "/openapi/v2", undefined, {
      headers: { "If-None-Match": String(after.headers.etag) },
    });
    expect(again.status).toBe(304);

    await api(
      env,
      "DELETE",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com",
    );
    const gone = await api(env, "GET", "/openapi/v2");
    expect(gone.body.definitions).not.toHaveProperty(["com.example.v1.Gadget"]);
  });
});

describe("/openapi/v3", () => {
  it("carries each group version's schemas with defaults, references wrapped as kube-openapi does", async () => {
    const root = await api(env, "GET", "/openapi/v3");
    const url = root.body.paths["apis/apps/v1"].serverRelativeURL as string;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const doc = (await api(env, "GET", url)).body;
    const schemas = doc.components.schemas;
    expect(schemas["io.k8s.api.apps.v1.Deployment"]["x-kubernetes-group-version-kind"]).toEqual([
      { group: "apps", kind: "Deployment", version: "v1" },
    ]);
    expect(schemas["io.k8s.api.apps.v1.DeploymentSpec"].properties.template).toEqual({
      description: expect.stringContaining("Template describes the pods"),
      allOf: [{ $ref: "#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec" }],
    });
    expect(schemas["io.k8s.api.core.v1.ContainerPort"].properties.protocol.default).toBe("TCP");
    expect(schemas["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]).toEqual({
      description: expect.stringContaining("IntOrString is a type"),
      format: "int-or-string",
      oneOf: [{ type: "integer" }, { type: "string" }],
    });
    expect(schemas).not.toHaveProperty(["io.k8s.api.core.v1.ConfigMap"]);
  });
});

describe("kubectl with OpenAPI", () => {
  const list = (extra: string) => `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed, namespace: default}
  data: {a: "1"}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: listed, namespace: default}
  spec:
    selector: {matchLabels: {app: listed}}
    template:
      metadata: {labels: {app: listed}}
      spec:
        containers:
        - name: c
          image: nginx
          ports: [{containerPort: 80${extra}}]
`;

  it("applies a kind: List file, re-applies it unchanged and diffs it empty", async () => {
    const first = await kubectl(env, ["apply", "-f", "-"], list(""));
    expect(first.stderr).toBe("");
    expect(first.stdout).toBe("configmap/listed created\ndeployment.apps/listed created");
    const second = await kubectl(env, ["apply", "-f", "-"], list(""));
    expect(second.stdout).toBe("configmap/listed unchanged\ndeployment.apps/listed unchanged");
    const diff = await kubectl(env, ["diff", "-f", "-"], list(""));
    expect(diff).toMatchObject({ code: 0, stdout: "" });
  });

  it("validates a List's items against the schemas client-side, as against a cluster", async () => {
    const r = await kubectl(env, ["apply", "-f", "-"], list(", bogus: 1"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'ValidationError(Deployment.spec.template.spec.containers[0].ports[0]): unknown field "bogus" in io.k8s.api.core.v1.ContainerPort',
    );
  });

  it("explains built-in kinds and their fields", async () => {
    const r = await kubectl(env, ["explain", "pods.spec.containers.ports"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^FIELD: ports <\[\]ContainerPort>$/m);
    expect(r.stdout).toMatch(/^ {2}containerPort\t<integer> -required-$/m);
    const recursive = await kubectl(env, ["explain", "deployment.spec.strategy", "--recursive"]);
    expect(recursive.stdout).toMatch(/^ {4}maxSurge\t<IntOrString>$/m);
  });
});
