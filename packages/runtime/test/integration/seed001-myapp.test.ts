/**
 * Seed 001 ("production level" MyApp) ported to the runtime: a Deployment, a Service and (when
 * autoscaling is on) an HPA per MyApp, all controlled by it; Progressing/Ready/Degraded
 * conditions; status mirrored from the Deployment; RequeueAfter to poll readiness (the seed
 * filters owned-object events with GenerationChanged, so status changes of the Deployment arrive
 * by polling). createOrUpdate replaces the seed's Get/DeepEqual/Update, owning only the fields it
 * sets, so a steady state makes no writes; lastUpdateTime moves only when the status does.
 */
import type { V1Deployment, V1Service, V2HorizontalPodAutoscaler } from "@kubernetes/client-node";
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createOrUpdate,
  findStatusCondition,
  generationChanged,
  ignoreNotFound,
  isStatusConditionTrue,
  kinds,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  removeStatusCondition,
  semanticEqual,
  setControllerReference,
  setStatusCondition,
  timeNow,
} from "../../src/index.js";
import { type MyApp, MyAppKind, namespace, newManager, run, startEnv } from "./helpers.js";

const labelsFor = (name: string) => ({
  "app.kubernetes.io/name": "myapp",
  "app.kubernetes.io/instance": name,
  "app.kubernetes.io/managed-by": "myapp-operator",
});

class MyAppReconciler implements Reconciler {
  constructor(
    private readonly client: Client,
    private readonly pollMs = 30_000,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const myApp = await this.client.get(MyAppKind, req).catch(ignoreNotFound);
    if (!myApp) {
      ctx.log.info("MyApp resource not found. Ignoring since object must be deleted");
      return {};
    }
    const generation = myApp.metadata?.generation;
    myApp.status ??= {};
    if (!myApp.status.conditions?.length) {
      myApp.status.conditions = [];
      setStatusCondition(myApp.status.conditions, {
        type: "Progressing",
        status: "True",
        reason: "Reconciling",
        message: "Starting reconciliation",
        observedGeneration: generation,
      });
      await this.client.status().update(myApp);
    }
    const steps: Array<[string, () => Promise<unknown>]> = [
      ["Deployment", () => this.reconcileDeployment(myApp)],
      ["Service", () => this.reconcileService(myApp)],
      [
        "HPA",
        () => (myApp.spec.autoScaling?.enabled ? this.reconcileHPA(myApp) : this.deleteHPA(myApp)),
      ],
    ];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (err) {
        ctx.log.error(`Failed to reconcile ${what}`, err);
        setStatusCondition(myApp.status.conditions!, {
          type: "Degraded",
          status: "True",
          reason: "ReconcileError",
          message: `Failed to reconcile ${what}: ${(err as Error).message}`,
          observedGeneration: generation,
        });
        await this.client
          .status()
          .update(myApp)
          .catch((e) => ctx.log.error("Failed to update MyApp status", e));
        throw err;
      }
    }
    await this.updateStatus(myApp);
    return { requeueAfterMs: this.pollMs };
  }

  private reconcileDeployment(myApp: MyApp) {
    const { name, namespace } = myApp.metadata!;
    const labels = labelsFor(name!);
    const deployment: V1Deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name, namespace },
    };
    return createOrUpdate(this.client, deployment, (d) => {
      d.metadata!.labels = { ...d.metadata!.labels, ...labels };
      const autoscaled = myApp.spec.autoScaling?.enabled;
      d.spec ??= { selector: {}, template: {} };
      // With an HPA, the HPA owns replicas.
      if (!autoscaled) d.spec.replicas = myApp.spec.replicas ?? 1;
      d.spec.selector = { matchLabels: labels };
      d.spec.template.metadata = { ...d.spec.template.metadata, labels };
      d.spec.template.spec ??= { containers: [] };
      const containers = d.spec.template.spec.containers;
      let app = containers.find((c) => c.name === "app");
      if (!app) {
        app = { name: "app" };
        containers.push(app);
      }
      app.image = myApp.spec.image;
      app.ports = [{ name: "http", containerPort: myApp.spec.port ?? 8080, protocol: "TCP" }];
      app.env = myApp.spec.env?.length ? myApp.spec.env : undefined;
      app.resources = myApp.spec.resources ?? app.resources;
      setControllerReference(myApp, d);
    });
  }

  private reconcileService(myApp: MyApp) {
    const { name, namespace } = myApp.metadata!;
    const labels = labelsFor(name!);
    const service: V1Service = { apiVersion: "v1", kind: "Service", metadata: { name, namespace } };
    return createOrUpdate(this.client, service, (s) => {
      s.metadata!.labels = { ...s.metadata!.labels, ...labels };
      s.spec ??= {};
      // clusterIP is immutable and assigned by the server: leave it alone.
      s.spec.type = myApp.spec.serviceType ?? "ClusterIP";
      s.spec.selector = labels;
      s.spec.ports = [
        {
          name: "http",
          port: myApp.spec.port ?? 8080,
          targetPort: "http" as never,
          protocol: "TCP",
        },
      ];
      setControllerReference(myApp, s);
    });
  }

  private reconcileHPA(myApp: MyApp) {
    const { name, namespace } = myApp.metadata!;
    const as = myApp.spec.autoScaling!;
    const hpa: V2HorizontalPodAutoscaler = {
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name, namespace },
    };
    return createOrUpdate(this.client, hpa, (h) => {
      h.metadata!.labels = { ...h.metadata!.labels, ...labelsFor(name!) };
      h.spec = {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: name! },
        minReplicas: as.minReplicas ?? 1,
        maxReplicas: as.maxReplicas,
        metrics: [
          {
            type: "Resource",
            resource: {
              name: "cpu",
              target: {
                type: "Utilization",
                averageUtilization: as.targetCPUUtilizationPercentage ?? 80,
              },
            },
          },
        ],
      };
      setControllerReference(myApp, h);
    });
  }

  private async deleteHPA(myApp: MyApp) {
    const key = { namespace: myApp.metadata!.namespace, name: myApp.metadata!.name! };
    const hpa = await this.client.get(kinds.HorizontalPodAutoscaler, key).catch(ignoreNotFound);
    if (hpa) await this.client.delete(hpa).catch(ignoreNotFound);
  }

  private async updateStatus(myApp: MyApp) {
    const key = { namespace: myApp.metadata!.namespace, name: myApp.metadata!.name! };
    const deployment = await this.client.get(kinds.Deployment, key);
    const before = structuredClone(myApp.status ?? {});
    const status = myApp.status!;
    const ready = deployment.status?.readyReplicas ?? 0;
    const want = deployment.spec?.replicas ?? 1;
    status.readyReplicas = ready;
    status.availableReplicas = deployment.status?.availableReplicas ?? 0;
    status.observedGeneration = myApp.metadata?.generation;
    status.conditions ??= [];
    if (ready === want && ready > 0) {
      setStatusCondition(status.conditions, {
        type: "Ready",
        status: "True",
        reason: "DeploymentReady",
        message: "All replicas are ready",
        observedGeneration: myApp.metadata?.generation,
      });
      removeStatusCondition(status.conditions, "Degraded");
    } else {
      setStatusCondition(status.conditions, {
        type: "Progressing",
        status: "True",
        reason: "Reconciling",
        message: `Ready replicas: ${ready}/${want}`,
        observedGeneration: myApp.metadata?.generation,
      });
    }
    const { lastUpdateTime: _, ...rest } = before;
    const { lastUpdateTime: __, ...now } = status;
    if (semanticEqual(rest, now)) return;
    status.lastUpdateTime = timeNow();
    await this.client.status().update(myApp);
  }
}

function setupWithManager(mgr: Manager, pollMs: number): void {
  mgr
    .controller(MyAppKind)
    .owns(kinds.Deployment)
    .owns(kinds.Service)
    .owns(kinds.HorizontalPodAutoscaler)
    .withEventFilter(generationChanged())
    .complete(new MyAppReconciler(mgr.client, pollMs));
}

let env: TestEnv;
beforeAll(async () => {
  // simulate: the deployment controller and kubelet report replicas ready, as in a cluster.
  env = await startEnv({ simulate: true });
});
afterAll(async () => {
  await env?.stop();
});

describe("seed 001: MyApp", () => {
  it("creates Deployment, Service and HPA with owner references, conditions and status", async () => {
    const mgr = newManager(env);
    setupWithManager(mgr, 200);
    const m = run(mgr);
    const api = mgr.apiReader;
    try {
      const ns = await namespace(mgr);
      const key = { namespace: ns, name: "web" };
      await mgr.client.create({
        apiVersion: "apps.example.com/v1",
        kind: "MyApp",
        metadata: { ...key },
        spec: { image: "nginx:1.27", replicas: 2, env: [{ name: "MODE", value: "prod" }] },
      });
      const dep = await eventually(() => api.get(kinds.Deployment, key), { timeout: 10_000 });
      const owner = await api.get(MyAppKind, key);
      expect(owner.spec.port).toBe(8080); // CRD default
      const ref = {
        apiVersion: "apps.example.com/v1",
        kind: "MyApp",
        name: "web",
        uid: owner.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      };
      expect(dep.metadata?.ownerReferences).toEqual([ref]);
      expect(dep.spec?.replicas).toBe(2);
      expect(dep.spec?.selector.matchLabels).toEqual(labelsFor("web"));
      const c = dep.spec?.template.spec?.containers[0];
      expect(c).toMatchObject({
        name: "app",
        image: "nginx:1.27",
        env: [{ name: "MODE", value: "prod" }],
      });
      expect(c?.ports).toEqual([{ name: "http", containerPort: 8080, protocol: "TCP" }]);
      const svc = await eventually(() => api.get(kinds.Service, key), { timeout: 10_000 });
      expect(svc.metadata?.ownerReferences).toEqual([ref]);
      expect(svc.spec?.type).toBe("ClusterIP");
      expect(svc.spec?.ports?.[0]).toMatchObject({ name: "http", port: 8080, targetPort: "http" });
      expect(svc.spec?.selector).toEqual(labelsFor("web"));
      expect(
        await api.get(kinds.HorizontalPodAutoscaler, key).catch(ignoreNotFound),
      ).toBeUndefined();

      // The Deployment becomes ready (simulated kubelet); MyApp notices by polling (requeueAfterMs),
      // as the seed filters owned-object events with GenerationChanged.
      await eventually(
        async () => {
          const s = (await api.get(MyAppKind, key)).status;
          expect(isStatusConditionTrue(s?.conditions, "Ready")).toBe(true);
          expect(findStatusCondition(s?.conditions, "Ready")?.message).toBe(
            "All replicas are ready",
          );
          // Progressing was set at the start and stays, as in the seed.
          expect(findStatusCondition(s?.conditions, "Progressing")?.observedGeneration).toBe(1);
          expect(s?.availableReplicas).toBe(2);
          expect(s?.readyReplicas).toBe(2);
          expect(s?.observedGeneration).toBe(1);
          expect(s?.lastUpdateTime).toMatch(/Z$/);
        },
        { timeout: 10_000 },
      );

      // Autoscaling on: an HPA appears and the Deployment stops dictating replicas.
      let app = await api.get(MyAppKind, key);
      app.spec.autoScaling = {
        enabled: true,
        minReplicas: 2,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 70,
      };
      app.spec.image = "nginx:1.28";
      await api.update(app);
      const hpa = await eventually(() => api.get(kinds.HorizontalPodAutoscaler, key), {
        timeout: 10_000,
      });
      expect(hpa.metadata?.ownerReferences).toEqual([ref]);
      expect(hpa.spec).toMatchObject({
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          {
            type: "Resource",
            resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } },
          },
        ],
      });
      await eventually(
        async () =>
          expect(
            (await api.get(kinds.Deployment, key)).spec?.template.spec?.containers[0]?.image,
          ).toBe("nginx:1.28"),
        { timeout: 10_000 },
      );

      // Autoscaling off: the HPA is deleted.
      app = await api.get(MyAppKind, key);
      app.spec.autoScaling = { enabled: false, maxReplicas: 5 };
      await api.update(app);
      await eventually(
        async () =>
          expect(
            await api.get(kinds.HorizontalPodAutoscaler, key).catch(ignoreNotFound),
          ).toBeUndefined(),
        { timeout: 10_000 },
      );

      // Steady state: polling reconciles keep running but write nothing.
      await new Promise((r) => setTimeout(r, 400));
      const before = (await api.get(MyAppKind, key)).metadata?.resourceVersion;
      const depBefore = (await api.get(kinds.Deployment, key)).metadata?.resourceVersion;
      await new Promise((r) => setTimeout(r, 700));
      expect((await api.get(MyAppKind, key)).metadata?.resourceVersion).toBe(before);
      expect((await api.get(kinds.Deployment, key)).metadata?.resourceVersion).toBe(depBefore);
    } finally {
      await m.stop();
    }
  });

  it("reports Degraded when a child cannot be written, and recovers", async () => {
    const mgr = newManager(env);
    setupWithManager(mgr, 200);
    const ns = await namespace(mgr);
    const key = { namespace: ns, name: "flaky" };
    env.faults.failNext({ verb: "create", resource: "deployments", code: 500, count: 1 });
    const m = run(mgr);
    const api = mgr.apiReader;
    try {
      await mgr.client.create({
        apiVersion: "apps.example.com/v1",
        kind: "MyApp",
        metadata: { ...key },
        spec: { image: "nginx" },
      });
      await eventually(
        async () => {
          const degraded = findStatusCondition(
            (await api.get(MyAppKind, key)).status?.conditions,
            "Degraded",
          );
          expect(degraded?.reason).toBe("ReconcileError");
          expect(degraded?.message).toMatch(/^Failed to reconcile Deployment/);
        },
        { timeout: 10_000 },
      );
      // The error was retried with backoff: the Deployment exists now and becomes ready.
      await eventually(() => api.get(kinds.Deployment, key), { timeout: 10_000 });
      await eventually(
        async () => {
          const conds = (await api.get(MyAppKind, key)).status?.conditions;
          expect(isStatusConditionTrue(conds, "Ready")).toBe(true);
          expect(findStatusCondition(conds, "Degraded")).toBeUndefined();
        },
        { timeout: 10_000 },
      );
    } finally {
      env.faults.reset();
      await m.stop();
    }
  });
});
