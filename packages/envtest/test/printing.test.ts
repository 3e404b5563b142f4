/**
 * kubectl's columns for built-ins, `-o wide` included, and the validation and defaults of the
 * kinds they show (CronJob schedules, Job selectors, HPAs through autoscaling/v1 and v2,
 * immutable roleRefs, Ingress path types).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
});

/** The header and the first row of a `kubectl get` table, split on runs of 2+ spaces. */
async function table(args: string[]): Promise<string[][]> {
  const r = await kubectl(env, ["get", ...args]);
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").map((l) => l.trim().split(/\s{2,}/));
}

describe("kubectl get -o wide", () => {
  it("prints workload, pod and job columns as kube's printers do", async () => {
    await kubectl(env, ["create", "deployment", "web", "--image=nginx:1.27", "--replicas=2"]);
    await kubectl(env, ["create", "job", "once", "--image=busybox"]);
    await eventually(async () => {
      const d = (await api(env, "GET", "/apis/apps/v1/namespaces/default/deployments/web")).body;
      expect(d.status.readyReplicas).toBe(2);
    });
    const [head, row] = await table(["deployment", "web", "-o", "wide"]);
    expect(head).toEqual([
      "NAME",
      "READY",
      "UP-TO-DATE",
      "AVAILABLE",
      "AGE",
      "CONTAINERS",
      "IMAGES",
      "SELECTOR",
    ]);
    expect([row![0], row![1], row![5], row![6], row![7]]).toEqual([
      "web",
      "2/2",
      "nginx",
      "nginx:1.27",
      "app=web",
    ]);
    const [rsHead] = await table(["replicasets", "-o", "wide"]);
    expect(rsHead).toEqual([
      "NAME",
      "DESIRED",
      "CURRENT",
      "READY",
      "AGE",
      "CONTAINERS",
      "IMAGES",
      "SELECTOR",
    ]);
    const [podHead, podRow] = await table(["pods", "-l", "app=web", "-o", "wide"]);
    // IP is the first of status.podIPs, NODE the bound node; nobody is nominated or gated.
    expect(podRow!.slice(5)).toEqual([
      expect.stringMatching(/^10\.244\.0\.\d+$/),
      "envtest-node",
      "<none>",
      "<none>",
    ]);
    expect(podHead).toEqual([
      "NAME",
      "READY",
      "STATUS",
      "RESTARTS",
      "AGE",
      "IP",
      "NODE",
      "NOMINATED NODE",
      "READINESS GATES",
    ]);

    await eventually(async () => {
      const [jobHead, jobRow] = await table(["job", "once", "-o", "wide"]);
      expect(jobHead).toEqual([
        "NAME",
        "STATUS",
        "COMPLETIONS",
        "DURATION",
        "AGE",
        "CONTAINERS",
        "IMAGES",
        "SELECTOR",
      ]);
      expect(jobRow!.slice(0, 3)).toEqual(["once", "Complete", "1/1"]);
      expect(jobRow![7]).toMatch(/^batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/);
    });
    const pods = await kubectl(env, ["get", "pods", "-l", "job-name=once", "--no-headers"]);
    expect(pods.stdout.split(/\s+/)[2]).toBe("Completed");
  });

  it("prints budgets, bindings and service accounts", async () => {
    await kubectl(env, ["create", "pdb", "web", "--selector=app=web", "--max-unavailable=1"]);
    const [pdbHead, pdbRow] = await table(["pdb", "web"]);
    expect(pdbHead).toEqual([
      "NAME",
      "MIN AVAILABLE",
      "MAX UNAVAILABLE",
      "ALLOWED DISRUPTIONS",
      "AGE",
    ]);
    expect(pdbRow!.slice(0, 3)).toEqual(["web", "N/A", "1"]);
    await kubectl(env, [
      "create",
      "rolebinding",
      "rb",
      "--clusterrole=view",
      "--user=bob",
      "--serviceaccount=default:default",
    ]);
    const [rbHead, rbRow] = await table(["rolebinding", "rb", "-o", "wide"]);
    expect(rbHead).toEqual(["NAME", "ROLE", "AGE", "USERS", "GROUPS", "SERVICEACCOUNTS"]);
    expect([rbRow![0], rbRow![1], rbRow![3], rbRow![4]]).toEqual([
      "rb",
      "ClusterRole/view",
      "bob",
      "default/default",
    ]);
    const [saHead] = await table(["serviceaccount", "default"]);
    expect(saHead).toEqual(["NAME", "SECRETS", "AGE"]);
  });
});

describe("CronJobs and Jobs", () => {
  it("parses schedules as kube does and defaults the rest", async () => {
    const bad = await kubectl(env, [
      "create",
      "cronjob",
      "bad",
      "--image=busybox",
      "--schedule=*/5 * * *",
    ]);
    expect(bad.stderr).toBe(
      'error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]',
    );
    const range = await kubectl(env, [
      "create",
      "cronjob",
      "bad",
      "--image=busybox",
      "--schedule=61 * * * *",
    ]);
    expect(range.stderr).toContain(
      'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    );
    const tz = await kubectl(env, [
      "create",
      "cronjob",
      "bad",
      "--image=busybox",
      "--schedule=TZ=UTC 0 * * * *",
    ]);
    expect(tz.stderr).toContain("cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
    for (const schedule of [
      "@hourly",
      "*/15 9-17 * JAN-MAR mon-fri",
      "@every 1h30m",
      "0 0 ? * SUN",
    ]) {
      const ok = await kubectl(env, [
        "create",
        "cronjob",
        `ok-${Math.abs(hash(schedule))}`,
        "--image=busybox",
        `--schedule=${schedule}`,
      ]);
      expect(ok.stderr, schedule).toBe("");
    }
    const cj = (
      await api(
        env,
        "GET",
        `/apis/batch/v1/namespaces/default/cronjobs/ok-${Math.abs(hash("@hourly"))}`,
      )
    ).body;
    expect(cj.spec).toMatchObject({
      concurrencyPolicy: "Allow",
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(cj.spec.jobTemplate.spec.template.spec).toMatchObject({
      dnsPolicy: "ClusterFirst",
      schedulerName: "default-scheduler",
    });
    const [head] = await table(["cronjobs", "-o", "wide"]);
    expect(head).toEqual([
      "NAME",
      "SCHEDULE",
      "TIMEZONE",
      "SUSPEND",
      "ACTIVE",
      "LAST SCHEDULE",
      "AGE",
      "CONTAINERS",
      "IMAGES",
      "SELECTOR",
    ]);
  });
});

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h % 100000;
}

describe("HorizontalPodAutoscalers", () => {
  it("serves autoscaling/v1 (kubectl autoscale) and v2 on one object", async () => {
    const r = await kubectl(env, ["autoscale", "deployment", "web", "--max=5", "--cpu-percent=60"]);
    expect(r.stdout).toBe("horizontalpodautoscaler.autoscaling/web autoscaled");
    const v1 = (
      await api(env, "GET", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web")
    ).body;
    expect(v1.spec).toEqual({
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 60,
    });
    const v2 = (
      await api(env, "GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web")
    ).body;
    expect(v2.spec.metrics).toEqual([
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 60 } },
      },
    ]);
    const [head, row] = await table(["hpa", "web"]);
    expect(head).toEqual(["NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"]);
    expect(row!.slice(0, 5)).toEqual(["web", "Deployment/web", "cpu: <unknown>/60%", "1", "5"]);

    // A metric v1 cannot say survives a round trip through v1.
    await api(env, "POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", {
      metadata: { name: "mem" },
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
        maxReplicas: 3,
        metrics: [
          {
            type: "Resource",
            resource: { name: "memory", target: { type: "AverageValue", averageValue: "100Mi" } },
          },
        ],
      },
    });
    const asV1 = (
      await api(env, "GET", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/mem")
    ).body;
    expect(asV1.spec).not.toHaveProperty("targetCPUUtilizationPercentage");
    const put = await api(
      env,
      "PUT",
      "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/mem",
      { ...asV1, spec: { ...asV1.spec, maxReplicas: 4 } },
    );
    expect(put.status).toBe(200);
    const back = (
      await api(env, "GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/mem")
    ).body;
    expect(back.spec).toMatchObject({
      maxReplicas: 4,
      metrics: [{ resource: { name: "memory" } }],
    });
    expect(back.metadata.annotations ?? {}).toEqual({});
  });
});

describe("immutable and required fields", () => {
  it("refuses a changed roleRef and an Ingress path without a pathType", async () => {
    const rb = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/rb";
    const r = await api(
      env,
      "PATCH",
      rb,
      { roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    const ing = await api(env, "POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", {
      metadata: { name: "i" },
      spec: {
        rules: [
          {
            http: {
              paths: [{ path: "/", backend: { service: { name: "web", port: { number: 80 } } } }],
            },
          },
        ],
      },
    });
    expect(ing.status).toBe(422);
    expect(ing.body.message).toBe(
      'Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
    );
  });
});
