/**
 * Values of built-in fields whose Go types decode themselves (resource.Quantity,
 * intstr.IntOrString, metav1.Time): refused with the error their UnmarshalJSON gives, which ends
 * Go's decoding at once and so wins over an earlier plain type mismatch; quantities come back
 * canonical, as the decoded Quantity marshals. Driven by kubectl
 * (`--validate=false`, so its client-side schema check does not answer first) and plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

const QUANTITY =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const pod = (name: string, container: Record<string, unknown>) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx", ...container }] },
});

describe("self-decoding types", () => {
  it("refuses quantities that do not parse, quoted or not, and takes numbers", async () => {
    for (const cpu of [true, "1x", "abc", { v: 1 }]) {
      const r = await api(
        env,
        "POST",
        "/api/v1/namespaces/default/pods",
        pod("q", { resources: { limits: { cpu } } }),
      );
      expect([cpu, r.status, r.body.message]).toEqual([
        cpu,
        400,
        `Pod in version "v1" cannot be handled as a Pod: ${QUANTITY}`,
      ]);
    }
    const ok = await api(
      env,
      "POST",
      "/api/v1/namespaces/default/pods",
      pod("q", { resources: { limits: { cpu: 2, memory: "1Gi" } } }),
    );
    expect(ok.status).toBe(201);
  });

  it("serves quantities back in their canonical form, as a decoded Quantity marshals", async () => {
    const r = await kubectl(
      env,
      ["apply", "-f", "-", "-o", "jsonpath={.spec.containers[0].resources}"],
      `apiVersion: v1
kind: Pod
metadata: {name: canon, namespace: default}
spec:
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 0.5, memory: 1000, ephemeral-storage: "1e3"}
      limits: {cpu: 1000m, memory: 2048Mi, ephemeral-storage: 1.5Gi}
`,
    );
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      requests: { cpu: "500m", memory: "1k", "ephemeral-storage": "1e3" },
      limits: { cpu: "1", memory: "2Gi", "ephemeral-storage": "1536Mi" },
    });
  });

  it("canonicalizes quantities wherever a kind holds them, and nothing that only looks like one", async () => {
    const r = await kubectl(
      env,
      ["apply", "-f", "-", "-o", "json"],
      `apiVersion: v1
kind: ResourceQuota
metadata: {name: canon-quota, namespace: default}
spec:
  hard: {requests.storage: 2048Mi, pods: "10", limits.cpu: 1500m}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: canon-look-alike, namespace: default}
data: {cpu: 1000m, memory: 2048Mi}
`,
    );
    expect(r.stderr).toBe("");
    const [quota, cm] = JSON.parse(r.stdout).items;
    expect(quota.spec.hard).toEqual({
      "requests.storage": "2Gi",
      pods: "10",
      "limits.cpu": "1500m",
    });
    expect(cm.data).toEqual({ cpu: "1000m", memory: "2048Mi" });
  });

  it("reads an int-or-string that is not a string as an int32", async () => {
    const svc = (targetPort: unknown) =>
      `apiVersion: v1
kind: Service
metadata: {name: s, namespace: default}
spec:
  ports:
  - port: 80
    targetPort: ${JSON.stringify(targetPort)}
`;
    const b = await kubectl(env, ["apply", "--validate=false", "-f", "-"], svc(true));
    expect(b.stderr).toContain(
      'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
    const f = await kubectl(env, ["apply", "--validate=false", "-f", "-"], svc(1.5));
    expect(f.stderr).toContain(
      "json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32",
    );
    const ok = await kubectl(env, ["apply", "--validate=false", "-f", "-"], svc("http"));
    expect(ok.stdout).toBe("service/s created");
  });

  it("ends decoding at a self-decoding failure, past an earlier plain mismatch", async () => {
    const r = await api(
      env,
      "POST",
      "/api/v1/namespaces/default/pods",
      pod("order", { ports: [{ containerPort: "x" }], resources: { limits: { cpu: "1x" } } }),
    );
    expect(r.body.message).toBe(`Pod in version "v1" cannot be handled as a Pod: ${QUANTITY}`);
    // Without it, the plain mismatch is what Go reports.
    const plain = await api(
      env,
      "POST",
      "/api/v1/namespaces/default/pods",
      pod("order", { ports: [{ containerPort: "x" }] }),
    );
    expect(plain.body.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
  });

  it("wants a time as a string", async () => {
    const r = await api(env, "POST", "/api/v1/namespaces/default/events", {
      metadata: { name: "t" },
      involvedObject: { kind: "Pod", name: "p", namespace: "default" },
      reason: "Test",
      firstTimestamp: 5,
    });
    expect(r.body.message).toBe(
      'Event in version "v1" cannot be handled as a Event: json: cannot unmarshal number into Go struct field Event.firstTimestamp of type string',
    );
  });
});
