/**
 * ResourceQuota as kube-apiserver 1.32's admission plugin enforces it and kube-controller-manager's
 * resourcequota controller reports it, driven through the real kubectl where a user would be.
 */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../src/api/types.js";
import { mintServingCertificate, startTestEnv, type TestEnv } from "../src/index.js";
import {
  type Evaluator,
  evaluatorFor,
  evaluatorsTracking,
  podCharged,
} from "../src/rest/quota/evaluators.js";
import { toJson } from "../src/rest/quota/resource-list.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

/** A fresh namespace for one test. */
async function namespace(name: string): Promise<string> {
  const r = await kubectl(env, ["create", "namespace", name]);
  expect(r.code, r.stderr).toBe(0);
  return name;
}

async function k(ns: string, ...args: string[]) {
  return kubectl(env, ["-n", ns, ...args]);
}

/** The quota's status once the controller has caught up with `used`. */
async function statusOf(ns: string, name: string) {
  const r = await api(env, "GET", `/api/v1/namespaces/${ns}/resourcequotas/${name}`);
  return r.body.status;
}

const withResources = (name: string, resources: object) =>
  JSON.stringify({ spec: { containers: [{ name, image: "nginx", resources }] } });

describe("pods", () => {
  it("charges pods and their requests, refuses what exceeds the quota, frees terminal pods", async () => {
    const ns = await namespace("quota-pods");
    const create = await k(
      ns,
      "create",
      "quota",
      "compute",
      "--hard=pods=2,requests.cpu=1,limits.memory=1Gi",
    );
    expect(create.stdout).toBe("resourcequota/compute created");
    // The controller fills status at once: hard from spec, used counted.
    expect(await statusOf(ns, "compute")).toEqual({
      hard: { "limits.memory": "1Gi", pods: "2", "requests.cpu": "1" },
      used: { "limits.memory": "0", pods: "0", "requests.cpu": "0" },
    });

    // A quota on cpu or memory makes every container state it.
    const bare = await k(ns, "run", "bare", "--image=nginx");
    expect(bare.stderr).toBe(
      'Error from server (Forbidden): pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: bare; requests.cpu for: bare',
    );

    const small = { requests: { cpu: "600m" }, limits: { memory: "512Mi" } };
    const a = await k(ns, "run", "a", "--image=nginx", `--overrides=${withResources("a", small)}`);
    expect(a.stdout).toBe("pod/a created");
    const b = await k(ns, "run", "b", "--image=nginx", `--overrides=${withResources("b", small)}`);
    expect(b.stderr).toBe(
      'Error from server (Forbidden): pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
    // Several resources over at once are listed sorted, each `name=value`.
    const big = { requests: { cpu: "500m" }, limits: { memory: "1Gi" } };
    const c = await k(ns, "run", "c", "--image=nginx", `--overrides=${withResources("c", big)}`);
    expect(c.stderr).toBe(
      'Error from server (Forbidden): pods "c" is forbidden: exceeded quota: compute, requested: limits.memory=1Gi,requests.cpu=500m, used: limits.memory=512Mi,requests.cpu=600m, limited: limits.memory=1Gi,requests.cpu=1',
    );

    const get = await k(ns, "get", "quota");
    expect(get.stdout.split("\n")[0]).toMatch(/^NAME\s+REQUEST\s+LIMIT\s+AGE$/);
    expect(get.stdout.split("\n")[1]).toMatch(
      /^compute\s+pods: 1\/2, requests\.cpu: 600m\/1\s+limits\.memory: 512Mi\/1Gi\s+\d+s$/,
    );
    const describe = await k(ns, "describe", "quota", "compute");
    expect(describe.stdout).toBe(
      [
        "Name:          compute",
        `Namespace:     ${ns}`,
        "Resource       Used   Hard",
        "--------       ----   ----",
        "limits.memory  512Mi  1Gi",
        "pods           1      2",
        "requests.cpu   600m   1",
      ].join("\n"),
    );

    // A pod that reached a terminal phase no longer uses compute resources (count/pods would).
    const done = await api(
      env,
      "PATCH",
      `/api/v1/namespaces/${ns}/pods/a/status`,
      {
        status: { phase: "Succeeded" },
      },
      { contentType: "application/merge-patch+json" },
    );
    expect(done.status, done.text).toBe(200);
    expect((await statusOf(ns, "compute")).used).toEqual({
      "limits.memory": "0",
      pods: "0",
      "requests.cpu": "0",
    });
    const again = await k(
      ns,
      "run",
      "b",
      "--image=nginx",
      `--overrides=${withResources("b", small)}`,
    );
    expect(again.stdout).toBe("pod/b created");
    expect((await statusOf(ns, "compute")).used).toEqual({
      "limits.memory": "512Mi",
      pods: "1",
      "requests.cpu": "600m",
    });
    // The status is kube-controller-manager's write. Compared as a set: kube orders entries of
    // one operation by their second before their manager (sortEncodedManagedFields), so the
    // order depends on whether the two writes fell in one second.
    const q = await api(env, "GET", `/api/v1/namespaces/${ns}/resourcequotas/compute`);
    expect(
      q.body.metadata.managedFields
        .map(
          (f: { manager: string; subresource?: string }) => `${f.manager} ${f.subresource ?? ""}`,
        )
        .sort(),
    ).toEqual(["kube-controller-manager status", "kubectl-create "]);

    // Deleting a pod gives its share back.
    expect((await k(ns, "delete", "pod", "b")).code).toBe(0);
    expect((await statusOf(ns, "compute")).used.pods).toBe("0");
  });

  it("charges dry-run creates without persisting them", async () => {
    const ns = await namespace("quota-dry-run");
    await k(ns, "create", "quota", "one", "--hard=pods=1");
    const dry = await k(ns, "run", "a", "--image=nginx", "--dry-run=server");
    expect(dry.stdout).toBe("pod/a created (server dry run)");
    expect((await statusOf(ns, "one")).used).toEqual({ pods: "0" });
    expect((await k(ns, "run", "a", "--image=nginx")).code).toBe(0);
    const over = await k(ns, "run", "b", "--image=nginx", "--dry-run=server");
    expect(over.stderr).toBe(
      'Error from server (Forbidden): pods "b" is forbidden: exceeded quota: one, requested: pods=1, used: pods=1, limited: pods=1',
    );
  });

  it("admits no more than the quota allows when creates race past a slow webhook", async () => {
    const ns = await namespace("quota-race");
    await k(ns, "create", "quota", "three", "--hard=pods=3");
    // A validating webhook that answers only once all twelve creates are waiting on it: kube
    // checks quota after the validating webhooks, so the twelve meet the quota one by one.
    const racing = 12;
    const waiting: (() => void)[] = [];
    const tls = mintServingCertificate("127.0.0.1");
    const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        waiting.push(() => {
          res.setHeader("Content-Type", "application/json");
          res.end(
            JSON.stringify({
              apiVersion: "admission.k8s.io/v1",
              kind: "AdmissionReview",
              response: { uid: review.request.uid, allowed: true },
            }),
          );
        });
        if (waiting.length === racing) for (const answer of waiting) answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const webhooks = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    try {
      const config = await api(env, "POST", webhooks, {
        metadata: { name: "quota-race" },
        webhooks: [
          {
            name: "hold.quota.example.com",
            admissionReviewVersions: ["v1"],
            sideEffects: "None",
            clientConfig: {
              url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
              caBundle: Buffer.from(tls.caPem).toString("base64"),
            },
            rules: [
              { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"] },
            ],
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
          },
        ],
      });
      expect(config.status, config.text).toBe(201);
      const results = await Promise.all(
        Array.from({ length: racing }, (_, i) =>
          api(env, "POST", `/api/v1/namespaces/${ns}/pods`, {
            metadata: { name: `p${i}` },
            spec: { containers: [{ name: "app", image: "nginx" }] },
          }),
        ),
      );
      const codes = results.map((r) => r.status).sort();
      expect(codes).toEqual([201, 201, 201, ...Array(racing - 3).fill(403)]);
      expect((await statusOf(ns, "three")).used).toEqual({ pods: "3" });
    } finally {
      await api(env, "DELETE", `${webhooks}/quota-race`);
      server.close();
    }
  });

  it("applies scopes and scope selectors to the pods they select", async () => {
    const ns = await namespace("quota-scopes");
    await k(ns, "create", "quota", "besteffort", "--hard=pods=1", "--scopes=BestEffort");
    expect((await k(ns, "run", "be1", "--image=nginx")).code).toBe(0);
    const be2 = await k(ns, "run", "be2", "--image=nginx");
    expect(be2.stderr).toBe(
      'Error from server (Forbidden): pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1',
    );
    // A Burstable pod is outside the BestEffort scope.
    const burst = await k(
      ns,
      "run",
      "burst",
      "--image=nginx",
      `--overrides=${withResources("burst", { requests: { cpu: "100m" } })}`,
    );
    expect(burst.stdout).toBe("pod/burst created");
    expect((await statusOf(ns, "besteffort")).used).toEqual({ pods: "1" });

    // Terminating: pods with an active deadline; NotTerminating: the others.
    await k(ns, "create", "quota", "deadline", "--hard=pods=1", "--scopes=Terminating");
    const job = (name: string) =>
      JSON.stringify({
        spec: {
          activeDeadlineSeconds: 60,
          containers: [{ name, image: "nginx", resources: { requests: { cpu: "10m" } } }],
        },
      });
    expect((await k(ns, "run", "t1", "--image=nginx", `--overrides=${job("t1")}`)).code).toBe(0);
    const t2 = await k(ns, "run", "t2", "--image=nginx", `--overrides=${job("t2")}`);
    expect(t2.stderr).toBe(
      'Error from server (Forbidden): pods "t2" is forbidden: exceeded quota: deadline, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect((await statusOf(ns, "deadline")).used).toEqual({ pods: "1" });

    // A PriorityClass selector counts only the pods of the named classes.
    await kubectl(env, ["create", "priorityclass", "quota-high", "--value=1000"]);
    const manifest = {
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "high", namespace: ns },
      spec: {
        hard: { pods: "1" },
        scopeSelector: {
          matchExpressions: [
            { scopeName: "PriorityClass", operator: "In", values: ["quota-high"] },
          ],
        },
      },
    };
    expect((await kubectl(env, ["apply", "-f", "-"], JSON.stringify(manifest))).code).toBe(0);
    const prio = (name: string) =>
      JSON.stringify({
        spec: {
          priorityClassName: "quota-high",
          containers: [{ name, image: "nginx", resources: { requests: { cpu: "10m" } } }],
        },
      });
    expect((await k(ns, "run", "p1", "--image=nginx", `--overrides=${prio("p1")}`)).code).toBe(0);
    const p2 = await k(ns, "run", "p2", "--image=nginx", `--overrides=${prio("p2")}`);
    expect(p2.stderr).toBe(
      'Error from server (Forbidden): pods "p2" is forbidden: exceeded quota: high, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect((await statusOf(ns, "high")).used).toEqual({ pods: "1" });
    const describe = await k(ns, "describe", "quota", "besteffort");
    expect(describe.stdout).toContain("Scopes:     BestEffort");
  });
});

describe("object counts", () => {
  it("counts services, node ports, configmaps and any resource by count/<resource>.<group>", async () => {
    const ns = await namespace("quota-counts");
    await k(
      ns,
      "create",
      "quota",
      "objects",
      "--hard=services.nodeports=1,configmaps=2,count/deployments.apps=1",
    );
    // Every namespace holds kube-root-ca.crt already.
    expect((await statusOf(ns, "objects")).used).toEqual({
      configmaps: "1",
      "count/deployments.apps": "0",
      "services.nodeports": "0",
    });
    expect((await k(ns, "create", "configmap", "a")).code).toBe(0);
    const cm = await k(ns, "create", "configmap", "b");
    expect(cm.stderr).toBe(
      'error: failed to create configmap: configmaps "b" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
    );
    expect((await k(ns, "create", "deployment", "web", "--image=nginx")).code).toBe(0);
    const dep = await k(ns, "create", "deployment", "api", "--image=nginx");
    expect(dep.stderr).toBe(
      'error: failed to create deployment: deployments.apps "api" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );

    expect((await k(ns, "create", "service", "nodeport", "np", "--tcp=80:80")).code).toBe(0);
    // A ClusterIP Service uses no node port; turning it into a NodePort one is charged.
    expect((await k(ns, "create", "service", "clusterip", "web", "--tcp=80:80")).code).toBe(0);
    const patch = await k(ns, "patch", "service", "web", "-p", '{"spec":{"type":"NodePort"}}');
    expect(patch.stderr).toBe(
      'Error from server (Forbidden): services "web" is forbidden: exceeded quota: objects, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1',
    );
    expect((await statusOf(ns, "objects")).used).toEqual({
      configmaps: "2",
      "count/deployments.apps": "1",
      "services.nodeports": "1",
    });
  });

  it("counts custom resources by count/<plural>.<group>", async () => {
    const ns = await namespace("quota-custom");
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.quota.example.com" },
      spec: {
        group: "quota.example.com",
        names: { plural: "widgets", singular: "widget", kind: "Widget" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          },
        ],
      },
    };
    expect((await kubectl(env, ["apply", "-f", "-"], JSON.stringify(crd))).code).toBe(0);
    const established = await kubectl(env, [
      "wait",
      "--for=condition=Established",
      "crd/widgets.quota.example.com",
    ]);
    expect(established.code, established.stderr).toBe(0);
    await k(ns, "create", "quota", "widgets", "--hard=count/widgets.quota.example.com=1");
    const widget = (name: string) =>
      JSON.stringify({ apiVersion: "quota.example.com/v1", kind: "Widget", metadata: { name } });
    const first = await kubectl(env, ["-n", ns, "create", "-f", "-"], widget("a"));
    expect(first.stdout).toBe("widget.quota.example.com/a created");
    const second = await kubectl(env, ["-n", ns, "create", "-f", "-"], widget("b"));
    expect(second.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": widgets.quota.example.com "b" is forbidden: exceeded quota: widgets, requested: count/widgets.quota.example.com=1, used: count/widgets.quota.example.com=1, limited: count/widgets.quota.example.com=1',
    );
    expect((await statusOf(ns, "widgets")).used).toEqual({
      "count/widgets.quota.example.com": "1",
    });
  });

  it("charges claims' storage, per storage class too", async () => {
    const ns = await namespace("quota-storage");
    await k(
      ns,
      "create",
      "quota",
      "storage",
      "--hard=requests.storage=1Gi,fast.storageclass.storage.k8s.io/persistentvolumeclaims=1",
    );
    const claim = (name: string, size: string, cls?: string) =>
      api(env, "POST", `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
        metadata: { name },
        spec: {
          accessModes: ["ReadWriteOnce"],
          resources: { requests: { storage: size } },
          ...(cls ? { storageClassName: cls } : {}),
        },
      });
    expect((await claim("a", "600Mi", "fast")).status).toBe(201);
    const b = await claim("b", "600Mi");
    expect(b.status).toBe(403);
    expect(b.body.message).toBe(
      'persistentvolumeclaims "b" is forbidden: exceeded quota: storage, requested: requests.storage=600Mi, used: requests.storage=600Mi, limited: requests.storage=1Gi',
    );
    const c = await claim("c", "100Mi", "fast");
    expect(c.body.message).toBe(
      'persistentvolumeclaims "c" is forbidden: exceeded quota: storage, requested: fast.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: fast.storageclass.storage.k8s.io/persistentvolumeclaims=1, limited: fast.storageclass.storage.k8s.io/persistentvolumeclaims=1',
    );
    expect((await claim("d", "100Mi")).status).toBe(201);
    expect((await statusOf(ns, "storage")).used).toEqual({
      "fast.storageclass.storage.k8s.io/persistentvolumeclaims": "1",
      "requests.storage": "700Mi",
    });
    // Growing a bound claim is charged the increase.
    const patch = (path: string, body: object) =>
      api(env, "PATCH", `/api/v1/namespaces/${ns}/persistentvolumeclaims/${path}`, body, {
        contentType: "application/merge-patch+json",
      });
    expect((await patch("a/status", { status: { phase: "Bound" } })).status).toBe(200);
    expect((await patch("a", { spec: { volumeName: "pv-a" } })).status).toBe(200);
    const grow = await patch("a", { spec: { resources: { requests: { storage: "1Gi" } } } });
    expect(grow.status).toBe(403);
    expect(grow.body.message).toBe(
      'persistentvolumeclaims "a" is forbidden: exceeded quota: storage, requested: requests.storage=424Mi, used: requests.storage=700Mi, limited: requests.storage=1Gi',
    );
    const fits = await patch("a", { spec: { resources: { requests: { storage: "900Mi" } } } });
    expect(fits.status, fits.text).toBe(200);
    expect((await statusOf(ns, "storage")).used["requests.storage"]).toBe("1000Mi");
  });
});

describe("validation", () => {
  it("refuses unknown resources, fractional counts, negative amounts and bad scopes", async () => {
    const ns = await namespace("quota-validation");
    const bad = await k(ns, "create", "quota", "bad", "--hard=foo=1,pods=1.5,cpu=-1");
    expect(bad.stderr).toBe(
      'error: failed to create quota: ResourceQuota "bad" is invalid: [spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0, spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota, spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}: must be an integer]',
    );
    const scopes = await k(
      ns,
      "create",
      "quota",
      "scopes",
      "--hard=cpu=1",
      "--scopes=BestEffort,NotBestEffort",
    );
    expect(scopes.stderr).toBe(
      'error: failed to create quota: ResourceQuota "scopes" is invalid: [spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource, spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes]',
    );
    const selector = await api(env, "POST", `/api/v1/namespaces/${ns}/resourcequotas`, {
      metadata: { name: "selector" },
      spec: {
        hard: { pods: "1" },
        scopeSelector: {
          matchExpressions: [{ scopeName: "Terminating", operator: "In", values: ["x"] }],
        },
      },
    });
    expect(selector.body.message).toBe(
      'ResourceQuota "selector" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
    );
    // Scopes may not change.
    await k(ns, "create", "quota", "scoped", "--hard=pods=1", "--scopes=Terminating");
    const change = await k(
      ns,
      "patch",
      "quota",
      "scoped",
      "-p",
      '{"spec":{"scopes":["NotTerminating"]}}',
    );
    expect(change.stderr).toBe(
      'The ResourceQuota "scoped" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotTerminating"}: field is immutable',
    );
  });
});

describe("evaluators", () => {
  const usage = (e: Evaluator, o: object, now = Date.now()) =>
    toJson(e.usage(o as KubeObject, now));
  const pods = evaluatorFor("", "pods");

  it("charge a pod its effective requests and limits, hugepages, extended resources and overhead", () => {
    const pod = {
      metadata: { name: "p" },
      spec: {
        overhead: { cpu: "50m", memory: "10Mi" },
        initContainers: [
          { name: "init", resources: { requests: { cpu: "500m" } } },
          {
            name: "sidecar",
            restartPolicy: "Always",
            resources: { requests: { cpu: "100m" }, limits: { cpu: "100m" } },
          },
        ],
        containers: [
          {
            name: "app",
            resources: {
              requests: { cpu: "100m", "hugepages-2Mi": "4Mi", "example.com/gpu": "2" },
              limits: { cpu: "1", "hugepages-2Mi": "4Mi", "example.com/gpu": "2" },
            },
          },
        ],
      },
    };
    // Containers and sidecar (200m) against the init step (500m), plus 50m overhead; the
    // overhead raises the cpu limit but adds no memory limit the pod does not have.
    expect(usage(pods, pod)).toEqual({
      "count/pods": "1",
      cpu: "550m",
      "hugepages-2Mi": "4Mi",
      "limits.cpu": "1150m",
      memory: "10Mi",
      pods: "1",
      "requests.cpu": "550m",
      "requests.example.com/gpu": "2",
      "requests.hugepages-2Mi": "4Mi",
      "requests.memory": "10Mi",
    });
    const terminal = { ...pod, status: { phase: "Failed" } };
    expect(usage(pods, terminal)).toEqual({ "count/pods": "1" });
    // A pod whose deletion is overdue by its grace period is no longer charged.
    const deleting = (at: number) => ({
      ...pod,
      metadata: {
        name: "p",
        deletionTimestamp: new Date(at).toISOString(),
        deletionGracePeriodSeconds: 30,
      },
    });
    const now = Date.now();
    expect(podCharged(deleting(now - 10_000) as KubeObject, now)).toBe(true);
    expect(podCharged(deleting(now - 31_000) as KubeObject, now)).toBe(false);
  });

  it("name every container missing a value a cpu or memory quota requires", () => {
    const pod = {
      spec: {
        initContainers: [{ name: "init" }],
        containers: [
          { name: "b", resources: { requests: { cpu: "1" } } },
          { name: "a", resources: { limits: { memory: "1Gi" } } },
        ],
      },
    } as KubeObject;
    expect(pods.constraints(["requests.cpu", "limits.memory", "pods"], pod)).toBe(
      "must specify limits.memory for: b,init; requests.cpu for: a,init",
    );
    expect(pods.constraints(["pods", "requests.storage"], pod)).toBeUndefined();
  });

  it("match pods to scopes as kube's scope functions do", () => {
    const pod = (spec: object) =>
      ({ spec: { containers: [{ name: "c" }], ...spec } }) as KubeObject;
    const prio = (operator: string, values?: string[]) => ({
      scopeName: "PriorityClass",
      operator,
      ...(values ? { values } : {}),
    });
    const none = pod({});
    const high = pod({ priorityClassName: "high" });
    expect(pods.matchesScope(prio("NotIn", ["high"]), none)).toBe(true);
    expect(pods.matchesScope(prio("NotIn", ["high"]), high)).toBe(false);
    expect(pods.matchesScope(prio("In", ["high"]), high)).toBe(true);
    expect(pods.matchesScope(prio("DoesNotExist"), none)).toBe(true);
    expect(pods.matchesScope(prio("Exists"), none)).toBe(false);
    const cross = pod({
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, podAffinityTerm: { topologyKey: "x", namespaceSelector: {} } },
          ],
        },
      },
    });
    const scope = { scopeName: "CrossNamespacePodAffinity", operator: "Exists" };
    expect(pods.matchesScope(scope, cross)).toBe(true);
    expect(pods.matchesScope(scope, none)).toBe(false);
    // A pod not yet classified is BestEffort without cpu or memory values.
    expect(pods.matchesScope({ scopeName: "BestEffort", operator: "Exists" }, none)).toBe(true);
  });

  it("charge Services their node ports and claims whole bytes of their largest storage", () => {
    const lb = {
      spec: {
        type: "LoadBalancer",
        allocateLoadBalancerNodePorts: false,
        ports: [{ port: 80, nodePort: 30080 }, { port: 443 }],
      },
    };
    expect(usage(evaluatorFor("", "services"), lb)).toEqual({
      "count/services": "1",
      services: "1",
      "services.loadbalancers": "1",
      "services.nodeports": "1",
    });
    const claim = {
      metadata: { annotations: { "volume.beta.kubernetes.io/storage-class": "gold" } },
      spec: { storageClassName: "ignored", resources: { requests: { storage: "1.5" } } },
    };
    expect(usage(evaluatorFor("", "persistentvolumeclaims"), claim)).toEqual({
      "count/persistentvolumeclaims": "1",
      "gold.storageclass.storage.k8s.io/persistentvolumeclaims": "1",
      "gold.storageclass.storage.k8s.io/requests.storage": "2",
      persistentvolumeclaims: "1",
      "requests.storage": "2",
    });
    const grown = { ...claim, status: { allocatedResources: { storage: "1Gi" } } };
    expect(usage(evaluatorFor("", "persistentvolumeclaims"), grown)["requests.storage"]).toBe(
      "1Gi",
    );
  });

  it("track count/ names of namespaced served resources only", () => {
    const served = (group: string, resource: string) =>
      `${group}/${resource}` === "apps/deployments";
    const tracked = evaluatorsTracking(
      ["count/deployments.apps", "count/nodes", "secrets", "requests.cpu"],
      served,
    )
      .map((e) => `${e.group}/${e.resource}`)
      .sort();
    expect(tracked).toEqual(["/pods", "/secrets", "apps/deployments"]);
  });
});
