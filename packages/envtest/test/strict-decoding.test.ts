// Decoding built-ins as kube-apiserver does (issue 14, item 1): fields the kind's 1.32 schema does
// not have are a strict decoding error with fieldValidation=Strict (kubectl's default), a warning
// with Warn, and dropped either way; driven by the real kubectl and by plain HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "s" } });
});
afterAll(async () => {
  await env?.stop();
});

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: s
spec:
  replicas: 1
  replica: 2
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
        - name: app
          image: nginx:1.27
          imagePullPolicy: IfNotPresent
          ports:
            - containerPort: 80
              hostport: 8080
`;

describe("strict decoding of built-ins", () => {
  it("refuses unknown fields with kubectl's default validation, naming each", async () => {
    const r = await kubectl(env, ["apply", "-f", "-"], deployment("strict"));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].ports[0].hostport"',
    );
    const get = await kubectl(env, ["get", "deployment", "strict", "-n", "s"]);
    expect(get.code).not.toBe(0);
  });

  it("warns with --validate=warn and drops the fields; drops them silently with --validate=false", async () => {
    const warn = await kubectl(env, ["create", "--validate=warn", "-f", "-"], deployment("warned"));
    expect(warn.code, warn.stderr).toBe(0);
    expect(warn.stderr).toContain('unknown field "spec.replica"');
    const stored = JSON.parse(
      (await kubectl(env, ["get", "deployment", "warned", "-n", "s", "-o", "json"])).stdout,
    );
    expect(stored.spec.replica).toBeUndefined();
    expect(stored.spec.replicas).toBe(1);
    expect(stored.spec.template.spec.containers[0].ports[0]).toEqual({
      containerPort: 80,
      protocol: "TCP",
    });
    const off = await kubectl(env, ["create", "--validate=false", "-f", "-"], deployment("quiet"));
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).not.toContain("unknown field");
  });

  it("answers a Strict request over HTTP with 400 and kube's Status, and keeps known fields", async () => {
    const body = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "svc" },
      spec: { ports: [{ port: 80, nodeport: 30000 }], selector: { app: "x" } },
    };
    const strict = await api(
      env,
      "POST",
      "/api/v1/namespaces/s/services?fieldValidation=Strict",
      body,
    );
    expect(strict.status).toBe(400);
    expect(strict.body).toMatchObject({
      kind: "Status",
      reason: "BadRequest",
      message:
        'Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ports[0].nodeport"',
    });
    const ignored = await api(
      env,
      "POST",
      "/api/v1/namespaces/s/services?fieldValidation=Ignore",
      body,
    );
    expect(ignored.status).toBe(201);
    expect(ignored.headers.warning).toBeUndefined();
    expect(ignored.body.spec.ports).toEqual([{ port: 80, protocol: "TCP", targetPort: 80 }]);
  });

  it("reports duplicate fields of a JSON body (objects and list items)", async () => {
    const text =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup"},"data":{"a":"1","a":"2"}}';
    const strict = await api(
      env,
      "POST",
      "/api/v1/namespaces/s/configmaps?fieldValidation=Strict",
      text,
    );
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.a"',
    );
    const warn = await api(
      env,
      "POST",
      "/api/v1/namespaces/s/configmaps?fieldValidation=Warn",
      text,
    );
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toBe(
      '299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"data.a\\""',
    );
    expect(warn.body.data).toEqual({ a: "2" });
    const listed =
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"dups"},"spec":{"ports":[{"port":80},{"port":81,"port":82,"name":"b"}]}}';
    const r = await api(
      env,
      "POST",
      "/api/v1/namespaces/s/services?fieldValidation=Strict",
      listed,
    );
    expect(r.body.message).toContain('strict decoding error: duplicate field "spec.ports[1].port"');
  });

  it("refuses values of the wrong type as Go's decoder does", async () => {
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "typed" },
      spec: {
        replicas: "two",
        selector: { matchLabels: { app: "t" } },
        template: {
          metadata: { labels: { app: "t" } },
          spec: { containers: [{ name: "c", image: "x" }] },
        },
      },
    };
    const r = await api(env, "POST", "/apis/apps/v1/namespaces/s/deployments", deployment);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    const port = structuredClone(deployment);
    port.spec.replicas = 1 as never;
    (port.spec.template.spec.containers[0] as Record<string, unknown>).ports = [
      { containerPort: 80.5 },
    ];
    const p = await api(env, "POST", "/apis/apps/v1/namespaces/s/deployments", port);
    expect(p.body.message).toContain(
      "json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32",
    );
    const labels = await api(env, "POST", "/api/v1/namespaces/s/configmaps", {
      metadata: { name: "bad", labels: ["a"] },
    });
    expect(labels.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    const kubectlRun = await kubectl(
      env,
      ["apply", "-f", "-"],
      `apiVersion: v1
kind: ConfigMap
metadata: {name: typed, namespace: s}
data: {a: 1}
`,
    );
    expect(kubectlRun.stderr).toContain(
      "json: cannot unmarshal number into Go struct field ConfigMap.data of type string",
    );
  });
});
