/** LimitRanger admission and pod QoS classes, as kube-apiserver applies them to new pods. */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintServingCertificate, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "limited" } });
});
afterAll(async () => {
  await env?.stop();
});

const pods = "/api/v1/namespaces/limited/pods";
const pod = (name: string, resources?: object) => ({
  metadata: { name },
  spec: { containers: [{ name: "app", image: "nginx", ...(resources ? { resources } : {}) }] },
});

describe("QoS classes", () => {
  it("classifies pods by their requests and limits", async () => {
    expect((await api(env, "POST", pods, pod("best"))).body.status.qosClass).toBe("BestEffort");
    const guaranteed = await api(
      env,
      "POST",
      pods,
      pod("guaranteed", { limits: { cpu: "500m", memory: "128Mi" } }),
    );
    // A limit without a request requests the limit (SetDefaults_Pod).
    expect(guaranteed.body.spec.containers[0].resources.requests).toEqual({
      cpu: "500m",
      memory: "128Mi",
    });
    expect(guaranteed.body.status.qosClass).toBe("Guaranteed");
    const burst = await api(env, "POST", pods, pod("burst", { requests: { cpu: "0.1" } }));
    expect(burst.body.status.qosClass).toBe("Burstable");
  });
});

describe("LimitRanger", () => {
  it("defaults container resources from the namespace's LimitRange and records it", async () => {
    const lr = await api(env, "POST", "/api/v1/namespaces/limited/limitranges", {
      metadata: { name: "defaults" },
      spec: {
        limits: [
          { type: "Container", default: { cpu: "500m", memory: "256Mi" }, max: { cpu: "1" } },
        ],
      },
    });
    // SetDefaults_LimitRangeItem: the default request falls back to the default limit.
    expect(lr.body.spec.limits[0].defaultRequest).toEqual({ cpu: "500m", memory: "256Mi" });
    const r = await api(env, "POST", pods, pod("defaulted"));
    expect(r.status).toBe(201);
    expect(r.body.spec.containers[0].resources).toEqual({
      limits: { cpu: "500m", memory: "256Mi" },
      requests: { cpu: "500m", memory: "256Mi" },
    });
    expect(r.body.metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app",
    );
    expect(r.body.status.qosClass).toBe("Guaranteed");
    const big = await api(env, "POST", pods, pod("big", { limits: { cpu: "2" } }));
    expect(big.status).toBe(403);
    expect(big.body.message).toBe(
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
  });
});

/** A namespace with one LimitRange of `limits`; returns its pods and claims paths. */
async function limitedNamespace(name: string, limits: object[]) {
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name } });
  const lr = await api(env, "POST", `/api/v1/namespaces/${name}/limitranges`, {
    metadata: { name: "limits" },
    spec: { limits },
  });
  expect(lr.status, lr.text).toBe(201);
  return {
    pods: `/api/v1/namespaces/${name}/pods`,
    claims: `/api/v1/namespaces/${name}/persistentvolumeclaims`,
  };
}

const container = (name: string, resources: object, extra: object = {}) => ({
  name,
  image: "nginx",
  resources,
  ...extra,
});

describe("LimitRanger for Containers", () => {
  it("defaults init containers after containers and checks both", async () => {
    const { pods: p } = await limitedNamespace("lr-init", [
      { type: "Container", defaultRequest: { cpu: "100m" }, max: { memory: "1Gi" } },
    ]);
    const r = await api(env, "POST", p, {
      metadata: { name: "with-init" },
      spec: {
        initContainers: [container("setup", { limits: { memory: "64Mi" } })],
        containers: [container("app", {})],
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu, memory request for container app; memory limit for container app; cpu request for init container setup",
    );
    expect(r.body.spec.initContainers[0].resources).toEqual({
      limits: { memory: "64Mi" },
      requests: { cpu: "100m", memory: "64Mi" },
    });
    const big = await api(env, "POST", p, {
      metadata: { name: "big-init" },
      spec: {
        initContainers: [container("setup", { limits: { memory: "2048Mi" } })],
        containers: [container("app", {})],
      },
    });
    expect(big.status).toBe(403);
    // Quantities read as kube prints them: 2048Mi is 2Gi.
    expect(big.body.message).toBe(
      'pods "big-init" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi',
    );
  });

  it("enforces maxLimitRequestRatio, and reports one LimitRange's violations together", async () => {
    const { pods: p } = await limitedNamespace("lr-ratio", [
      { type: "Container", maxLimitRequestRatio: { cpu: "2" }, min: { memory: "16Mi" } },
    ]);
    const ok = await api(env, "POST", p, {
      metadata: { name: "even" },
      spec: {
        containers: [
          container("app", { requests: { cpu: "500m", memory: "16Mi" }, limits: { cpu: "1" } }),
        ],
      },
    });
    expect(ok.status, ok.text).toBe(201);
    const steep = await api(env, "POST", p, {
      metadata: { name: "steep" },
      spec: {
        containers: [
          container("app", { requests: { cpu: "250m", memory: "16Mi" }, limits: { cpu: "1" } }),
        ],
      },
    });
    expect(steep.status).toBe(403);
    expect(steep.body.message).toBe(
      'pods "steep" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    );
    const both = await api(env, "POST", p, {
      metadata: { generateName: "both-" },
      spec: { containers: [container("app", { requests: { cpu: "1", memory: "8Mi" } })] },
    });
    expect(both.status).toBe(403);
    // Validation runs once the name is generated: the message names the pod that was refused.
    expect(both.body.message).toMatch(
      /^pods "both-[a-z0-9]{5}" is forbidden: \[minimum memory usage per Container is 16Mi, but request is 8Mi, cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0\]$/,
    );
  });
});

describe("LimitRanger for Pods", () => {
  it("checks the pod's totals: containers summed, init containers at their peak", async () => {
    const { pods: p } = await limitedNamespace("lr-pod", [
      { type: "Pod", max: { cpu: "1" }, min: { cpu: "200m" }, maxLimitRequestRatio: { cpu: "4" } },
    ]);
    const two = (a: string, b: string) => [
      container("a", { requests: { cpu: "200m" }, limits: { cpu: a } }),
      container("b", { requests: { cpu: "200m" }, limits: { cpu: b } }),
    ];
    const fits = await api(env, "POST", p, {
      metadata: { name: "fits" },
      spec: { containers: two("400m", "400m") },
    });
    expect(fits.status, fits.text).toBe(201);
    const over = await api(env, "POST", p, {
      metadata: { name: "over" },
      spec: { containers: two("600m", "600m") },
    });
    expect(over.status).toBe(403);
    expect(over.body.message).toBe(
      'pods "over" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m',
    );
    // An init container runs alone: the pod needs the larger of it and the containers' sum.
    const init = await api(env, "POST", p, {
      metadata: { name: "init-peak" },
      spec: {
        initContainers: [
          container("setup", { requests: { cpu: "300m" }, limits: { cpu: "1500m" } }),
        ],
        containers: two("300m", "300m"),
      },
    });
    expect(init.body.message).toBe(
      'pods "init-peak" is forbidden: maximum cpu usage per Pod is 1, but limit is 1500m',
    );
    // A sidecar (restartPolicy Always) keeps running next to the containers: it adds to them.
    const sidecar = await api(env, "POST", p, {
      metadata: { name: "sidecar" },
      spec: {
        initContainers: [
          container(
            "proxy",
            { requests: { cpu: "100m" }, limits: { cpu: "300m" } },
            { restartPolicy: "Always" },
          ),
        ],
        containers: two("400m", "400m"),
      },
    });
    expect(sidecar.body.message).toBe(
      'pods "sidecar" is forbidden: maximum cpu usage per Pod is 1, but limit is 1100m',
    );
    const ratio = await api(env, "POST", p, {
      metadata: { name: "pod-ratio" },
      spec: {
        containers: [container("a", { requests: { cpu: "200m" }, limits: { cpu: "1" } })],
      },
    });
    expect(ratio.body.message).toBe(
      'pods "pod-ratio" is forbidden: cpu max limit to request ratio per Pod is 4, but provided ratio is 5.000000',
    );
    const small = await api(env, "POST", p, {
      metadata: { name: "small" },
      spec: {
        containers: [container("a", { requests: { cpu: "100m" }, limits: { cpu: "100m" } })],
      },
    });
    expect(small.body.message).toBe(
      'pods "small" is forbidden: minimum cpu usage per Pod is 200m, but request is 100m',
    );
  });

  it("checks the pod as mutated, not only what the client sent", async () => {
    // The validating half runs after the mutating one: the defaulted limits count in the total.
    const { pods: p } = await limitedNamespace("lr-defaulted", [
      { type: "Container", default: { cpu: "2" } },
      { type: "Pod", max: { cpu: "3" } },
    ]);
    const r = await api(env, "POST", p, {
      metadata: { name: "two-defaulted" },
      spec: { containers: [container("a", {}), container("b", {})] },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'pods "two-defaulted" is forbidden: maximum cpu usage per Pod is 3, but limit is 4',
    );
  });
});

describe("LimitRanger after mutating webhooks", () => {
  it("validates the pod as a mutating webhook left it", async () => {
    // A webhook that raises the first container's cpu limit to 3, as a defaulting webhook could.
    const tls = mintServingCertificate("127.0.0.1");
    const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        const patch = [
          { op: "replace", path: "/spec/containers/0/resources/limits/cpu", value: "3" },
        ];
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            apiVersion: "admission.k8s.io/v1",
            kind: "AdmissionReview",
            response: {
              uid: review.request.uid,
              allowed: true,
              patchType: "JSONPatch",
              patch: Buffer.from(JSON.stringify(patch)).toString("base64"),
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { pods: p } = await limitedNamespace("lr-webhook", [
        { type: "Container", max: { cpu: "2" } },
      ]);
      const config = await api(
        env,
        "POST",
        "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
        {
          metadata: { name: "raise-cpu" },
          webhooks: [
            {
              name: "raise-cpu.example.com",
              admissionReviewVersions: ["v1"],
              sideEffects: "None",
              clientConfig: {
                url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/mutate`,
                caBundle: Buffer.from(tls.caPem).toString("base64"),
              },
              rules: [
                {
                  apiGroups: [""],
                  apiVersions: ["v1"],
                  operations: ["CREATE"],
                  resources: ["pods"],
                },
              ],
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "lr-webhook" } },
            },
          ],
        },
      );
      expect(config.status, config.text).toBe(201);
      const r = await api(env, "POST", p, {
        metadata: { name: "raised" },
        spec: { containers: [container("app", { limits: { cpu: "1" } })] },
      });
      expect(r.status, r.text).toBe(403);
      expect(r.body.message).toBe(
        'pods "raised" is forbidden: maximum cpu usage per Container is 2, but limit is 3',
      );
    } finally {
      await api(
        env,
        "DELETE",
        "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/raise-cpu",
      );
      server.close();
    }
  });
});

describe("LimitRanger for PersistentVolumeClaims", () => {
  const claim = (name: string, storage: string) => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: "lr-pvc" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } },
  });

  it("refuses claims outside min and max, on create and on resize, as kubectl shows", async () => {
    const { claims } = await limitedNamespace("lr-pvc", [
      { type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "10Gi" } },
    ]);
    const small = await kubectl(env, ["apply", "-f", "-"], JSON.stringify(claim("small", "500Mi")));
    expect(small.code).not.toBe(0);
    expect(small.stderr).toContain(
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    );
    const large = await api(env, "POST", claims, claim("large", "20Gi"));
    expect(large.status).toBe(403);
    expect(large.body.message).toBe(
      'persistentvolumeclaims "large" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    const ok = await kubectl(env, ["apply", "-f", "-"], JSON.stringify(claim("data", "5Gi")));
    expect(ok.code, ok.stderr).toBe(0);
    // Only a bound claim may resize at all (ValidatePersistentVolumeClaimUpdate).
    const bound = await api(
      env,
      "PATCH",
      `${claims}/data/status`,
      { status: { phase: "Bound" } },
      { contentType: "application/merge-patch+json" },
    );
    expect(bound.status).toBe(200);
    const grown = await api(
      env,
      "PATCH",
      `${claims}/data`,
      { spec: { resources: { requests: { storage: "11Gi" } } } },
      { contentType: "application/merge-patch+json" },
    );
    expect(grown.status).toBe(403);
    expect(grown.body.message).toBe(
      'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 11Gi',
    );
  });
});

describe("LimitRange validation", () => {
  const q = (value: number, scale: number, s: string, format = "DecimalSI") =>
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"${format}"}`;
  const create = (name: string, limits: object[]) =>
    api(env, "POST", "/api/v1/namespaces/limited/limitranges", {
      metadata: { name },
      spec: { limits },
    });

  it("refuses defaults above max, ratios below 1 and duplicate types, as kube words them", async () => {
    const above = await create("above", [
      { type: "Container", default: { cpu: "2" }, max: { cpu: "1" } },
    ]);
    expect(above.status).toBe(422);
    // The default request defaults to the default limit, so both exceed max.
    expect(above.body.message).toBe(
      `LimitRange "above" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: ${q(2, 0, "2")}: default request value 2 is greater than max value 1, spec.limits[0].default[cpu]: Invalid value: ${q(1, 0, "1")}: default value 2 is greater than max value 1]`,
    );
    const ratio = await create("ratio", [
      { type: "Container", maxLimitRequestRatio: { cpu: "500m" } },
    ]);
    expect(ratio.body.message).toBe(
      `LimitRange "ratio" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: ${q(500, -3, "500m")}: ratio 500m is less than 1`,
    );
    const wide = await create("wide", [
      {
        type: "Pod",
        min: { memory: "1Gi" },
        max: { memory: "2Gi" },
        maxLimitRequestRatio: { memory: "3" },
      },
    ]);
    expect(wide.body.message).toBe(
      `LimitRange "wide" is invalid: spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: ${q(3, 0, "3")}: ratio 3 is greater than max/min = 2.000000`,
    );
    const twice = await create("twice", [
      { type: "Pod", max: { cpu: "2" }, default: { cpu: "1" } },
      { type: "Pod", max: { cpu: "2" } },
      { type: "PersistentVolumeClaim", max: { cpu: "1" } },
      { type: "Node" },
    ]);
    expect(twice.body.message).toBe(
      `LimitRange "twice" is invalid: [spec.limits[0].default: Forbidden: may not be specified when \`type\` is 'Pod', spec.limits[1].type: Duplicate value: "Pod", spec.limits[2].limits: Required value: either minimum or maximum storage value is required, but neither was provided, spec.limits[3].type: Invalid value: "Node": must be a standard limit type or fully qualified]`,
    );
    const names = await create("names", [
      // A Pod item: a Container item would default (and so report) them again.
      { type: "Pod", max: { pods: "1", foo: "1", "example.com/dongle": "1" } },
    ]);
    expect(names.body.message).toBe(
      'LimitRange "names" is invalid: [spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers, spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers]',
    );
    const gpu = await create("gpu", [
      {
        type: "Container",
        default: { "nvidia.com/gpu": "2" },
        defaultRequest: { "nvidia.com/gpu": "1" },
      },
    ]);
    expect(gpu.body.message).toBe(
      `LimitRange "gpu" is invalid: spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: ${q(1, 0, "1")}: default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu`,
    );
  });
});
